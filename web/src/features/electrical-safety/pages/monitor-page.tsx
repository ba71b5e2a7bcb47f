import type { MeterMapping, MonitorRow } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { metersQuery, monitorQuery } from '../api.ts';
import { fmt, issueKey, roleKey } from '../components/labels.ts';
import { MappingDialog } from '../components/mapping-dialog.tsx';

const phases = (r: MonitorRow, roles: readonly ['ua', 'ub', 'uc'] | readonly ['ia', 'ib', 'ic'], digits = 1) => (
  <span style={{ whiteSpace: 'nowrap' }}>
    {roles.some((k) => k in r.readings) ? roles.map((k) => fmt(r.readings[k], digits)).join(' / ') : '—'}
  </span>
);

/**
 * /energy_manage/elect_monitor: every meter's latest phase values and its quality figures
 * (unbalance, PF, THD, frequency) judged by the limits; a figure beyond its limit is red. Those
 * with the edit function set which item is which (the mapping).
 */
export const MonitorPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [site, setSite] = useState<number | null>(null);
  const answer = useQuery(monitorQuery(site));
  const meters = useQuery(metersQuery(site));
  const canEdit = useCan('/energy_manage/elect_monitor', 'edit');
  const [editing, setEditing] = useState<MeterMapping | null>(null);
  const limits = answer.data?.limits;
  const flagged = (row: MonitorRow, issue: MonitorRow['issues'][number], text: string) =>
    row.issues.includes(issue) ? <Typography.Text type="danger">{text}</Typography.Text> : text;

  return (
    <div data-testid="elect-monitor-page">
      <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
        <SiteSelect
          value={site}
          onChange={setSite}
          allowClear
          placeholder={t('electricalUi.allSites')}
          ariaLabel={t('electricalUi.site')}
        />
        {canEdit && (
          // Devices with switches only (no meter items) are set here too.
          <Select<number>
            value={null}
            style={{ width: 260 }}
            placeholder={t('electricalUi.mapping.pick')}
            aria-label={t('electricalUi.mapping.pick')}
            showSearch
            optionFilterProp="label"
            options={(meters.data ?? []).map((m) => ({
              value: m.device_id,
              label: `${m.device_group_name} / ${m.device_name}`,
            }))}
            onChange={(id) => setEditing(meters.data?.find((m) => m.device_id === id) ?? null)}
          />
        )}
        <Typography.Text type="secondary" style={{ marginInlineStart: 'auto' }}>
          {limits &&
            t('electricalUi.limitsLine', {
              vu: limits.voltage_unbalance_max,
              iu: limits.current_unbalance_max,
              thd: limits.thd_u_max,
              pf: limits.pf_min,
              f: limits.frequency_band,
            })}
        </Typography.Text>
      </Flex>
      <Table<MonitorRow>
        rowKey="device_id"
        size="small"
        loading={answer.isPending}
        dataSource={answer.data?.data ?? []}
        scroll={{ x: 1500 }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('electricalUi.site'), dataIndex: 'device_group_name', fixed: 'left', width: 120 },
          { title: t('electricalUi.device'), dataIndex: 'device_name', fixed: 'left', width: 110 },
          { title: `${t('electricalUi.phaseVoltages')} (V)`, render: (_, r) => phases(r, ['ua', 'ub', 'uc']) },
          { title: `${t('electricalUi.phaseCurrents')} (A)`, render: (_, r) => phases(r, ['ia', 'ib', 'ic']) },
          { title: `${t(roleKey('p'))} (kW)`, render: (_, r) => fmt(r.readings.p) },
          {
            title: t('electricalUi.figures.voltage_unbalance'),
            render: (_, r) => flagged(r, 'voltage_unbalance', `${fmt(r.figures.vuf ?? r.figures.voltage_unbalance)} %`),
          },
          {
            title: t('electricalUi.figures.current_unbalance'),
            render: (_, r) => flagged(r, 'current_unbalance', `${fmt(r.figures.current_unbalance)} %`),
          },
          { title: t('electricalUi.figures.pf'), render: (_, r) => flagged(r, 'pf', fmt(r.figures.pf, 3)) },
          {
            title: t('electricalUi.figures.thd_u'),
            render: (_, r) => flagged(r, 'thd_u', `${fmt(r.figures.thd_u)} %`),
          },
          {
            title: t('electricalUi.figures.frequency'),
            render: (_, r) => flagged(r, 'frequency', `${fmt(r.figures.frequency)} Hz`),
          },
          {
            title: t('electricalUi.issuesTitle'),
            render: (_, r) =>
              r.issues.length ? (
                <Space size={4} wrap>
                  {r.issues.map((i) => (
                    <Tag key={i} color="error">
                      {t(issueKey(i))}
                    </Tag>
                  ))}
                </Space>
              ) : (
                <Tag color="success">{t('electricalUi.ok')}</Tag>
              ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            width: 150,
            render: (_, r) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => navigate(`/energy_manage/elect_analysis?device_id=${r.device_id}`)}
                >
                  {t('electricalUi.analyse')}
                </Button>
                {canEdit && (
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setEditing(meters.data?.find((m) => m.device_id === r.device_id) ?? null)}
                  >
                    {t('electricalUi.mapping.button')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, fontSize: 12 }}>
        {t('electricalUi.definitions')}
      </Typography.Paragraph>
      <MappingDialog meter={editing} onClose={() => setEditing(null)} />
    </div>
  );
};
