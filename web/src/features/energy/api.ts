import type { RouteQuery, RouteSpec } from '@sitewatch/contract';
import { type MeterCategory, energyRoutes as r, type TariffMode } from '@sitewatch/contract/energy';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../api/client.ts';

/** Every energy query starts with this key, so a write refreshes the area's pages. */
export const energyKey = ['energy'] as const;

/**
 * A list route that answers a plain array (the energy lists are answered whole), read as the one
 * page `{total, data}` the shared ResourcePage shows.
 */
export const asPage = <R extends RouteSpec>(route: R) => ({
  ...route,
  response: (route.response as z.ZodArray<z.ZodType>).transform((data) => ({ total: data.length, data })),
});

export const metersQuery = queryOptions({
  queryKey: [...energyKey, 'meters'],
  queryFn: () => api.call(r.meters, { query: {} }),
});

/** The tariff routes of a billing mode (002 §7.6: stairstep, time_sharing_system, stemp_time). */
export const tariffRoutesOf = { stair: r.stair, time_share: r.timeShare, stair_time_share: r.stairTimeShare } as const;

export const tariffsQuery = (mode: TariffMode) =>
  queryOptions({
    queryKey: [...energyKey, 'tariffs', mode],
    queryFn: () => api.call(tariffRoutesOf[mode].list, { query: {} }),
  });

/** Every tariff of the three modes (the tariff-in-force picker). */
export const allTariffsQuery = queryOptions({
  queryKey: [...energyKey, 'tariffs', 'all'],
  queryFn: async () =>
    (
      await Promise.all(
        (['stair', 'time_share', 'stair_time_share'] as const).map((m) =>
          api.call(tariffRoutesOf[m].list, { query: {} }),
        ),
      )
    ).flat(),
});

export type EnergyQuery = RouteQuery<typeof r.used>;

const analysis = <R extends typeof r.used | typeof r.pue | typeof r.cost | typeof r.ranking | typeof r.ratio>(
  name: string,
  route: R,
  query: EnergyQuery,
) => queryOptions({ queryKey: [...energyKey, name, query], queryFn: () => api.call(route, { query } as never) });

/** The analysis routes over a page's site, range and interval. */
export const usedQuery = (q: EnergyQuery) => analysis('used', r.used, q);
export const pueQuery = (q: EnergyQuery) => analysis('pue', r.pue, q);
export const costQuery = (q: EnergyQuery) => analysis('cost', r.cost, q);
export const rankingQuery = (q: EnergyQuery) => analysis('ranking', r.ranking, q);
export const ratioQuery = (q: EnergyQuery) => analysis('ratio', r.ratio, q);

export const categoryKey = (c: MeterCategory) => `energyUi.categories.${c}` as const;

/**
 * Fen as yuan text, from the integer the server gives (exact: no binary fraction on the way).
 * @example yuan(123456) // '1,234.56'
 */
export const yuan = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
};

/** kWh with up to 3 decimals (the server counts whole Wh). */
export const kwh = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });

/** A ratio such as PUE with 2 decimals, or a dash. */
export const ratio = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(2));
