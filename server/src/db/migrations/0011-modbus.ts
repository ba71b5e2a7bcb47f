import type { Kysely } from 'kysely';

/**
 * Modbus data types and display decimals (issue 13, Build 2; docs/monitoring.md "Modbus"):
 * - stored Modbus sources drop the `_le` names: `int32_le`, `uint32_le`, `float32_le` become the
 *   plain type with byte order CDAB (the word swap they meant), and `bool` becomes `bit` (with
 *   `bit: null`, still "1 when the register is not 0"), in items and in the point tables of
 *   device templates. Rows are rewritten in JavaScript, the same on SQLite and PostgreSQL.
 * - `items.decimals`: decimals a value is shown with (null: as read).
 */

type Source = Record<string, unknown>;
type Rewrite = (source: Source) => Source;

const toNewNames: Rewrite = (source) => {
  if (source.kind !== 'modbus' || typeof source.data_type !== 'string') return source;
  const type = source.data_type;
  if (type === 'bool') return { ...source, data_type: 'bit', bit: null };
  if (type.endsWith('_le')) return { ...source, data_type: type.slice(0, -3), byte_order: 'CDAB' };
  return source;
};

/** Back to the old names where one exists; types the old code did not know become their nearest. */
const toOldNames: Rewrite = (source) => {
  if (source.kind !== 'modbus' || typeof source.data_type !== 'string') return source;
  const { byte_order, bit: _bit, ...rest } = source;
  const type = rest.data_type as string;
  if (type === 'bit') return { ...rest, data_type: 'bool' };
  const base = type.replace('64', '32');
  return { ...rest, data_type: byte_order === 'CDAB' && base !== 'int16' && base !== 'uint16' ? `${base}_le` : base };
};

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
const rewriteSources = async (db: Kysely<any>, rewrite: Rewrite) => {
  const items: Array<{ id: number; source: string }> = await db
    .selectFrom('items')
    .select(['id', 'source'])
    .where('source', 'like', '%modbus%')
    .execute();
  for (const row of items) {
    const next = JSON.stringify(rewrite(JSON.parse(row.source) as Source));
    if (next !== row.source) await db.updateTable('items').set({ source: next }).where('id', '=', row.id).execute();
  }
  const templates: Array<{ id: number; items: string }> = await db
    .selectFrom('device_templates')
    .select(['id', 'items'])
    .where('items', 'like', '%modbus%')
    .execute();
  for (const row of templates) {
    const list = JSON.parse(row.items) as Array<{ source: Source }>;
    const next = JSON.stringify(list.map((item) => ({ ...item, source: rewrite(item.source) })));
    if (next !== row.items) {
      await db.updateTable('device_templates').set({ items: next }).where('id', '=', row.id).execute();
    }
  }
};

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export const up = async (db: Kysely<any>): Promise<void> => {
  await db.schema.alterTable('items').addColumn('decimals', 'integer').execute();
  await rewriteSources(db, toNewNames);
};

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export const down = async (db: Kysely<any>): Promise<void> => {
  await rewriteSources(db, toOldNames);
  await db.schema.alterTable('items').dropColumn('decimals').execute();
};
