import type { MeterEnergy } from '@sitewatch/contract/energy';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Select, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryKey, kwh, metersQuery, usedQuery } from '../api.ts';
import { EnergyChart } from '../components/energy-chart.tsx';
import { bucketLabel, EnergyFilterBar, useEnergyFilter } from '../components/energy-filter.tsx';
import { ExportButton } from '../components/export-button.tsx';
import { meterLabel } from '../components/facility.ts';

const ruleColors = { reset: 'orange', rollover: 'blue', dip: 'default', spike: 'red', gap: 'gold' } as const;
/** Meters drawn at once: more bars than this cannot be read. */
const maxSeries = 12;

/** The rules that fired on one meter and what each booked (docs/energy.md "Counter rules"). */
const RulesTable = ({ meter }: { meter: MeterEnergy }) => {
  const { t } = useTranslation();
  if (meter.events.length === 0)
    return <Typography.Text type="secondary">{t('energyUi.used.noRules')}</Typography.Text>;
  return (
    <Table
      rowKey={(e) => `${e.ts}-${e.rule}`}
      size="small"
      pagination={false}
      dataSource={meter.events}
      columns={[
        { title: t('energyUi.used.time'), render: (_, e) => dayjs.unix(e.ts).format('YYYY-MM-DD HH:mm') },
        {
          title: t('energyUi.used.rule'),
          render: (_, e) => <Tag color={ruleColors[e.rule]}>{t(`energyUi.rules.${e.rule}`)}</Tag>,
        },
        { title: t('energyUi.used.from'), dataIndex: 'from', align: 'right' },
        { title: t('energyUi.used.to'), dataIndex: 'to', align: 'right' },
        { title: t('energyUi.used.booked'), render: (_, e) => kwh(e.kwh), align: 'right' },
      ]}
    />
  );
};

/**
 * /energy_manage/energy_static: consumption per meter and interval from counter differences, with the
 * buckets partly spread over a gap marked estimated and every counter rule that fired, so no energy
 * is lost silently.
 */
export const ConsumptionPage = () => {
  const { t } = useTranslation();
  const filter = useEnergyFilter({ range: 'month' });
  const [meter, setMeter] = useState<number | null>(null);
  const meters = useQuery(metersQuery);
  const q = { ...filter.query, ...(meter ? { meter_id: meter } : {}) };
  const used = useQuery(usedQuery(q));
  const interval = q.interval ?? 'day';
  const rows = used.data ?? [];
  const option = useMemo(() => {
    const shown = [...rows].sort((a, b) => b.total_kwh - a.total_kwh).slice(0, maxSeries);
    const stamps = [...new Set(shown.flatMap((m) => m.buckets.map((b) => b.ts)))].sort((a, b) => a - b);
    return {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 56, right: 16, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: stamps.map((ts) => bucketLabel(ts, interval)) },
      yAxis: { type: 'value', name: 'kWh' },
      series: shown.map((m) => {
        const byTs = new Map(m.buckets.map((b) => [b.ts, b]));
        return {
          name: meterLabel(m),
          type: 'bar',
          data: stamps.map((ts) => {
            const b = byTs.get(ts);
            // Estimated buckets are drawn faded and hatched.
            return b?.estimated
              ? {
                  value: b.kwh,
                  itemStyle: { opacity: 0.45, decal: { symbol: 'rect', dashArrayX: [1, 0], rotation: 0.8 } },
                }
              : (b?.kwh ?? 0);
          }),
        };
      }),
    };
  }, [rows, interval]);

  return (
    <Card title={t('energyUi.used.title')}>
      <EnergyFilterBar
        filter={filter}
        extra={
          <Flex gap={8}>
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              value={meter}
              onChange={(v) => setMeter(v ?? null)}
              placeholder={t('energyUi.allMeters')}
              aria-label={t('energyUi.meter')}
              style={{ width: 220 }}
              options={(meters.data ?? [])
                .filter((m) => !filter.site || m.device_group_id === filter.site)
                .map((m) => ({ value: m.id, label: meterLabel({ name: m.name, site_name: m.device_group_name }) }))}
            />
            <ExportButton report="used" query={q} name="consumption" />
          </Flex>
        }
      />
      <EnergyChart option={used.data ? option : null} height={300} testId="used-chart" />
      <Typography.Paragraph type="secondary">{t('energyUi.used.estimatedHelp')}</Typography.Paragraph>
      <Table<MeterEnergy>
        rowKey="meter_id"
        size="small"
        loading={used.isLoading}
        dataSource={rows}
        pagination={false}
        expandable={{
          expandedRowRender: (m) => (
            <Flex vertical gap={12}>
              <RulesTable meter={m} />
              <Table
                rowKey="ts"
                size="small"
                pagination={{ pageSize: 24, hideOnSinglePage: true }}
                dataSource={m.buckets}
                columns={[
                  { title: t('energyUi.used.interval'), render: (_, b) => bucketLabel(b.ts, interval) },
                  { title: 'kWh', render: (_, b) => kwh(b.kwh), align: 'right' },
                  {
                    title: '',
                    render: (_, b) => (b.estimated ? <Tag color="gold">{t('energyUi.used.estimated')}</Tag> : null),
                  },
                ]}
              />
            </Flex>
          ),
        }}
        columns={[
          { title: t('energyUi.site'), dataIndex: 'site_name', width: 120, ellipsis: true },
          { title: t('energyUi.meters.name'), dataIndex: 'name' },
          { title: t('energyUi.meters.category'), render: (_, m) => t(categoryKey(m.category)) },
          { title: 'kWh', render: (_, m) => kwh(m.total_kwh), align: 'right' },
          {
            title: t('energyUi.used.estimatedBuckets'),
            render: (_, m) => {
              const n = m.buckets.filter((b) => b.estimated).length;
              return n > 0 ? <Tag color="gold">{n}</Tag> : 0;
            },
          },
          {
            title: t('energyUi.used.rules'),
            render: (_, m) => (
              <Flex gap={4} wrap>
                {Object.entries(
                  m.events.reduce<Record<string, number>>((acc, e) => {
                    acc[e.rule] = (acc[e.rule] ?? 0) + 1;
                    return acc;
                  }, {}),
                ).map(([rule, n]) => (
                  <Tag key={rule} color={ruleColors[rule as keyof typeof ruleColors]}>
                    {t(`energyUi.rules.${rule as keyof typeof ruleColors}`)} × {n}
                  </Tag>
                ))}
              </Flex>
            ),
          },
        ]}
      />
    </Card>
  );
};
