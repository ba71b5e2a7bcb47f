import type { MeterMapping, MonitorRow } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { metersQuery, monitorQuery } from '../api.ts';
import { issueKey } from '../components/labels.ts';
import { MappingDialog } from '../components/mapping-dialog.tsx';
import { readingColumns, tableWidth, w } from '../components/monitor-columns.tsx';

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
          ...readingColumns(t, flagged),
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
