/**
 * The rows that make up their sites' totals, as the server marks them (`in_site_total`, docs/energy.md
 * "A site's total": a site's incoming meters, else all its meters). The rule lives on the server
 * only; a page sums these rows and nothing else, so it shows the figure every other answer gives.
 */
export const siteTotalRows = <Row extends { in_site_total: boolean }>(rows: Row[]): Row[] =>
  rows.filter((r) => r.in_site_total);

/** A meter's name with its site's, for charts and pickers where several sites' meters share a name. */
export const meterLabel = (r: { name: string; site_name: string }) => `${r.site_name} · ${r.name}`;

/** Sums a numeric field over rows. */
export const sumOf = <Row>(rows: Row[], pick: (r: Row) => number) => rows.reduce((a, r) => a + pick(r), 0);
