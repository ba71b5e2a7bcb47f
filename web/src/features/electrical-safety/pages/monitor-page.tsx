import type { MeterMapping, MonitorRow } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, Space, Table, Tag, Typography } from 'antd';
import { type CSSProperties, type TdHTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { metersQuery, monitorQuery } from '../api.ts';
import { fmt, issueKey } from '../components/labels.ts';
import { MappingDialog } from '../components/mapping-dialog.tsx';

/** A reading for a narrow numeric cell: right-aligned figures of equal width. */
const num: CSSProperties = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' };

/** A reading column's key, also on its cells (`data-col`) so a journey finds a reading by its column. */
const col = (key: string) => ({ key, onCell: () => ({ 'data-col': key }) as TdHTMLAttributes<HTMLTableCellElement> });

/** Sub-column titles of the three phases. */
const phaseNames = ['A', 'B', 'C'] as const;

/**
 * Widths (px) that fit the whole table in the content area at 1366 px (1366 − 220 menu − margins ≈
 * 1 100): docs/electrical-safety.md "Pages". Below that the table scrolls, site and device fixed.
 */
const w = { site: 92, device: 100, phase: 52, p: 60, pf: 58, unbalance: 62, thd: 62, f: 64, issues: 124, actions: 92 };
/** Six phase columns and two unbalance columns: the table's whole width. */
const tableWidth = Object.values(w).reduce((a, b) => a + b, 0) + 5 * w.phase + w.unbalance;

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
        bordered
        tableLayout="fixed"
        scroll={{ x: tableWidth }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          {
            title: t('electricalUi.site'),
            dataIndex: 'device_group_name',
            fixed: 'left',
            width: w.site,
            ellipsis: { showTitle: true },
          },
          {
            title: t('electricalUi.device'),
            dataIndex: 'device_name',
            fixed: 'left',
            width: w.device,
            ellipsis: { showTitle: true },
          },
          {
            title: `${t('electricalUi.phaseVoltages')} (V)`,
            align: 'center',
            children: (['ua', 'ub', 'uc'] as const).map((k, i) => ({
              title: phaseNames[i],
              ...col(k),
              width: w.phase,
              align: 'right' as const,
              render: (_: unknown, r: MonitorRow) => <span style={num}>{fmt(r.readings[k], 1)}</span>,
            })),
          },
          {
            title: `${t('electricalUi.phaseCurrents')} (A)`,
            align: 'center',
            children: (['ia', 'ib', 'ic'] as const).map((k, i) => ({
              title: phaseNames[i],
              ...col(k),
              width: w.phase,
              align: 'right' as const,
              render: (_: unknown, r: MonitorRow) => <span style={num}>{fmt(r.readings[k], 1)}</span>,
            })),
          },
          {
            title: t('electricalUi.monitor.power'),
            align: 'center',
            children: [
              {
                title: 'P (kW)',
                ...col('p'),
                width: w.p,
                align: 'right',
                render: (_, r) => <span style={num}>{fmt(r.readings.p, 1)}</span>,
              },
              {
                title: 'PF',
                ...col('pf'),
                width: w.pf,
                align: 'right',
                render: (_, r) => <span style={num}>{flagged(r, 'pf', fmt(r.figures.pf, 3))}</span>,
              },
            ],
          },
          {
            title: t('electricalUi.monitor.unbalance'),
            align: 'center',
            children: [
              {
                title: t('electricalUi.monitor.voltage'),
                ...col('vu'),
                width: w.unbalance,
                align: 'right',
                render: (_, r) => (
                  <span style={num}>
                    {flagged(r, 'voltage_unbalance', fmt(r.figures.vuf ?? r.figures.voltage_unbalance))}
                  </span>
                ),
              },
              {
                title: t('electricalUi.monitor.current'),
                ...col('iu'),
                width: w.unbalance,
                align: 'right',
                render: (_, r) => (
                  <span style={num}>{flagged(r, 'current_unbalance', fmt(r.figures.current_unbalance))}</span>
                ),
              },
            ],
          },
          {
            title: t('electricalUi.monitor.quality'),
            align: 'center',
            children: [
              {
                title: 'THDu (%)',
                ...col('thd'),
                width: w.thd,
                align: 'right',
                render: (_, r) => <span style={num}>{flagged(r, 'thd_u', fmt(r.figures.thd_u))}</span>,
              },
              {
                title: t('electricalUi.monitor.frequency'),
                ...col('f'),
                width: w.f,
                align: 'right',
                render: (_, r) => <span style={num}>{flagged(r, 'frequency', fmt(r.figures.frequency))}</span>,
              },
            ],
          },
          {
            title: t('electricalUi.issuesTitle'),
            key: 'issues',
            width: w.issues,
            render: (_, r) =>
              r.issues.length ? (
                <Space size={4} wrap>
                  {r.issues.map((i) => (
                    // Long names wrap inside the column rather than run past it (English).
                    <Tag key={i} color="error" style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}>
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
            key: 'actions',
            fixed: 'right',
            width: w.actions,
            render: (_, r) => (
              <Space size={0} direction="vertical" align="start">
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
