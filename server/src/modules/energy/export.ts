import { type Language, sharedText } from '@sitewatch/contract';
import type { exportQuery } from '@sitewatch/contract/energy';
import type { z } from 'zod';
import { sheetWorkbook } from '../../http/xlsx.ts';
import type { EnergyService } from './service.ts';

type Allowed = number[] | null;
type ExportQuery = z.infer<typeof exportQuery>;

/** Local time text of an interval start on the server's clock (the clock the buckets are cut on). */
const timeText = (zone: string, interval: ExportQuery['interval']) => {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  return (ts: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(ts * 1000)).map((x) => [x.type, x.value]));
    if (interval === 'year') return `${p.year}`;
    if (interval === 'month') return `${p.year}-${p.month}`;
    if (interval === 'day') return `${p.year}-${p.month}-${p.day}`;
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  };
};

/**
 * An analysis answer as one sheet (energy/export): the same service call the page makes, its
 * rows with localized headers; energy in kWh, money in yuan from the exact fen.
 */
export const energyWorkbook = async (
  service: EnergyService,
  q: ExportQuery,
  allowed: Allowed,
  lang: Language,
  zone: string,
) => {
  const h = (key: string) => ({ header: sharedText(lang, `energy.columns.${key}`), width: 16 });
  const cat = (c: string) => sharedText(lang, `energy.categories.${c}`);
  const yes = (b: boolean) => sharedText(lang, b ? 'energy.columns.yes' : 'energy.columns.no');
  const time = timeText(zone, q.interval);
  const title = sharedText(lang, `energy.reports.${q.report}`);
  const { report, category, ...query } = q;
  const yuan = (cents: number) => cents / 100;
  switch (report) {
    case 'used': {
      const rows = await service.used(query, allowed);
      return sheetWorkbook(
        title,
        ['site', 'meter', 'category', 'time', 'kwh', 'estimated'].map(h),
        rows.flatMap((m) =>
          m.buckets.map((b) => [m.site_name, m.name, cat(m.category), time(b.ts), b.kwh, yes(b.estimated)]),
        ),
      );
    }
    case 'ranking': {
      const rows = await service.ranking(query, allowed);
      return sheetWorkbook(
        title,
        ['rank', 'site', 'meter', 'category', 'kwh'].map(h),
        rows.map((m, i) => [i + 1, m.site_name, m.name, cat(m.category), m.kwh]),
      );
    }
    case 'ratio': {
      const rows = await service.ratio(query, allowed);
      return sheetWorkbook(
        title,
        ['category', 'kwh', 'percent'].map(h),
        rows.map((r) => [cat(r.category), r.kwh, r.percent]),
      );
    }
    case 'cost': {
      const rows = await service.cost(query, allowed);
      return sheetWorkbook(title, ['site', 'meter', 'category', 'time', 'kwh', 'cost'].map(h), [
        ...rows.flatMap((m) =>
          m.buckets.map((b) => [m.site_name, m.name, cat(m.category), time(b.ts), b.kwh, yuan(b.cost_cents)]),
        ),
        [],
        ...rows.map((m) => [m.site_name, m.name, cat(m.category), '', m.kwh, yuan(m.cost_cents)]),
      ]);
    }
    case 'pue': {
      const a = await service.pue(query, allowed);
      return sheetWorkbook(
        title,
        ['time', 'facility', 'it', 'cooling', 'pue', 'ppue', 'estimated'].map(h),
        a.buckets.map((b) => [
          time(b.ts),
          b.total_kwh,
          b.it_kwh,
          b.cooling_kwh,
          b.pue,
          b.ppue_cooling,
          yes(b.estimated),
        ]),
      );
    }
    case 'analysis': {
      const a = await service.analysis({ ...query, category }, allowed);
      return sheetWorkbook(
        title,
        ['time', 'kwh', 'previous', 'mom', 'lastYear', 'yoy'].map(h),
        a.buckets.map((b) => [time(b.ts), b.kwh, b.previous_kwh, b.mom_percent, b.last_year_kwh, b.yoy_percent]),
      );
    }
    case 'load': {
      const a = await service.load(query, allowed);
      return sheetWorkbook(
        title,
        ['time', 'avgKw', 'peakKw', 'peakTime', 'itAvgKw'].map(h),
        a.buckets.map((b) => [
          time(b.ts),
          b.avg_kw,
          b.peak_kw,
          b.peak_ts === null ? '' : timeText(zone, 'hour')(b.peak_ts),
          b.it_avg_kw,
        ]),
      );
    }
    case 'time_sharing': {
      const a = await service.timeSharing(query, allowed);
      return sheetWorkbook(
        title,
        ['time', 'sharp', 'peak', 'flat', 'valley', 'none'].map(h),
        a.buckets.map((b) => [time(b.ts), b.sharp, b.peak, b.flat, b.valley, b.none]),
      );
    }
  }
};
