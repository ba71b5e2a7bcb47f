import type { QuotaCall } from '../../area.ts';
import { readPointFile } from './point-tables.ts';

/**
 * How many devices and items the monitoring routes that add several at once really add (the
 * licence's quotas, docs/licence.md "Quotas"), counted before the handler runs. A body the handler
 * will refuse counts nothing here: its own answer is the clearer one.
 */

/** The routes that add devices or items. */
export const addDevice = 'POST /api/v1/setting/devices';
export const copyDevice = 'POST /api/v1/setting/devices/:id/copy';
export const copySite = 'POST /api/v1/setting/device_groups/:id/copy';
export const addPoints = 'POST /api/v1/setting/devices/:id/points';

const copies = (body: Record<string, unknown>) =>
  typeof body.count === 'number' && Number.isInteger(body.count) && body.count > 0 ? body.count : 1;
const idOf = (params: Record<string, string>) => {
  const id = Number(params.id);
  return Number.isInteger(id) && id > 0 ? id : 0;
};
const items = (n: number) => ({ '': n });

/** Items of a device made from a template: the template's points. */
const itemsOfNewDevice = async ({ body, db }: QuotaCall) => {
  const id = body.template_id;
  if (typeof id !== 'number' || !Number.isInteger(id)) return items(0);
  const row = await db.kysely.selectFrom('device_templates').select('items').where('id', '=', id).executeTakeFirst();
  try {
    const list = row ? (JSON.parse(row.items) as unknown) : [];
    return items(Array.isArray(list) ? list.length : 0);
  } catch {
    return items(0);
  }
};

const itemsOfDevice = async ({ body, params, db }: QuotaCall) => {
  const row = await db.kysely
    .selectFrom('items')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('device_id', '=', idOf(params))
    .executeTakeFirst();
  return items(Number(row?.n ?? 0) * copies(body));
};

const copiesOfDevice = async ({ body, params, db }: QuotaCall) => {
  const row = await db.kysely.selectFrom('devices').select('code').where('id', '=', idOf(params)).executeTakeFirst();
  return row ? { [row.code]: copies(body) } : {};
};

const devicesOfSite = async ({ body, params, db }: QuotaCall) => {
  const rows = await db.kysely
    .selectFrom('devices')
    .select((e) => ['code', e.fn.countAll<number>().as('n')])
    .where('device_group_id', '=', idOf(params))
    .groupBy('code')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.code, Number(r.n) * copies(body)]));
};

const itemsOfSite = async ({ body, params, db }: QuotaCall) => {
  const row = await db.kysely
    .selectFrom('items')
    .innerJoin('devices', 'devices.id', 'items.device_id')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('devices.device_group_id', '=', idOf(params))
    .executeTakeFirst();
  return items(Number(row?.n ?? 0) * copies(body));
};

/** A point table adds the rows whose name is not an item of the device yet (the others update). */
const itemsOfPointTable = async ({ body, params, db }: QuotaCall) => {
  if ((body.format !== 'csv' && body.format !== 'xlsx') || typeof body.content !== 'string') return items(0);
  let rows: Awaited<ReturnType<typeof readPointFile>>;
  try {
    rows = await readPointFile(body.format, body.content);
  } catch {
    return items(0);
  }
  const column = (rows[0] ?? []).findIndex((h) => h !== null && String(h).trim() === 'name');
  if (column < 0) return items(0);
  const existing = await db.kysely.selectFrom('items').select('name').where('device_id', '=', idOf(params)).execute();
  const known = new Set(existing.map((r) => r.name));
  const names = new Set(
    rows
      .slice(1)
      .map((cells) => cells[column])
      .flatMap((cell) => (cell === null || cell === undefined ? [] : [String(cell).trim()]))
      .filter((name) => name && !known.has(name)),
  );
  return items(names.size);
};

export const deviceQuota = {
  counts: 'devices',
  category: 'code',
  addedBy: [addDevice, copyDevice, copySite],
  adds: { [copyDevice]: copiesOfDevice, [copySite]: devicesOfSite },
} as const;

export const itemQuota = {
  counts: 'items',
  addedBy: ['POST /api/v1/setting/items', addPoints, addDevice, copyDevice, copySite],
  adds: {
    [addDevice]: itemsOfNewDevice,
    [copyDevice]: itemsOfDevice,
    [copySite]: itemsOfSite,
    [addPoints]: itemsOfPointTable,
  },
} as const;
