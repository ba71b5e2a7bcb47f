import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Empty, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../../session/permissions.ts';
import { devicesQuery, logsQuery, useSync } from '../api.ts';
import { LogTable } from '../components/log-table.tsx';

/** An address the controller's own web page may be opened at: http(s) only, never a script. */
const webAddress = (raw: string | null) => {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/**
 * /door_device (002 §2.1, 000 §2.5 "query pathUrl"): one controller: what it is, its doors, whether
 * it answers, its latest records, sync now; `?id=` names it (else the first), `pathUrl` the
 * address of the controller's own web page, opened in a new tab (docs/door-access.md).
 */
export const DoorDevicePage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const devices = useQuery(devicesQuery);
  const sync = useSync();
  const canSync = useCan('/door_devices', 'edit');
  const list = devices.data?.list ?? [];
  const wanted = Number(params.get('id'));
  const ctrl = list.find((c) => c.id === wanted) ?? list[0] ?? null;
  const web = webAddress(params.get('pathUrl'));
  const logs = useQuery({
    ...logsQuery({ page: 1, page_size: 10, ...(ctrl ? { controller_id: ctrl.id } : {}) }),
    enabled: ctrl !== null,
    refetchInterval: 5000,
  });
  const choose = (id: number) =>
    setParams((p) => {
      p.set('id', String(id));
      return p;
    });
  return (
    <Card
      title={t('doorPage.deviceTitle')}
      extra={
        <Space>
          <Select
            style={{ width: 220 }}
            aria-label={t('doorPage.controller')}
            value={ctrl?.id}
            onChange={choose}
            options={list.map((c) => ({ value: c.id, label: c.name }))}
          />
          {web && (
            <Button href={web} target="_blank" rel="noopener noreferrer">
              {t('doorPage.openWeb')}
            </Button>
          )}
          {canSync && ctrl && (
            <Button
              loading={sync.isPending}
              onClick={async () => {
                const r = await sync.mutateAsync(ctrl.id);
                message.info(
                  t('doorPage.synced', { events: r.events, gaps: r.gaps, cards: r.cards_put + r.cards_removed }),
                );
              }}
            >
              {t('doorPage.sync')}
            </Button>
          )}
        </Space>
      }
    >
      {!ctrl ? (
        <Empty description={t('doorPage.noControllers')} />
      ) : (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions size="small" bordered column={3}>
            <Descriptions.Item label={t('doorPage.name')}>{ctrl.name}</Descriptions.Item>
            <Descriptions.Item label={t('doorPage.brand')}>
              {[ctrl.brand, ctrl.model].filter(Boolean).join(' ')}
            </Descriptions.Item>
            <Descriptions.Item label={t('doorPage.protocol')}>{t('doorPage.protocols.wgUdp')}</Descriptions.Item>
            <Descriptions.Item label={t('doorPage.serial')}>{ctrl.serial}</Descriptions.Item>
            <Descriptions.Item label={t('doorPage.address')}>{`${ctrl.address}:${ctrl.port}`}</Descriptions.Item>
            <Descriptions.Item label={t('doorPage.state')}>
              <Tag color={ctrl.online ? 'green' : 'default'}>
                {ctrl.online ? t('doorPage.online') : t('doorPage.offline')}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('doorPage.lastEvent')}>{ctrl.last_event_index}</Descriptions.Item>
          </Descriptions>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={ctrl.doors}
            columns={[
              { title: t('doorPage.doorNumber'), dataIndex: 'number' },
              { title: t('doorPage.nickname'), render: (_, d) => d.nickname || '—' },
              {
                title: t('doorPage.direction'),
                render: (_, d) => t(`doorPage.directions.${d.direction as 'in' | 'out' | 'both'}`),
              },
            ]}
          />
          <LogTable
            rows={logs.data?.list ?? []}
            total={Math.min(logs.data?.total ?? 0, 10)}
            page={1}
            pageSize={10}
            loading={logs.isLoading}
            onPage={() => {}}
            without={['controller']}
          />
        </Space>
      )}
    </Card>
  );
};
