import {
  autoInterval,
  type HistoryRange,
  historyRanges,
  historyTableQuery as historyTableSchema,
  type templateInterval,
} from '@sitewatch/contract/series';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, type FormInstance, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { devicesQuery, itemsQuery } from '../../../api/monitoring.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { rangeBounds } from '../../../components/time-ranges.ts';

export type Interval = z.infer<typeof templateInterval>;
export type Resolved = Exclude<Interval, 'auto'>;

/** What the history report's form holds: the site, devices and items, the range and the granularity. */
export interface Selection {
  site: number | null;
  device_ids: number[];
  item_ids: number[];
  range: HistoryRange;
  custom: [Dayjs, Dayjs] | null;
  interval: Interval;
}

/** A query the report runs: the items over [t1, t2] at a resolved granularity. */
export interface RunQuery {
  item_ids: number[];
  t1: number;
  t2: number;
  interval: Resolved;
}

export const initialSelection: Selection = {
  site: null,
  device_ids: [],
  item_ids: [],
  range: 'last24h',
  custom: null,
  interval: 'auto',
};

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

/** A problem of the selection, on its field, as an i18n key. */
export interface SelectionProblem {
  name: keyof Selection;
  key: string;
}

/** Checks the selection as the server would: the query to run, or the problems to show on their fields. */
export const checkSelection = (values: Selection, nowMs: number): RunQuery | SelectionProblem[] => {
  const problems: SelectionProblem[] = [];
  if (values.site === null || values.site === undefined)
    problems.push({ name: 'site', key: 'monitoring.validation.site' });
  if (!values.item_ids?.length) problems.push({ name: 'item_ids', key: 'monitoring.validation.items' });
  if (values.range === 'custom' && !values.custom)
    problems.push({ name: 'custom', key: 'monitoring.validation.range' });
  if (problems.length) return problems;
  const [t1, t2] = rangeBounds(
    values.range,
    nowMs,
    values.custom ? [values.custom[0].unix(), values.custom[1].unix()] : undefined,
  );
  const interval = values.interval === 'auto' ? autoInterval(t1, t2) : values.interval;
  const parsed = historyTableSchema.safeParse({ item_ids: values.item_ids, t1, t2, interval });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const timeField = values.range === 'custom' ? 'custom' : 'interval';
    const name = issue.path[0] === 't2' || issue.path[0] === 't1' ? timeField : 'item_ids';
    return [{ name, key: issue.message }];
  }
  return { item_ids: values.item_ids, t1, t2, interval };
};

/** The history report's selection form: site, devices, items grouped by device, range and granularity. */
export const SelectionForm = ({
  form,
  onQuery,
}: {
  form: FormInstance<Selection>;
  onQuery: (values: Selection) => void;
}) => {
  const { t } = useTranslation();
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

  return (
    <Form<Selection>
      form={form}
      name="history_report"
      layout="inline"
      initialValues={initialSelection}
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
  );
};
