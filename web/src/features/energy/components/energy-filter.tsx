import { intervals } from '@sitewatch/contract/energy';
import { Button, DatePicker, Flex, Select } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SiteSelect } from '../../../components/site-select.tsx';
import { rangeBounds } from '../../../components/time-ranges.ts';
import type { EnergyQuery } from '../api.ts';

/** 002 §4's time ranges (the curve's extra "last 4 hours" is too short for energy). */
export const energyRanges = ['today', 'week', 'month', 'year', 'last24h', 'last3d', 'last7d', 'custom'] as const;
export type EnergyRange = (typeof energyRanges)[number];
export type Interval = (typeof intervals)[number];

/** The interval a range opens with: a few dozen buckets. */
const intervalOf: Record<EnergyRange, Interval> = {
  today: 'hour',
  last24h: 'hour',
  last3d: 'hour',
  week: 'day',
  last7d: 'day',
  month: 'day',
  year: 'month',
  custom: 'day',
};

const rangeKeys = {
  today: 'deviceUi.curve.ranges.today',
  week: 'deviceUi.curve.ranges.week',
  month: 'deviceUi.curve.ranges.month',
  year: 'deviceUi.curve.ranges.year',
  last24h: 'deviceUi.curve.ranges.last24h',
  last3d: 'deviceUi.curve.ranges.last3d',
  last7d: 'deviceUi.curve.ranges.last7d',
  custom: 'deviceUi.curve.ranges.custom',
} as const;
const intervalKeys = {
  hour: 'energyUi.intervals.hour',
  day: 'energyUi.intervals.day',
  month: 'energyUi.intervals.month',
  year: 'energyUi.intervals.year',
} as const;

export interface EnergyFilter {
  query: EnergyQuery;
  range: EnergyRange;
  setRange: (r: EnergyRange) => void;
  custom: [dayjs.Dayjs, dayjs.Dayjs] | null;
  setCustom: (v: [dayjs.Dayjs, dayjs.Dayjs] | null) => void;
  interval: Interval;
  setInterval: (i: Interval) => void;
  site: number | null;
  setSite: (s: number | null) => void;
  /** Moves calendar and rolling ranges up to now (the query button). */
  refresh: () => void;
}

/**
 * A page's site, time range and interval as the analysis routes' query. The range is fixed at the
 * moment it was chosen (or refreshed), so the query and its cache key stay put between renders.
 */
export const useEnergyFilter = (initial: { range?: EnergyRange; site?: number | null } = {}): EnergyFilter => {
  const [range, setRangeState] = useState<EnergyRange>(initial.range ?? 'month');
  const [custom, setCustom] = useState<[dayjs.Dayjs, dayjs.Dayjs] | null>(null);
  const [interval, setInterval] = useState<Interval>(intervalOf[initial.range ?? 'month']);
  const [site, setSite] = useState<number | null>(initial.site ?? null);
  const [anchor, setAnchor] = useState(() => Date.now());
  const [t1, t2] = rangeBounds(range, anchor, custom ? [custom[0].unix(), custom[1].unix()] : undefined);
  return {
    query: { t1, t2, interval, ...(site ? { device_group_id: site } : {}) },
    range,
    setRange: (r) => {
      setRangeState(r);
      setInterval(intervalOf[r]);
      setAnchor(Date.now());
    },
    custom,
    setCustom,
    interval,
    setInterval,
    site,
    setSite,
    refresh: () => setAnchor(Date.now()),
  };
};

/** The filter's controls: site (required where the page says so), range, custom dates, interval. */
export const EnergyFilterBar = ({
  filter,
  siteRequired = false,
  interval = true,
  extra,
}: {
  filter: EnergyFilter;
  siteRequired?: boolean;
  interval?: boolean;
  extra?: ReactNode;
}) => {
  const { t } = useTranslation();
  return (
    <Flex gap={8} wrap align="center" style={{ marginBottom: 16 }}>
      <SiteSelect
        value={filter.site}
        onChange={filter.setSite}
        allowClear={!siteRequired}
        placeholder={siteRequired ? t('energyUi.chooseSite') : t('energyUi.allSites')}
        ariaLabel={t('energyUi.site')}
      />
      <Select<EnergyRange>
        value={filter.range}
        onChange={filter.setRange}
        style={{ width: 130 }}
        aria-label={t('energyUi.range')}
        options={energyRanges.map((r) => ({ value: r, label: t(rangeKeys[r]) }))}
      />
      {filter.range === 'custom' ? (
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          value={filter.custom}
          onChange={(v) => filter.setCustom(v?.[0] && v[1] ? [v[0], v[1]] : null)}
        />
      ) : null}
      {interval ? (
        <Select<Interval>
          value={filter.interval}
          onChange={filter.setInterval}
          style={{ width: 100 }}
          aria-label={t('energyUi.interval')}
          options={intervals.map((i) => ({ value: i, label: t(intervalKeys[i]) }))}
        />
      ) : null}
      <Button onClick={filter.refresh}>{t('energyUi.refresh')}</Button>
      {extra ? <Flex style={{ marginInlineStart: 'auto' }}>{extra}</Flex> : null}
    </Flex>
  );
};

/** Bucket start as text for the interval (axis labels and table rows). */
export const bucketLabel = (ts: number, interval: Interval) =>
  dayjs.unix(ts).format({ hour: 'MM-DD HH:00', day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' }[interval]);
