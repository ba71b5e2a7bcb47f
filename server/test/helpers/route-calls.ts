import { readdirSync } from 'node:fs';
import { type RouteSpec, routeUrl } from '@sitewatch/contract';
import type { InjectOptions } from 'fastify';
import type { RouteRecord } from '../../src/app.ts';
import type { TableName } from '../../src/area.ts';
import type { TestApp } from './build-app.ts';
import { globalMakers, type MakeContext, type Maker, makers } from './estate-rows.ts';
import { type Example, examples, type Prepared } from './route-examples.ts';
import { type Api, apiOf, type Estate, type Side } from './site-estate.ts';

/**
 * The catalogue of valid calls of every route (server/test/areas-coverage.int.test.ts and
 * site-matrix.int.test.ts): a body and query generated from the route's schema in the OpenAPI
 * document (required fields, and every field naming a site, device or item, with the estate's ids),
 * laid under the per-route examples of route-examples.ts where generation is not enough. The same
 * call is made for side A (the administrator's, which must succeed) and for side B (the site matrix's
 * attempt): what differs between the two is what names site B.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minItems?: number;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  nullable?: boolean;
}

interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** The operations of the live OpenAPI document, by `METHOD /path/:param`. */
export const operationsOf = (t: TestApp): Map<string, Operation> => {
  const doc = (t.app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }).swagger();
  const out = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods))
      out.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, op);
  return out;
};

export const keyOf = (r: Pick<RouteRecord, 'method' | 'url'>) => `${r.method} ${r.url}`;

/** Reads sent as POST (`reads` in the contract: a query too large for a URL), by route key. */
export const postReads = async (): Promise<Set<string>> => {
  const dir = new URL('../../../packages/contract/src/', import.meta.url);
  const keys = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const table of Object.values(module)) {
      if (!table || typeof table !== 'object') continue;
      for (const spec of Object.values(table as Record<string, Partial<RouteSpec>>))
        if (spec?.reads && spec.method && spec.path) keys.add(`${spec.method} ${routeUrl({ path: spec.path })}`);
    }
  }
  return keys;
};

/** What a call may need besides the estate: the API as the administrator, and rows made on demand. */
export interface CallContext {
  t: TestApp;
  api: Api;
  estate: Estate;
  /** Rows made by a route's own maker (by route, and side for site rows), and what `prepare` made, by route. */
  made: Map<string, number>;
  prepared: Map<string, Prepared>;
}

export const callContext = (t: TestApp, estate: Estate): CallContext => ({
  t,
  api: apiOf(t),
  estate,
  made: new Map(),
  prepared: new Map(),
});

/** Whether the areas declare `table` global (not site data). */
const isGlobal = (c: CallContext, table: TableName) =>
  c.t.sitewatch.areas.some((a) => a.tables?.[table]?.sites === 'global');

/** The value of a field that names a site, device or item, on `side` (undefined: not such a field). */
const reference = (name: string, s: Side): unknown => {
  switch (name) {
    case 'device_group_id':
    case 'site_id':
      return s.site;
    case 'device_group_ids':
    case 'site_ids':
      return [s.site];
    case 'device_id':
      return s.device;
    case 'device_ids':
      return [s.device];
    case 'item_id':
      return s.item;
    case 'item_ids':
      return [s.item];
    default:
      return undefined;
  }
};

/** A value of other fields, by name where the name says what it holds, else by type. */
const plain = (name: string, schema: JsonSchema, e: Estate): unknown => {
  if (name === 't1') return e.now - 3600;
  if (name === 't2') return e.now;
  if (name === 'from' || name === 'to' || name === 'date' || name === 'start_date') return e.today;
  if (name === 'start' || name === 'end') return name === 'start' ? '08:00' : '20:00';
  if (name === 'year') return Number(e.today.slice(0, 4));
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) {
    const option = schema.anyOf.find((o) => o.type !== 'null' && !o.nullable) ?? schema.anyOf[0]!;
    return plain(name, option, e);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return objectOf(schema, e, undefined);
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => plain(name, schema.items ?? {}, e));
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return false;
    case 'string':
      return `x-${name}`.slice(0, schema.maxLength ?? 64);
    default:
      return null;
  }
};

/** An object of the schema's required fields and of every field naming a site, device or item. */
const objectOf = (schema: JsonSchema, e: Estate, s: Side | undefined): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const ref = s ? reference(name, s) : undefined;
    if (ref !== undefined) out[name] = ref;
    else if (schema.required?.includes(name) && name !== 't') out[name] = plain(name, prop, e);
  }
  return out;
};

/** Everything a route needs to be called: its path, query, body and caller. */
export interface RouteCall {
  method: string;
  url: string;
  query: Record<string, string>;
  payload?: unknown;
  headers?: Record<string, string>;
  token: string;
}

export const injectOf = (call: RouteCall, token = call.token): InjectOptions => {
  const search = new URLSearchParams(call.query).toString();
  return {
    method: call.method as 'GET',
    url: search ? `${call.url}?${search}` : call.url,
    headers: { ...call.headers, authorization: `Bearer ${token}` },
    ...(call.payload !== undefined ? { payload: call.payload as string } : {}),
  };
};

/**
 * The row of `table` the calls of `side` use: the side's own (site-bound tables, and global rows a
 * side's grant stands on, as a role of its site), else the estate's one row of a global table, made
 * on first use.
 */
export const rowOf = async (c: CallContext, s: Side, table: TableName): Promise<number> => {
  const own = s.rows[table] ?? c.estate.globals[table];
  if (own !== undefined) return own;
  const made = await makeRow(c, s, table);
  c.estate.globals[table] = made;
  return made;
};

/** A new row of `table` on `side` (a call that spends its row gets its own). */
export const makeRow = async (c: CallContext, s: Side, table: TableName, maker?: Maker): Promise<number> => {
  maker ??= globalMakers[table] ?? makers[table];
  if (!maker) throw new Error(`no maker of a row of ${table} (server/test/helpers/route-examples.ts)`);
  const id = await maker(makeContext(c), s);
  if (id === undefined) throw new Error(`the maker of ${table} names no row`);
  return id;
};

/**
 * The call of `route` for `side`. `spend`: the administrator's call of a route that uses up its row
 * (a delete) gets a fresh row; `pathIds` replaces the row the path names (the site matrix's site-B rows).
 */
export const callOf = async (
  c: CallContext,
  ops: Map<string, Operation>,
  route: Pick<RouteRecord, 'method' | 'url'>,
  s: Side,
  options: { spend?: boolean; pathId?: number; unfiltered?: boolean } = {},
): Promise<RouteCall> => {
  const key = keyOf(route);
  const ex = examples.routes[key] ?? {};
  const op = ops.get(key);
  const e = c.estate;
  for (const table of ex.needs ?? []) await rowOf(c, s, table);
  // Made once for the route, unless the call spends it (the coverage test's single call).
  let p = c.prepared.get(key);
  if (!p || options.spend) {
    p = (await ex.prepare?.(makeContext(c))) ?? {};
    c.prepared.set(key, p);
  }
  // The path: `:id` names a row of the example's table; other parameters come from the example.
  let url = route.url;
  const params: Record<string, string | number> = { ...ex.params?.(s, e, p) };
  if (/:id\b/.test(url) && params.id === undefined) {
    if (options.pathId !== undefined) params.id = options.pathId;
    else if (!ex.table) throw new Error(`${key}: the example names no table for :id`);
    else params.id = await pathRow(c, key, ex, s, options.spend === true);
  }
  for (const [name, value] of Object.entries(params)) url = url.replace(`:${name}`, encodeURIComponent(String(value)));
  if (/:\w+/.test(url)) throw new Error(`${key}: no value of ${url.match(/:\w+/)![0]}`);

  const query: Record<string, string> = {};
  for (const p of op?.parameters ?? []) {
    if (p.in !== 'query' || p.name === 't') continue;
    // `unfiltered`: a list as it answers without the optional fields that name a site, device or item.
    const ref = options.unfiltered && !p.required ? undefined : reference(p.name, s);
    const value = ref ?? (p.required ? plain(p.name, p.schema ?? {}, e) : undefined);
    if (value !== undefined) query[p.name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  Object.assign(query, stringify(ex.query?.(s, e, p)));

  const schema = op?.requestBody?.content?.['application/json']?.schema;
  let payload: unknown = ex.body ? ex.body(s, e, p) : schema ? objectOf(schema, e, s) : undefined;
  if (ex.patch) payload = { ...(payload as object), ...ex.patch(s, e, p) };
  const upload = ex.upload?.(s, e, p);
  return {
    method: route.method,
    url,
    query,
    ...(upload ? upload : payload !== undefined ? { payload } : {}),
    token: ex.token === 'prepared' ? String(p.token) : (ex.token ?? 'admin-token'),
  };
};

/** The row a route's `:id` names: a fresh one for a call that spends it, else the side's (made once). */
const pathRow = async (c: CallContext, key: string, ex: Example, s: Side, spend: boolean) => {
  const table = ex.table!;
  if (spend && ex.fresh) return makeRow(c, s, table, ex.make);
  if (!ex.make) return rowOf(c, s, table);
  const at = isGlobal(c, table) ? key : `${key} ${s.name}`;
  if (!c.made.has(at)) c.made.set(at, await makeRow(c, s, table, ex.make));
  return c.made.get(at)!;
};

const makeContext = (c: CallContext): MakeContext => ({ t: c.t, api: c.api, db: c.t.database.db, estate: c.estate });

const stringify = (q: Record<string, string | number> | undefined) =>
  Object.fromEntries(Object.entries(q ?? {}).map(([k, v]) => [k, String(v)]));
