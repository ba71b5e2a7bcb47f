import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConfigArea } from '@sitewatch/contract/events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AnyArea, TableDeclaration, TableName } from '../src/area.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { rowsByKey } from './helpers/db-snapshot.ts';
import { callContext, callOf, injectOf, keyOf, operationsOf } from './helpers/route-calls.ts';
import { buildEstate, type Estate, matrixApp } from './helpers/site-estate.ts';
import { type Slapd, startSlapd } from './helpers/slapd.ts';

/**
 * Writes announce themselves (issue 27, item 2; docs/architecture.md "Writes announce themselves"):
 * every write route of every area is called as the administrator with a working call of the
 * catalogue (helpers/route-calls.ts), while the bus's `config.changed` events are recorded and the
 * rows of every table that announces a topic some part of the server consumes are read before and
 * after. A changed row whose topic did not arrive, or arrived without the row's id, fails the test
 * with the route's name; so does a write route without a working call.
 */
const now = Date.UTC(2026, 10, 23, 2, 0, 0);

/** Topics whose ids are the rows of one table: the event must name each changed row. */
const idsOf: Partial<Record<ConfigArea, TableName>> = {
  sites: 'device_groups',
  devices: 'devices',
  items: 'items',
  time_periods: 'time_periods',
};

const tablesOf = (areas: readonly AnyArea[]) =>
  areas.flatMap((a) =>
    Object.entries(a.tables ?? {}).map(([table, d]) => ({
      area: a,
      table: table as TableName,
      d: d as TableDeclaration,
    })),
  );

/** The topics the declarations consume (`config.changed:<topic>`). */
const consumedTopics = (areas: readonly AnyArea[]) =>
  new Set(
    areas.flatMap((a) =>
      (a.events?.consumes ?? []).flatMap((e) => (e.startsWith('config.changed:') ? [e.slice(15) as ConfigArea] : [])),
    ),
  );

/** The id a changed row of `table` names under `topic`: its own id, or the row of the topic it maps to. */
const idUnder = (topic: ConfigArea, table: TableName, d: TableDeclaration, row: Record<string, unknown>) => {
  const own = idsOf[topic];
  if (!own) return null;
  if (own === table) return Number(row.id);
  const m = d.sites;
  const column =
    m !== 'global' && topic === 'devices' && 'device' in m
      ? m.device
      : m !== 'global' && topic === 'sites' && 'site' in m
        ? m.site
        : m !== 'global' && topic === 'items' && 'item' in m
          ? m.item
          : null;
  return column ? Number(row[column]) : null;
};

describeEachDatabase('every write announces what consumers keep', (dialect) => {
  const t = useTestApp(dialect, matrixApp(now));
  let estate: Estate;
  let slapd: Slapd;
  // Real peers: a directory for LDAP import and sign-in, and a webhook receiver for the channel test.
  let hook: Server;
  beforeAll(async () => {
    hook = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    slapd = await startSlapd({ users: [{ uid: 'ldap-user', password: 'Ldap-Pass-123', cn: 'LDAP user' }] });
    estate = await buildEstate(t, now);
    estate.directory = { url: slapd.url, bindDn: slapd.rootDn, password: slapd.rootPassword, base: slapd.suffix };
    estate.hook = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  }, 120_000);
  afterAll(async () => {
    await slapd?.stop();
    await new Promise((resolve) => hook?.close(resolve));
  });

  it('every topic a consumer declares is announced by a declared table, and its area says it publishes it', () => {
    const areas = t.sitewatch.areas;
    const tables = tablesOf(areas);
    const announced = new Set(tables.flatMap(({ d }) => (d.announces ? [d.announces] : [])));
    const consumed = consumedTopics(areas);
    expect([...consumed].filter((topic) => !announced.has(topic))).toEqual([]);
    expect(
      tables
        .filter(({ area, d }) => d.announces && !area.events?.publishes?.includes(`config.changed:${d.announces}`))
        .map(({ table, d }) => `${table}: ${d.announces}`),
    ).toEqual([]);
    // The collector, the alarm engine and the pushers keep what these topics name.
    expect([...consumed].sort()).toEqual([
      'alarm_settings',
      'contact_groups',
      'devices',
      'items',
      'sites',
      'time_periods',
    ]);
  });

  it('every write route is called with a working call, and announces each change a consumer keeps', async () => {
    const areas = t.sitewatch.areas;
    const consumed = consumedTopics(areas);
    const watched = tablesOf(areas).filter(({ d }) => d.announces && consumed.has(d.announces));
    const c = callContext(t, estate);
    const ops = operationsOf(t);
    const heard: { area: ConfigArea; ids: number[] | null }[] = [];
    t.sitewatch.bus.subscribe('config.changed', (e) => heard.push(e));
    const read = async () =>
      new Map(
        await Promise.all(watched.map(async ({ table }) => [table, await rowsByKey(t.database.db, table)] as const)),
      );

    const writes = t.sitewatch.routes.filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && r.area !== 'root');
    const failed: string[] = [];
    const unannounced: string[] = [];
    let changes = 0;
    for (const route of writes) {
      const key = keyOf(route);
      const call = await callOf(c, ops, route, estate.a, { spend: true });
      const before = await read();
      heard.length = 0;
      const res = await t.app.inject(injectOf(call));
      if (res.statusCode !== 200) {
        failed.push(`${key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      const after = await read();
      for (const { table, d } of watched) {
        const [was, is] = [before.get(table)!, after.get(table)!];
        const topic = d.announces!;
        for (const id of new Set([...was.keys(), ...is.keys()])) {
          const [a, b] = [was.get(id), is.get(id)];
          if (a?.json === b?.json) continue;
          changes += 1;
          const named = idUnder(topic, table, d, (b ?? a)!.row);
          const told = heard.some(
            (e) => e.area === topic && (e.ids === null || named === null || e.ids.includes(named)),
          );
          if (!told)
            unannounced.push(
              `${key}: ${table} ${id} changed, no config.changed ${topic}${named ? ` naming ${named}` : ''}`,
            );
        }
      }
    }
    console.log(
      `write coverage [${dialect}]: ${writes.length} write routes called, ${changes} changed rows of ${watched.length} announcing tables checked`,
    );
    expect(failed).toEqual([]);
    expect(unannounced).toEqual([]);
  }, 240_000);
});
