import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import type { AppDeps } from '../../src/app.ts';
import type { AnyArea, SiteMapping, TableName } from '../../src/area.ts';
import type { Collector } from '../../src/collector/collector.ts';
import type { Db } from '../../src/db/kysely.ts';
import { fakeAuthenticator, fakeTokens, type TestApp } from './build-app.ts';
import { realLogin } from './estate.ts';
import { dispatchRule, itemBody, type MakeContext, makeOrder, makers } from './estate-rows.ts';
import { createUser, encryptFor, publicKeyOf } from './login.ts';

/**
 * A small estate for the generated matrices (server/test/areas-coverage.int.test.ts and
 * site-matrix.int.test.ts): sites A and B, each with a device, two items and a row of every declared
 * site-bound table, made through the API where a route makes it, else inserted; rows spanning both
 * sites or belonging to none; and a user granted site A only with every page and function.
 * Every row of site B carries the canary in its name, so a read that answers one is caught.
 */
export const canary = 'B-ONLY-';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One side of the estate: its site, device, items and its row of each table. */
export interface Side {
  name: 'A' | 'B';
  /** Prefix of the side's names: site B's is the canary. */
  label: string;
  site: number;
  device: number;
  item: number;
  item2: number;
  /** The side's row of each site-bound table, and of the global tables the catalogue needs. */
  rows: Partial<Record<TableName, number>>;
}

export interface Estate {
  a: Side;
  b: Side;
  /** The administrator's password (user 1), for calls that ask for it. */
  password: string;
  /** The user granted site A only, with every page and function, and their token. */
  userA: number;
  tokenA: string;
  /** Another user (a handover's successor), and their token. */
  colleague: number;
  colleagueToken: string;
  /** A page and one of its functions (what a role must grant at least). */
  menu: number;
  func: number;
  /** Encrypts a password as the browser does (the server's login key). */
  encrypt(text: string): string;
  /** Where webhook channels post (a peer that answers, where a suite started one). */
  hook: string;
  /** A directory to sign in against, where a suite started one. */
  directory?: { url: string; bindDn: string; password: string; base: string };
  /** The contact every caller holds. */
  contact: number;
  today: string;
  /** The one row of each global table the calls use, made on first use (route-calls.ts). */
  globals: Partial<Record<TableName, number>>;
  /** A background image of the site map's library. */
  image: string;
  /** Epoch seconds of the estate's clock. */
  now: number;
}

/** Calls the API; answers `data` of a 200, throws with the answer otherwise. */
// biome-ignore lint/suspicious/noExplicitAny: answers of every shape; callers read the fields they made
export type Api = (method: Method, url: string, payload?: unknown, token?: string) => Promise<any>;

export const apiOf =
  (t: TestApp): Api =>
  async (method, url, payload, token = 'admin-token') => {
    const res = await t.app.inject({
      method,
      url: url.startsWith('/') ? url : `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 400)}`);
    return res.json().data;
  };

/**
 * A collector that polls nothing and takes every setpoint (the matrices call the control routes;
 * what a driver does with a write is the collector's own tests').
 */
const idleCollector = (): Collector => ({
  start: async () => undefined,
  load: async () => undefined,
  stop: async () => undefined,
  running: () => true,
  unsavedStates: () => [],
  reload: async () => undefined,
  accept: () => undefined,
  write: async () => undefined,
  liveItem: () => undefined,
  liveDevice: () => undefined,
  deviceOfItem: () => undefined,
  siteOfDevice: () => undefined,
  persist: async () => undefined,
});

/**
 * The test app of the matrices: its clock reads `now`, uploads go to a data dir of its own, sign-in
 * needs no captcha, and control routes reach an idle collector.
 */
export const matrixApp = (now: number): Partial<AppDeps> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-matrix-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  return { ...realLogin, authenticator: fakeAuthenticator, clock: () => now, dataDir, collector: idleCollector() };
};

/** A 1×1 PNG. */
export const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart body of one file, as a browser sends an upload. */
export const multipartFile = (field: string, filename: string, content: Buffer, type: string) => {
  const boundary = 'sitewatch-matrix-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};

/** Posts one file to a site-map upload route (`image_backgroup`, `normal_icon`), as a browser's FormData does. */
export const postImage = (
  app: FastifyInstance,
  route: string,
  field: string,
  filename: string,
  content: Buffer,
  token = 'admin-token',
) => {
  const { payload, headers } = multipartFile(field, filename, content, 'image/png');
  return app.inject({
    method: 'POST',
    url: `/api/v1/setting/top_view/${route}`,
    headers: { ...headers, authorization: `Bearer ${token}`, 'accept-language': 'zh-CN' },
    payload,
  });
};

/** Uploads an image to the site map's library; answers its path. */
export const uploadImage = async (t: TestApp) => {
  const res = await postImage(t.app, 'image_backgroup', 'image', 'plan.png', png);
  if (res.statusCode !== 200) throw new Error(`image upload: ${res.body}`);
  return res.json().data.url as string;
};

/** The tables whose rows belong to sites, with their mapping, as the areas declare them. */
export const siteTables = (areas: readonly AnyArea[]) =>
  new Map(
    areas.flatMap((a) =>
      Object.entries(a.tables ?? {}).flatMap(([table, d]) =>
        d && d.sites !== 'global' ? [[table as TableName, d.sites] as [TableName, Exclude<SiteMapping, 'global'>]] : [],
      ),
    ),
  );

/**
 * Builds the estate as the administrator (user 1, `admin-token`) of a fresh test app whose clock
 * reads `now` (epoch ms). Fails with its name when a declared site-bound table has no maker, so a
 * new table comes with one.
 */
export const buildEstate = async (t: TestApp, now: number): Promise<Estate> => {
  const db = t.database.db;
  const k = db.kysely;
  const api = apiOf(t);
  const password = 'Admin-Pass-123';
  if ((await createUser(db, 'admin', password)) !== 1) throw new Error('the administrator must be user 1');
  const colleague = await createUser(db, 'colleague', 'Some-Pass-123', [1]);
  fakeTokens['colleague-token'] = { user_id: colleague, user_name: 'colleague', session_id: 7701 };
  const key = await publicKeyOf(t.app);
  const ciphers = new Map<string, string>();
  const first = await k.selectFrom('functions').select(['id', 'menu_id']).orderBy('id').executeTakeFirstOrThrow();
  const contact = (await api('POST', 'setting/contacts', { name: 'duty contact', sms_number: '13800000001' })).id;
  const today = new Date(now).toISOString().slice(0, 10);
  const side = (name: 'A' | 'B'): Side => ({
    name,
    label: name === 'A' ? 'A-' : canary,
    site: 0,
    device: 0,
    item: 0,
    item2: 0,
    rows: {},
  });
  const estate: Estate = {
    a: side('A'),
    b: side('B'),
    password,
    userA: 0,
    tokenA: 'site-a-token',
    colleague,
    colleagueToken: 'colleague-token',
    menu: first.menu_id,
    func: first.id,
    // One ciphertext per text (the server takes it again): the two sides' calls then differ only where they name a side.
    encrypt: (text) => {
      if (!ciphers.has(text)) ciphers.set(text, encryptFor(key, text));
      return ciphers.get(text)!;
    },
    contact,
    today,
    globals: {},
    hook: 'http://127.0.0.1:9/hook',
    image: await uploadImage(t),
    now: Math.floor(now / 1000),
  };
  const c: MakeContext = { t, api, db, estate };
  for (const s of [estate.a, estate.b]) {
    s.site = s.rows.device_groups = (await makers.device_groups!(c, s))!;
    s.device = s.rows.devices = (await makers.devices!(c, s))!;
    s.item = s.rows.items = (await makers.items!(c, s))!;
    s.item2 = (await api('POST', 'setting/items', itemBody(s.device, `${s.label}counter`))).id;
  }
  for (const table of makeOrder)
    for (const s of [estate.a, estate.b]) {
      const id = await makers[table]!(c, s);
      if (id !== undefined) s.rows[table] = id;
    }
  const unmade = [...siteTables(t.sitewatch.areas).keys()].filter((table) => !makers[table]);
  if (unmade.length) throw new Error(`no maker of a row of ${unmade.join(', ')} (server/test/helpers/site-estate.ts)`);

  await spanningRows(c);
  estate.userA = await userOfSiteA(db, estate);
  fakeTokens[estate.tokenA] = { user_id: estate.userA, user_name: 'site-a', session_id: 7700 };
  await k.updateTable('items').set({ value: 22, state: 1 }).execute();
  return estate;
};

/** Rows of both sites or of every site, made by the administrator (docs/users.md, "Rows of several sites"). */
const spanningRows = async ({ api, estate }: MakeContext) => {
  const { a, b, today, now } = estate;
  const both = [a.site, b.site];
  await api('POST', 'setting/intelligent_inspection', {
    name: 'AB plan',
    device_group_ids: both,
    rule: 'daily',
    start_time: now + 3600,
  });
  await api('POST', 'inspection/manual', { device_group_ids: both, summary: 'AB report' });
  await api('PUT', 'work_order_set/0', dispatchRule('AB rule', both));
  await api('PUT', 'work_order_set/0', dispatchRule('every site rule', []));
  // A history template of site B that also names an item of A: its reader of A sees their part.
  await api('POST', 'data_history_template', { name: 'AB template', item_ids: [a.item, b.item], site_id: b.site });
  await api('POST', 'on_duty_time_schedule', {
    name: 'every site shift',
    start: '20:00',
    end: '08:00',
    device_group_id: null,
  });
  // The administrator's own note and a handover between two others: no one else's to read.
  await api('POST', 'on_duty_memorandum', { date: today, content: `${canary}own note`, device_group_id: null });
  await api('POST', 'on_duty_handover', {
    successor_id: estate.colleague,
    events: `${canary}private`,
    device_group_id: null,
  });
};

/** Role 77: every page and function, site A only, the shared contact, site A's video channels; its user is site A's. */
const userOfSiteA = async (db: Db, estate: Estate) => {
  const k = db.kysely;
  await k.insertInto('roles').values({ id: 77, name: 'site A', remark: '', created_at: 0 }).execute();
  await k.insertInto('role_sites').values({ role_id: 77, site_id: estate.a.site }).execute();
  await k.insertInto('role_contacts').values({ role_id: 77, contact_id: estate.contact }).execute();
  for (const v of await k
    .selectFrom('video_devices')
    .select(['id', 'channels'])
    .where('device_group_id', '=', estate.a.site)
    .execute())
    for (const c of JSON.parse(v.channels) as { channel_no: number }[])
      await k
        .insertInto('role_videos')
        .values({ role_id: 77, video_id: v.id * 1000 + c.channel_no })
        .execute();
  for (const m of await k.selectFrom('menus').select('id').execute())
    await k.insertInto('role_menus').values({ role_id: 77, menu_id: m.id }).execute();
  for (const f of await k.selectFrom('functions').select('id').execute())
    await k.insertInto('role_functions').values({ role_id: 77, function_id: f.id }).execute();
  // The administrator's password: the catalogue's verification passwords fit both callers.
  return createUser(db, 'site-a', estate.password, [77]);
};

/**
 * The rows of each site-bound table that are not site A's to reach, found through the declarations'
 * site mappings: the rows of `site`, of every site (an empty list) and of no one site (a null site:
 * a shift of every site, someone's own note).
 */
export const rowsOfSite = async (db: Db, areas: readonly AnyArea[], site: number) => {
  const k = db.kysely;
  const devices = new Set(
    (await k.selectFrom('devices').select('id').where('device_group_id', '=', site).execute()).map((d) => d.id),
  );
  const items = new Set(
    (await k.selectFrom('items').select(['id', 'device_id']).execute())
      .filter((i) => devices.has(i.device_id))
      .map((i) => i.id),
  );
  const tables = siteTables(areas);
  const found = new Map<TableName, Record<string, unknown>[]>();
  const rowsOf = async (table: TableName): Promise<Record<string, unknown>[]> => {
    const known = found.get(table);
    if (known) return known;
    const m = tables.get(table)!;
    const all = (await k
      .selectFrom(table as 'devices')
      .selectAll()
      .execute()) as Record<string, unknown>[];
    const parents = 'parent' in m ? new Set((await rowsOf(m.parent)).map((r) => r.id)) : null;
    const mine = all.filter((row) => {
      if ('site' in m) return row[m.site] === null || Number(row[m.site]) === site;
      if ('device' in m) return devices.has(Number(row[m.device]));
      if ('item' in m) return items.has(Number(row[m.item]));
      if ('sites' in m) {
        const list = JSON.parse(String(row[m.sites] ?? '[]')) as number[];
        return list.length === 0 || list.includes(site);
      }
      return parents!.has(row[m.column]);
    });
    found.set(table, mine);
    return mine;
  };
  for (const table of tables.keys()) await rowsOf(table);
  return found;
};

/** The ids of those rows (tables whose rows have an `id`). */
export const idsOfSite = async (db: Db, areas: readonly AnyArea[], site: number) =>
  new Map(
    [...(await rowsOfSite(db, areas, site))].map(([table, rows]) => [
      table,
      rows.flatMap((r) => (r.id === undefined || r.id === null ? [] : [Number(r.id)])),
    ]),
  );
