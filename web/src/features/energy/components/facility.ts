import type { MeterCategory } from '@sitewatch/contract/energy';

/**
 * The meters whose sum is a site's facility figure, as the server's PUE counts it (docs/energy.md
 * "PUE"): its incoming (`total`) meters when it has any, else all of them, site by site — adding the incoming
 * meters to the parts they feed would count the same energy twice.
 */
export const facilityRows = <Row extends { category: MeterCategory; device_group_id: number }>(rows: Row[]): Row[] => {
  const sites = new Set(rows.map((r) => r.device_group_id));
  return [...sites].flatMap((site) => {
    const own = rows.filter((r) => r.device_group_id === site);
    const incoming = own.filter((r) => r.category === 'total');
    return incoming.length > 0 ? incoming : own;
  });
};

/** Sums a numeric field over rows. */
export const sumOf = <Row>(rows: Row[], pick: (r: Row) => number) => rows.reduce((a, r) => a + pick(r), 0);
