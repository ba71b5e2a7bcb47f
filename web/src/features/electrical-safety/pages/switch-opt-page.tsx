import { electricalSafetyRoutes as r, type SwitchRow } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { useOperationLogReader } from '../../../components/operation-log-reader.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { distributionQuery, electricalKeys } from '../api.ts';
import { ControlNotice, useSwitchControl } from '../components/control-state.tsx';
import { switchColor, switchStateKey } from '../components/labels.ts';
import { SettingsDrawer } from '../components/settings-drawer.tsx';
import { SwitchDialog, type SwitchTarget } from '../components/switch-dialog.tsx';

type Row = SwitchRow & { device_name: string; device_group_name: string };
const time = (s: number) => (s > 0 ? dayjs.unix(s).format('YYYY-MM-DD HH:mm:ss') : '—');

/**
 * /electricity_safe/switch_opt: every switch of the caller's sites with its state and the buttons
 * to close or open it (the control function, switch control on, the verification password), the
 * log of operations (failed password attempts too), and the settings for those who may edit them.
 */
export const SwitchOptPage = () => {
  const { t } = useTranslation();
  const read = useOperationLogReader();
  const [site, setSite] = useState<number | null>(null);
  const answer = useQuery(distributionQuery(site));
  const control = useSwitchControl(answer.data);
  const canEdit = useCan('/electricity_safe/switch_opt', 'edit');
  const [target, setTarget] = useState<SwitchTarget | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [page, setPage] = useState(1);
  const log = useQuery({
    queryKey: [...electricalKeys.all, 'log', site, page],
    queryFn: () => api.call(r.switchLog, { query: { page, limit: 10, ...(site ? { device_group_id: site } : {}) } }),
  });
  const rows: Row[] = (answer.data?.data ?? []).flatMap((s) =>
    s.devices.flatMap((d) =>
      d.switches.map((w) => ({ ...w, device_name: d.device_name, device_group_name: s.device_group_name })),
    ),
  );
  const button = (row: Row, value: 0 | 1) => (
    <Button
      size="small"
      danger={value === 0}
      // The state it is already in is not offered again.
      disabled={!control || !row.writable || row.switch_state === (value === 1 ? 'on' : 'off')}
      onClick={() => setTarget({ item_id: row.item_id, name: row.name, device_name: row.device_name, value })}
    >
      {value === 1 ? t('electricalUi.close') : t('electricalUi.open')}
    </Button>
  );

  return (
    <div data-testid="switch-opt-page">
      <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
        <SiteSelect
          value={site}
          onChange={setSite}
          allowClear
          placeholder={t('electricalUi.allSites')}
          ariaLabel={t('electricalUi.site')}
        />
        {canEdit && (
          <Button style={{ marginInlineStart: 'auto' }} onClick={() => setSettingsOpen(true)}>
            {t('electricalUi.settings.title')}
          </Button>
        )}
      </Flex>
      <ControlNotice answer={answer.data} />
      <Card size="small" title={t('electricalUi.switches')} style={{ marginBottom: 12 }}>
        <Table<Row>
          rowKey="item_id"
          size="small"
          loading={answer.isPending}
          dataSource={rows}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          columns={[
            { title: t('electricalUi.site'), dataIndex: 'device_group_name' },
            { title: t('electricalUi.device'), dataIndex: 'device_name' },
            { title: t('electricalUi.switch'), dataIndex: 'name' },
            {
              title: t('electricalUi.state'),
              dataIndex: 'switch_state',
              render: (s: Row['switch_state']) => <Tag color={switchColor[s]}>{t(switchStateKey(s))}</Tag>,
            },
            { title: t('electricalUi.lastCheck'), dataIndex: 'last_check', render: time },
            {
              title: t('common.actions'),
              render: (_, row) => (
                <Space>
                  {button(row, 1)}
                  {button(row, 0)}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('electricalUi.log.title')}>
        <Table
          rowKey="id"
          size="small"
          loading={log.isPending}
          dataSource={log.data?.data ?? []}
          pagination={{
            current: page,
            pageSize: 10,
            total: log.data?.total ?? 0,
            onChange: setPage,
            hideOnSinglePage: true,
          }}
          columns={[
            { title: t('electricalUi.log.time'), dataIndex: 'time', render: time },
            { title: t('electricalUi.log.user'), dataIndex: 'user_name' },
            { title: t('electricalUi.site'), dataIndex: 'device_group_name' },
            { title: t('electricalUi.device'), dataIndex: 'device_name' },
            { title: t('electricalUi.switch'), dataIndex: 'switch_name' },
            {
              title: t('electricalUi.log.action'),
              dataIndex: 'value',
              render: (v: number | null) =>
                v === 1 ? t('electricalUi.close') : v === 0 ? t('electricalUi.open') : '—',
            },
            {
              title: t('electricalUi.log.result'),
              dataIndex: 'result',
              render: (v: number, row) =>
                v === 1 ? (
                  <Tag color="success">{t('electricalUi.log.ok')}</Tag>
                ) : (
                  <Tag color="error" title={read.detail(row.detail)}>
                    {/wrong password|switchWrongPassword/.test(row.detail)
                      ? t('electricalUi.log.wrongPassword')
                      : t('electricalUi.log.failed')}
                  </Tag>
                ),
            },
          ]}
        />
      </Card>
      <SwitchDialog target={target} onClose={() => setTarget(null)} />
      {canEdit && <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />}
    </div>
  );
};
