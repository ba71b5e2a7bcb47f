import type { AlarmRow } from '@sitewatch/contract/alarms';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { RouteRecord } from '../src/app.ts';
import type { TableName } from '../src/area.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { countWrites } from './helpers/db-snapshot.ts';
import { pdfText } from './helpers/pdf-text.ts';
import {
  type CallContext,
  callContext,
  callOf,
  injectOf,
  keyOf,
  operationsOf,
  postReads,
  type RouteCall,
} from './helpers/route-calls.ts';
import { examples } from './helpers/route-examples.ts';
import {
  buildEstate,
  canary,
  type Estate,
  idsOfSite,
  matrixApp,
  rowsOfSite,
  type Side,
} from './helpers/site-estate.ts';

/**
 * The site dimension of authorization, generated like the function dimension (issue 27, item 3): a
 * user granted site A only, with every page and every function, tries every route of every area
 * against site B. Paths name site B's rows of the route's table (found through the declarations'
 * site mappings, rows of every site and of no one site included); bodies and queries are the
 * catalogue's valid calls pointed at site B. Writes must be refused with 403 or 404 and change no
 * row; a 400 counts only when the contract's validation gave it (a hook of this app marks the
 * requests that passed validation: a 400 on a marked request came from the service, after it read
 * rows). Reads must answer nothing of site B: no canary (every site-B row is named `B-ONLY-…`) and no
 * site, device or item id of B in the answer. A write that names nothing of site B is global: its
 * table is global, or it is listed below with the reason.
 */
const now = Date.UTC(2026, 10, 23, 2, 0, 0);
const validated = 'x-matrix-validated';

/**
 * Writes over the caller's own sites as a whole, naming none: they are made as the user of site A,
 * and must leave every row of site B as it was.
 */
const scopedWrites: Record<string, string> = {
  'DELETE /api/v1/alarm_log': 'a restricted caller clears the entries of their own sites only (docs/alarms.md)',
  'DELETE /api/v1/notification_log': 'a restricted caller clears the entries of their own sites’ items only',
  'PUT /api/v1/warning_operation': 'confirms every open alarm of the caller’s own sites (000 §4.7)',
  'PUT /api/v1/clean_notice_list': 'drops the queued notices of the caller’s own sites only (docs/alarms.md)',
};

/** Writes that name no site, device or item, on tables of areas that also hold site rows: why they are global. */
const globalWrites: Record<string, string> = {
  'PUT /api/v1/on_duty_handover/setting': 'the switch routes every site’s notices: a user granted every site only',
  'PUT /api/v1/setting/patrol_settings': 'the inspection switches of the installation (global settings)',
  'PUT /api/v1/setting/inspection_report': 'the report settings of the installation (global settings)',
  'PUT /api/v1/gis/params': 'the map parameters of the installation',
  'POST /api/v1/setting/top_view/ticket': 'a ticket of the caller’s own editor session',
  'POST /api/v1/pub/top_view/ticket': 'spends the caller’s own ticket',
  'POST /api/v1/setting/top_view/image_backgroup': 'a new image is its uploader’s until a site’s picture uses it',
  'POST /api/v1/setting/top_view/normal_icon': 'a new image is its uploader’s until a site’s picture uses it',
  'PUT /api/v1/setting/top_view/upload_quota': 'the library’s quota of the installation (administrator only)',
  'PUT /api/v1/setting/power_safety_settings': 'the limits and the switch password of the installation',
  'PUT /api/v1/setting/series_retention': 'the retention of the installation (administrator only)',
  'DELETE /api/v1/operation_record': 'the operation log is the system’s (docs/users.md, "Operation log")',
};

/**
 * Writes on site A's own row whose body, pointed at B, is refused with a 400 on a relation between
 * rows rather than on a site: why that 400 tells nothing of site B.
 */
const relation400: Record<string, string> = {
  'PUT /api/v1/electricity_safe/meters/:id':
    'a mapped point or switch must be an item of the meter’s own device: any other item, of any site, is 400 itemNotOfDevice (docs/electrical-safety.md)',
};

/** Reads that answer rows of every site by design: why. */
const globalReads: Record<string, string> = {
  'GET /api/v1/operation_record': 'the operation log is the system’s: its page shows every operation (docs/users.md)',
  'GET /api/v1/operation_record/export':
    'the operation log is the system’s: its page shows every operation (docs/users.md)',
};

type Body = { text: string; json?: unknown };

/** What a person would read of an answer: JSON, CSV, the cells of a workbook, the text of a PDF. */
const readable = async (res: LightMyRequestResponse): Promise<Body> => {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('spreadsheetml')) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.text)))));
    return { text: cells.join('\n') };
  }
  if (type.includes('pdf')) return { text: pdfText(res.rawPayload).join('\n') };
  if (type.includes('json')) return { text: res.body, json: res.json() };
  return { text: type.startsWith('image/') ? '' : res.body };
};

/** Where an answer names a site, device or item of B by id (a list of sites included). */
const idsOfB = (value: unknown, b: Side, at = 'data'): string[] => {
  if (Array.isArray(value)) return value.flatMap((v, i) => idsOfB(v, b, `${at}.${i}`));
  if (!value || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const list = Array.isArray(v) ? v : [v];
    const hit =
      ((key === 'device_group_id' || key === 'device_group_ids' || key === 'site_id' || key === 'site_ids') &&
        list.includes(b.site)) ||
      ((key === 'device_id' || key === 'device_ids') && list.includes(b.device)) ||
      ((key === 'item_id' || key === 'item_ids') && (list.includes(b.item) || list.includes(b.item2)));
    if (hit) found.push(`${at}.${key}`);
    found.push(...idsOfB(v, b, `${at}.${key}`));
  }
  return found;
};

const sameCall = (x: RouteCall, y: RouteCall) => {
  const text = (c: RouteCall) =>
    JSON.stringify([c.url, c.query, Buffer.isBuffer(c.payload) ? c.payload.toString('latin1') : c.payload]);
  return text(x) === text(y);
};

describeEachDatabase('the site matrix: a user of site A against site B', (dialect) => {
  const t = useTestApp(dialect, matrixApp(now), (app) =>
    app.addHook('preHandler', async (_request, reply) => {
      reply.header(validated, '1');
    }),
  );
  let estate: Estate;
  let c: CallContext;
  beforeAll(async () => {
    estate = await buildEstate(t, now);
    c = callContext(t, estate);
  }, 120_000);

  it('refuses every write, changes no row and answers nothing of site B, on every route of every area', async () => {
    const { areas } = t.sitewatch;
    const ops = operationsOf(t);
    const reads = await postReads();
    const ofB = await idsOfSite(t.database.db, areas, estate.b.site);
    const rowsOfB = async () => JSON.stringify([...(await rowsOfSite(t.database.db, areas, estate.b.site))]);
    const areaOf = new Map(areas.map((a) => [a.name, a]));
    const globalTable = (table: TableName | undefined) =>
      table !== undefined && areas.some((a) => a.tables?.[table]?.sites === 'global');
    const allGlobal = (route: RouteRecord) =>
      Object.values(areaOf.get(route.area)?.tables ?? {}).every((d) => d?.sites === 'global');

    const problems = {
      accepted: [] as string[],
      refusal: [] as string[],
      changed: [] as string[],
      leaked: [] as string[],
    };
    const untried: string[] = [];
    const triedKeys = new Set<string>();
    let [attempts, tried, global] = [0, 0, 0];
    // Rows written, counted by triggers: a digest of every table around each write was most of this
    // test's time.
    const written = await countWrites(t.database.db);
    const routes = t.sitewatch.routes.filter((r) => r.area !== 'root' && r.method !== 'HEAD');

    for (const route of routes) {
      const key = keyOf(route);
      const ex = examples.routes[key] ?? {};
      const read = route.method === 'GET' || reads.has(key);
      // The rows the path may name: site B's rows of the route's table, or the side's row of a global one.
      const pathIds: (number | undefined)[] = [undefined];
      if (/:id\b/.test(route.url)) {
        if (!ex.table) {
          untried.push(`${key}: its example names no table for :id (server/test/helpers/route-examples.ts)`);
          continue;
        }
        // A global table's row: the side's own (a role of site B's), as the catalogue gives it.
        if (!globalTable(ex.table)) pathIds.splice(0, 1, ...(ofB.get(ex.table) ?? []));
      }
      let mine: RouteCall;
      try {
        mine = await callOf(c, ops, route, estate.a);
      } catch (err) {
        untried.push(`${key}: ${(err as Error).message}`);
        continue;
      }
      // Site B's rows with the call pointed at B; for a write, also B's rows with the body pointed at A
      // (moving a row out of B) and site A's own row with the body pointed at B (moving one into B);
      // for a read, also the list unfiltered.
      const calls: RouteCall[] = [];
      for (const pathId of pathIds) {
        calls.push(await callOf(c, ops, route, estate.b, pathId === undefined ? {} : { pathId }));
        if (!read && pathId !== undefined) calls.push(await callOf(c, ops, route, estate.a, { pathId }));
      }
      if (!read && pathIds[0] !== undefined) calls.push({ ...(await callOf(c, ops, route, estate.b)), url: mine.url });
      const unfiltered = read ? await callOf(c, ops, route, estate.b, { unfiltered: true }) : undefined;
      if (unfiltered && !sameCall(unfiltered, calls[0]!)) calls.push(unfiltered);
      let any = false;
      for (const call of calls) {
        if (!read && sameCall(call, mine)) continue;
        any = true;
        attempts += 1;
        const where = `${key} ${call.url}`;
        const before = read ? 0 : await written();
        const res = await t.app.inject(injectOf(call, estate.tokenA));
        const refused = res.statusCode === 403 || res.statusCode === 404;
        const early400 = res.statusCode === 400 && res.headers[validated] === undefined;
        if (read) {
          // A read may answer or refuse (a setting it needs may be off); it never names site B.
          if (res.statusCode >= 500) problems.refusal.push(`${where}: ${res.statusCode}`);
          if (key in globalReads) continue;
          const body = await readable(res);
          if (body.text.includes(canary)) problems.leaked.push(`${where}: answers ${canary}…`);
          const ids = body.json ? idsOfB(body.json, estate.b) : [];
          if (ids.length) problems.leaked.push(`${where}: names site B at ${ids.slice(0, 3).join(', ')}`);
          continue;
        }
        if (res.statusCode < 300) problems.accepted.push(`${where}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        else if (!refused && !early400 && !(res.statusCode === 400 && call.url === mine.url && key in relation400))
          problems.refusal.push(`${where}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        else if (res.json().code === 0) problems.refusal.push(`${where}: code 0`);
        if ((await written()) !== before) problems.changed.push(where);
      }
      if (!any && key in scopedWrites) {
        any = true;
        attempts += 1;
        const before = await rowsOfB();
        const res = await t.app.inject(injectOf(mine, estate.tokenA));
        if (res.statusCode >= 500) problems.refusal.push(`${key}: ${res.statusCode}`);
        if ((await rowsOfB()) !== before) problems.changed.push(`${key}: rows of site B`);
      }
      if (any) {
        tried += 1;
        triedKeys.add(key);
      } else if (globalTable(ex.table) || allGlobal(route) || key in globalWrites) global += 1;
      else untried.push(`${key}: names nothing of site B; give its example a field that does, or list it as global`);
    }
    console.log(
      `site matrix [${dialect}]: ${routes.length} routes, ${tried} tried against site B × ${attempts} attempts, ${global} global writes`,
    );
    expect(untried).toEqual([]);
    expect(problems).toEqual({ accepted: [], refusal: [], changed: [], leaked: [] });
    // The lists name only routes that exist, and no global write that names site B after all.
    const listed = Object.keys({ ...scopedWrites, ...globalWrites, ...globalReads, ...relation400 });
    expect(listed.filter((k) => !routes.some((r) => keyOf(r) === k))).toEqual([]);
    expect(Object.keys(globalWrites).filter((k) => triedKeys.has(k))).toEqual([]);
  }, 300_000);

  it('pushes an alarm of site B to none of site A’s users; one of site A reaches them', async () => {
    const heard: number[] = [];
    let arrived: () => void = () => undefined;
    const seenA = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    t.push.add({
      principal: { user_id: estate.userA, user_name: 'site-a', session_id: 7700 },
      send: (m) => {
        const message = JSON.parse(m) as { type: string; alarm?: { device_group_id?: number } };
        if (message.type !== 'alarm') return;
        heard.push(message.alarm?.device_group_id ?? 0);
        if (message.alarm?.device_group_id === estate.a.site) arrived();
      },
    });
    await t.sitewatch.services.grants.load(estate.userA);
    const alarm = (s: Side, id: number) =>
      ({
        status_id: id,
        item_id: s.item,
        device_id: s.device,
        device_group_id: s.site,
        level: 0,
      }) as unknown as AlarmRow;
    t.sitewatch.bus.publish('alarm.raised', { alarm: alarm(estate.b, 990_002) });
    t.sitewatch.bus.publish('alarm.raised', { alarm: alarm(estate.a, 990_001) });
    await seenA;
    expect(heard).toEqual([estate.a.site]);
  });
});
