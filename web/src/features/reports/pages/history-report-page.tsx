import {
  autoInterval,
  type HistoryRange,
  type HistoryTemplateRow,
  historyRanges,
  historyTableQuery as historyTableSchema,
  historyTemplateInput,
  type templateInterval,
} from '@sitewatch/contract/series';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Typography,
  theme,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { devicesQuery, itemsQuery } from '../../../api/monitoring.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { tzOffset } from '../../../components/time.ts';
import { rangeBounds } from '../../../components/time-ranges.ts';
import { useCan } from '../../../session/permissions.ts';
import { historySeriesQuery, historyTableQuery, historyTemplatesQuery, reportsApi } from '../api.ts';

// ECharts loads with the chart only, in its own chunk.
const CurveChart = lazy(() => import('../../../components/curve-chart.tsx').then((m) => ({ default: m.CurveChart })));

type Interval = z.infer<typeof templateInterval>;
type Resolved = Exclude<Interval, 'auto'>;

interface Selection {
  site: number | null;
  device_ids: number[];
  item_ids: number[];
  range: HistoryRange;
  custom: [Dayjs, Dayjs] | null;
  interval: Interval;
}

interface RunQuery {
  item_ids: number[];
  t1: number;
  t2: number;
  interval: Resolved;
}

/** At most this many items are drawn on the chart (the table shows every item). */
const chartItemLimit = 20;

const rangeKeys = {
  today: 'reportsUi.history.ranges.today',
  week: 'reportsUi.history.ranges.week',
  month: 'reportsUi.history.ranges.month',
  year: 'reportsUi.history.ranges.year',
  last24h: 'reportsUi.history.ranges.last24h',
  last3d: 'reportsUi.history.ranges.last3d',
  last7d: 'reportsUi.history.ranges.last7d',
  custom: 'reportsUi.history.ranges.custom',
} as const satisfies Record<HistoryRange, string>;
const intervalKeys = {
  auto: 'reportsUi.history.intervals.auto',
  raw: 'reportsUi.history.intervals.raw',
  minute: 'reportsUi.history.intervals.minute',
  hour: 'reportsUi.history.intervals.hour',
  day: 'reportsUi.history.intervals.day',
} as const satisfies Record<Interval, string>;
const timeFormats: Record<Resolved, string> = {
  raw: 'YYYY-MM-DD HH:mm:ss',
  minute: 'YYYY-MM-DD HH:mm',
  hour: 'YYYY-MM-DD HH:00',
  day: 'YYYY-MM-DD',
};

const initial: Selection = {
  site: null,
  device_ids: [],
  item_ids: [],
  range: 'last24h',
  custom: null,
  interval: 'auto',
};

const round = (v: number) => String(Math.round(v * 100) / 100);

/**
 * /history_report (002 §2.1, §4, §7.5): history of chosen items over a range (today … last 7 days,
 * or custom) at a granularity chosen from the range or by hand; a table of times × items paged by
 * the server, a chart, an xlsx export, and saved templates of the whole selection.
 */
export const HistoryReportPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const client = useQueryClient();
  const [form] = Form.useForm<Selection>();
  const [run, setRun] = useState<RunQuery | null>(null);
  const [paging, setPaging] = useState({ page: 1, limit: 20, order: 'asc' as 'asc' | 'desc' });
  const [showChart, setShowChart] = useState(true);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [templateName, setTemplateName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const canExport = useCan('/history_report', 'export');
  const canAdd = useCan('/history_report', 'add');
  const canDelete = useCan('/history_report', 'delete');

  const site = Form.useWatch('site', form) ?? null;
  const deviceIds = Form.useWatch('device_ids', form) ?? [];
  const range = Form.useWatch('range', form) ?? 'last24h';

  const devices = useQuery({
    ...devicesQuery({ page: 1, limit: 1000, device_group_id: site ?? 0 }),
    enabled: site !== null,
  });
  const items = useQuery({
    ...itemsQuery({ page: 1, limit: 1000, device_group_id: site ?? 0 }),
    enabled: site !== null,
  });
  const templates = useQuery(historyTemplatesQuery);
  const table = useQuery({
    ...historyTableQuery(run ? { ...run, ...paging } : { item_ids: [1], t1: 0, t2: 0 }),
    enabled: run !== null,
  });

  // Item options grouped by device: the chosen devices, or every device of the site.
  const itemOptions = useMemo(() => {
    const chosen = new Set(deviceIds);
    const groups = new Map<number, { label: string; options: Array<{ value: number; label: string }> }>();
    for (const item of items.data?.data ?? []) {
      if (chosen.size > 0 && !chosen.has(item.device_id)) continue;
      const group = groups.get(item.device_id) ?? { label: item.device_name, options: [] };
      group.options.push({ value: item.id, label: `${item.name}${item.unit ? ` (${item.unit})` : ''}` });
      groups.set(item.device_id, group);
    }
    return [...groups.values()];
  }, [items.data, deviceIds]);

  /** Checks the selection as the server would, and shows each problem on its field. */
  const toQuery = (values: Selection): RunQuery | null => {
    const errors: Array<{ name: keyof Selection; errors: string[] }> = [];
    if (values.site === null || values.site === undefined) {
      errors.push({ name: 'site', errors: [t('monitoring.validation.site')] });
    }
    if (!values.item_ids?.length) errors.push({ name: 'item_ids', errors: [t('monitoring.validation.items')] });
    if (values.range === 'custom' && !values.custom) {
      errors.push({ name: 'custom', errors: [t('monitoring.validation.range')] });
    }
    if (errors.length) {
      form.setFields(errors);
      return null;
    }
    const [t1, t2] = rangeBounds(
      values.range,
      Date.now(),
      values.custom ? [values.custom[0].unix(), values.custom[1].unix()] : undefined,
    );
    const interval = values.interval === 'auto' ? autoInterval(t1, t2) : values.interval;
    const parsed = historyTableSchema.safeParse({ item_ids: values.item_ids, t1, t2, interval });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field: keyof Selection =
        issue.path[0] === 't2' || issue.path[0] === 't1'
          ? values.range === 'custom'
            ? 'custom'
            : 'interval'
          : 'item_ids';
      form.setFields([{ name: field, errors: [t(issue.message as never)] }]);
      return null;
    }
    return { item_ids: values.item_ids, t1, t2, interval };
  };

  const onQuery = (values: Selection) => {
    const q = toQuery(values);
    if (!q) return;
    setRun(q);
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const applyTemplate = (tpl: HistoryTemplateRow) => {
    const values: Selection = {
      site: tpl.site_id > 0 ? tpl.site_id : null,
      device_ids: tpl.device_ids,
      item_ids: tpl.item_ids,
      range: tpl.range,
      custom: tpl.t1 !== null && tpl.t2 !== null ? [dayjs.unix(tpl.t1), dayjs.unix(tpl.t2)] : null,
      interval: tpl.interval,
    };
    form.resetFields();
    form.setFieldsValue(values);
    onQuery(values);
  };

  const remove = useMutation({
    mutationFn: (id: number) => reportsApi.deleteTemplate(id),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setTemplateId(null);
      void client.invalidateQueries({ queryKey: ['reports', 'templates'] });
    },
    onError: (err) => void message.error(err.message),
  });
  const create = useMutation({
    mutationFn: reportsApi.createTemplate,
    onSuccess: (tpl) => {
      void message.success(t('common.operationSuccess'));
      setSaving(false);
      setTemplateId(tpl.id);
      void client.invalidateQueries({ queryKey: ['reports', 'templates'] });
    },
    onError: (err) => setNameError(err.message),
  });
  const onSaveTemplate = () => {
    const values = form.getFieldsValue(true) as Selection;
    const body = {
      name: templateName,
      item_ids: values.item_ids ?? [],
      interval: values.interval ?? 'auto',
      site_id: values.site ?? 0,
      device_ids: values.device_ids ?? [],
      range: values.range ?? 'last24h',
      t1: values.custom ? values.custom[0].unix() : null,
      t2: values.custom ? values.custom[1].unix() : null,
    };
    const parsed = historyTemplateInput.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setNameError(
        issue.message.startsWith('monitoring.') ? t(issue.message as never) : t('monitoring.validation.reportTitle'),
      );
      return;
    }
    setNameError(null);
    create.mutate(parsed.data);
  };

  const onExport = async () => {
    if (!run) return;
    setExporting(true);
    try {
      await reportsApi.exportHistory(
        { ...run, page: 1, limit: 1000, tz_offset: tzOffset() },
        `${t('menu.historyReport')}.xlsx`,
      );
    } catch (err) {
      void message.error(err instanceof Error ? err.message : t('common.operationFailed'));
    } finally {
      setExporting(false);
    }
  };

  // Chart: the bounded, down-sampled series of each item (spikes kept), not the table's page.
  const chartItems = (table.data?.items ?? []).slice(0, chartItemLimit);
  const series = useQueries({
    queries: chartItems.map((c) => ({
      ...historySeriesQuery(c.item_id, run?.t1 ?? 0, run?.t2 ?? 0),
      enabled: run !== null && showChart,
    })),
  });
  // The chart redraws when an item's points change, not on every render of the page.
  const linesKey = `${chartItems.map((c) => c.item_id).join(',')}|${series.map((s) => s.dataUpdatedAt).join(',')}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: linesKey stands for chartItems and series
  const lines = useMemo(
    () =>
      chartItems.map((c, i) => ({
        name: `${c.device_name} ${c.item_name}`,
        unit: c.unit,
        data: (series[i]?.data?.points ?? []).map((p) => [p.ts * 1000, p.value] as [number, number]),
      })),
    [linesKey],
  );
  const chartPoints = lines.reduce((n, l) => n + l.data.length, 0);
  const colors = useMemo(
    () => ({
      text: token.colorText,
      secondary: token.colorTextSecondary,
      border: token.colorBorderSecondary,
      background: token.colorBgContainer,
    }),
    [token],
  );

  const columns: ColumnsType<{ ts: number; values: Array<number | null> }> = [
    {
      key: 'ts',
      title: t('monitoring.history.time'),
      dataIndex: 'ts',
      fixed: 'left',
      width: 170,
      sorter: true,
      sortOrder: paging.order === 'asc' ? 'ascend' : 'descend',
      sortDirections: ['ascend', 'descend', 'ascend'],
      render: (ts: number) => dayjs.unix(ts).format(timeFormats[run?.interval ?? 'raw']),
    },
    ...(table.data?.items ?? []).map((c, i) => ({
      key: String(c.item_id),
      title: (
        <Flex vertical>
          <span>{c.item_name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
            {c.device_name}
            {c.unit ? ` · ${c.unit}` : ''}
          </Typography.Text>
        </Flex>
      ),
      align: 'right' as const,
      width: 140,
      render: (_: unknown, row: { values: Array<number | null> }) => {
        const v = row.values[i];
        return v === null || v === undefined ? <Typography.Text type="secondary">—</Typography.Text> : round(v);
      },
    })),
  ];

  const templateOptions = (templates.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }));

  return (
    <Flex vertical gap={12}>
      <Card title={t('menu.historyReport')} styles={{ body: { paddingBottom: 8 } }}>
        <Form<Selection>
          form={form}
          name="history_report"
          layout="inline"
          initialValues={initial}
          onFinish={onQuery}
          style={{ rowGap: 8 }}
          onValuesChange={(changed) => {
            // A changed field drops the message the last query put on it.
            form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof Selection, errors: [] })));
            if ('site' in changed) form.setFieldsValue({ device_ids: [], item_ids: [] });
          }}
        >
          <Form.Item name="site" label={t('reports.site')}>
            <SiteSelect devicesOnly ariaLabel={t('reports.site')} placeholder={t('reportsUi.history.chooseSite')} />
          </Form.Item>
          <Form.Item name="device_ids" label={t('reports.device')}>
            <Select
              mode="multiple"
              allowClear
              maxTagCount="responsive"
              style={{ width: 200 }}
              placeholder={t('reportsUi.history.allDevices')}
              showSearch={{ optionFilterProp: 'label' }}
              options={(devices.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
            />
          </Form.Item>
          <Form.Item name="item_ids" label={t('reports.item')}>
            <Select
              mode="multiple"
              allowClear
              maxTagCount="responsive"
              style={{ width: 260 }}
              placeholder={t('reportsUi.history.chooseItems')}
              showSearch={{ optionFilterProp: 'label' }}
              options={itemOptions}
            />
          </Form.Item>
          <Form.Item name="range" label={t('reportsUi.history.range')}>
            <Select style={{ width: 150 }} options={historyRanges.map((r) => ({ value: r, label: t(rangeKeys[r]) }))} />
          </Form.Item>
          {range === 'custom' && (
            <Form.Item name="custom">
              <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
            </Form.Item>
          )}
          <Form.Item name="interval" label={t('reportsUi.history.interval')}>
            <Select
              style={{ width: 130 }}
              options={(['auto', 'raw', 'minute', 'hour', 'day'] as const).map((v) => ({
                value: v,
                label: t(intervalKeys[v]),
              }))}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit">
              {t('common.search')}
            </Button>
          </Form.Item>
        </Form>
        <Flex wrap gap={8} justify="space-between" align="center" style={{ marginTop: 12 }}>
          <Space wrap size={8}>
            <Select
              aria-label={t('reportsUi.history.templates')}
              style={{ width: 200 }}
              placeholder={t('reportsUi.history.loadTemplate')}
              value={templateId ?? undefined}
              options={templateOptions}
              notFoundContent={
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reportsUi.history.noTemplates')} />
              }
              onChange={(id: number) => {
                setTemplateId(id);
                const tpl = templates.data?.find((x) => x.id === id);
                if (tpl) applyTemplate(tpl);
              }}
            />
            {canDelete && templateId !== null && (
              <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(templateId)}>
                <Button danger loading={remove.isPending}>
                  {t('reportsUi.history.deleteTemplate')}
                </Button>
              </Popconfirm>
            )}
            {canAdd && (
              <Button
                onClick={() => {
                  setTemplateName('');
                  setNameError(null);
                  setSaving(true);
                }}
              >
                {t('reportsUi.history.saveTemplate')}
              </Button>
            )}
          </Space>
          <Space wrap size={12}>
            <Space size={6}>
              <Switch
                size="small"
                checked={showChart}
                onChange={setShowChart}
                aria-label={t('reportsUi.history.chart')}
              />
              <span>{t('reportsUi.history.chart')}</span>
            </Space>
            {canExport && (
              <Button onClick={() => void onExport()} loading={exporting} disabled={!run}>
                {t('common.export')}
              </Button>
            )}
          </Space>
        </Flex>
      </Card>

      {!run ? (
        <Card>
          <Empty description={t('reportsUi.history.hint')} />
        </Card>
      ) : (
        <>
          {showChart && (
            <Card
              size="small"
              title={t('reportsUi.history.chart')}
              extra={
                (table.data?.items.length ?? 0) > chartItemLimit ? (
                  <Typography.Text type="secondary">
                    {t('reportsUi.history.chartLimit', { count: chartItemLimit })}
                  </Typography.Text>
                ) : null
              }
            >
              <div data-testid="history-chart" data-points={chartPoints}>
                {series.some((s) => s.isLoading) && chartPoints === 0 ? (
                  <Flex justify="center" style={{ height: 300 }} align="center">
                    <Spin />
                  </Flex>
                ) : chartPoints === 0 ? (
                  <Empty description={t('reportsUi.history.noData')} style={{ height: 300, paddingTop: 100 }} />
                ) : (
                  <Suspense fallback={<Spin />}>
                    <CurveChart
                      lines={lines}
                      colors={colors}
                      noUnit={t('reportsUi.history.noUnit')}
                      height={300}
                      range={[run.t1 * 1000, run.t2 * 1000]}
                    />
                  </Suspense>
                )}
              </div>
            </Card>
          )}
          <Card size="small" title={t('reportsUi.history.table')}>
            <Table
              rowKey="ts"
              size="small"
              columns={columns}
              dataSource={table.data?.data ?? []}
              loading={table.isFetching}
              scroll={{ x: 170 + 140 * (table.data?.items.length ?? 0) }}
              locale={{ emptyText: <Empty description={t('reportsUi.history.noData')} /> }}
              onChange={(pagination, _f, sorter) => {
                const s = Array.isArray(sorter) ? sorter[0] : sorter;
                const order = s?.order === 'descend' ? 'desc' : 'asc';
                setPaging({
                  page: order !== paging.order ? 1 : (pagination.current ?? 1),
                  limit: pagination.pageSize ?? 20,
                  order,
                });
              }}
              pagination={{
                current: paging.page,
                pageSize: paging.limit,
                total: table.data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: [20, 50, 100],
                showTotal: (total) => t('reportsUi.total', { total }),
              }}
            />
          </Card>
        </>
      )}

      <Modal
        title={t('reportsUi.history.saveTemplate')}
        open={saving}
        onCancel={() => setSaving(false)}
        onOk={onSaveTemplate}
        confirmLoading={create.isPending}
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item
            label={t('reportsUi.history.templateName')}
            validateStatus={nameError ? 'error' : undefined}
            help={nameError ?? t('reportsUi.history.templateHint')}
          >
            <Input
              aria-label={t('reportsUi.history.templateName')}
              value={templateName}
              maxLength={64}
              onChange={(e) => setTemplateName(e.target.value)}
              onPressEnter={onSaveTemplate}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
};
