/**
 * The one rule for what a site consumed and cost (docs/energy.md "A site's total"), used by every
 * energy and electrical-safety answer that shows a site's figure.
 *
 * Meters are typed, not linked: a site's incoming (`total`) meters are the top of its meter tree and
 * every other meter of the site (IT, cooling, lighting, UPS loss, other) measures a part beneath
 * them. A site's figure is therefore the sum of its **top-level meters**: its `total` meters when it
 * has any, else all its meters (nothing sits above them). Adding an incoming meter to the parts it
 * feeds would count the same energy twice (issue 38: 本月电费 46 066.85 元 for a 23 907 元 site).
 * Over a site and its sub-sites the rule runs site by site: each site's meters are the parts of its
 * own incoming meters only, and the site's total is the sum of each site's top-level meters.
 */
export type TotalSource = 'total_meters' | 'sum_of_parts';

/**
 * The meters whose sum is the total of the sites they belong to, in their given order, and where the
 * figure comes from: `total_meters` when every site counted has incoming meters, else `sum_of_parts`
 * (at least one site's figure is the sum of its meters).
 *
 * @example topLevelMeters([incoming, itA, itB]).meters // [incoming]: the IT meters are beneath it
 */
export const topLevelMeters = <M extends { category: string; device_group_id: number }>(
  meters: M[],
): { meters: M[]; source: TotalSource } => {
  const withIncoming = new Set(meters.filter((m) => m.category === 'total').map((m) => m.device_group_id));
  const sites = new Set(meters.map((m) => m.device_group_id));
  return {
    meters: meters.filter((m) => m.category === 'total' || !withIncoming.has(m.device_group_id)),
    source: withIncoming.size === sites.size && sites.size > 0 ? 'total_meters' : 'sum_of_parts',
  };
};

/** Meter rows with their site's name and whether they count in its total (`meterSiteFields`). */
export const withSite = <
  M extends { id: number; category: string; device_group_id: number; device_group_name: string | null },
>(
  meters: M[],
) => {
  const top = new Set(topLevelMeters(meters).meters.map((m) => m.id));
  return meters.map((m) => ({ ...m, site_name: m.device_group_name ?? '', in_site_total: top.has(m.id) }));
};

/**
 * The devices that measure only parts of their sites (every energy meter on them is beneath an
 * incoming meter): their active power is already in the incoming meter's, so a site's power total
 * (electrical safety's overview) leaves them out. Devices with no energy meter are not judged.
 */
export const partDevicesOf = (
  meters: Array<{ id: number; device_id: number; category: string; device_group_id: number }>,
): Set<number> => {
  const top = new Set(topLevelMeters(meters).meters.map((m) => m.id));
  const counted = new Set(meters.filter((m) => top.has(m.id)).map((m) => m.device_id));
  return new Set(meters.filter((m) => !counted.has(m.device_id)).map((m) => m.device_id));
};

/** The `meterSiteFields` of a meter row from `withSite`. */
export const siteFields = (m: { site_name: string; in_site_total: boolean }) => ({
  site_name: m.site_name,
  in_site_total: m.in_site_total,
});
