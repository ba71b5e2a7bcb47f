import type { TestApp } from './build-app.ts';

/** The alarms an area raised for one source (docs/alarms.md), oldest first, once the app has settled. */
export const areaAlarms = async (t: TestApp, source: string) => {
  await t.sitewatch.settled();
  const rows = await t.database.db.kysely
    .selectFrom('alarms')
    .select(['kind', 'device_name', 'item_name', 'info', 'end_time'])
    .where('source', '=', source)
    .orderBy('id')
    .execute();
  return rows.map(({ end_time, ...a }) => ({ ...a, open: end_time === null }));
};
