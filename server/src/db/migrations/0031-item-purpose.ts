import { type Kysely, sql } from 'kysely';

type Purpose = '' | 'room_temperature' | 'room_humidity';

/**
 * Names that say a temperature or humidity is not the room's: a UPS's battery, a device's inside,
 * a chip, a dew point. They never default to a room purpose, whatever their device.
 */
const notTheRoom =
  /电池|電池|battery|bat\b|内部|內部|机内|機內|internal|inside|cpu|芯片|chip|board|主板|露点|露點|dew/i;

/**
 * The purpose an existing item or point defaults to (issue 38): only a room sensor's (category
 * temp_hum) temperature or humidity, told by its name, unit or template key, and never one whose
 * name says battery, internal and the like. Everything else has none; an administrator sets it.
 */
export const defaultPurpose = (category: string, name: string, unit: string): Purpose => {
  if (category !== 'temp_hum' || notTheRoom.test(name)) return '';
  if (
    /温度|溫度|temperature|temp\b|^temp|monitoring\.items\.temperature$/i.test(name) ||
    /^(℃|°C|°F)$/i.test(unit.trim())
  )
    return 'room_temperature';
  if (/湿度|濕度|humid|monitoring\.items\.humidity$/i.test(name) || /^%\s*RH$/i.test(unit.trim()))
    return 'room_humidity';
  return '';
};

interface StoredPoint {
  name: string;
  item_cell_name: string;
  unit: string;
  purpose?: Purpose;
}

/**
 * Issue 38, the heat map: `items.purpose` says what an item measures (room_temperature,
 * room_humidity, '' none), and the points of a template carry it to the items made from them. The
 * heat map draws items whose purpose is room_temperature only; it took every item named like a
 * temperature, so a UPS's battery temperature coloured the room. Existing templates' and items'
 * purposes are filled by `defaultPurpose`; an item takes its template point's purpose first.
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  await db.schema
    .alterTable('items')
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  await fillPurposes(db);
};

/** The purposes of the templates' points and of the items saved so far (a point's set purpose is kept). */
export const fillPurposes = async (db: Kysely<unknown>): Promise<void> => {
  const templates = (
    await sql<{ id: number; category_code: string; items: string }>`
      select id, category_code, items from device_templates`.execute(db)
  ).rows;
  /** Per template, the purpose of each point by its cell name. */
  const pointPurposes = new Map<number, Map<string, Purpose>>();
  for (const t of templates) {
    let points: StoredPoint[];
    try {
      points = JSON.parse(t.items) as StoredPoint[];
    } catch {
      continue;
    }
    if (!Array.isArray(points)) continue;
    const byCell = new Map<string, Purpose>();
    const next = points.map((p) => {
      const purpose = p.purpose ?? defaultPurpose(t.category_code, p.name ?? '', p.unit ?? '');
      if (p.item_cell_name && purpose) byCell.set(p.item_cell_name, purpose);
      return { ...p, purpose };
    });
    pointPurposes.set(Number(t.id), byCell);
    await sql`update device_templates set items = ${JSON.stringify(next)} where id = ${t.id}`.execute(db);
  }

  const items = (
    await sql<{
      id: number;
      name: string;
      unit: string;
      item_cell_name: string;
      code: string;
      template_id: number | null;
    }>`
      select items.id, items.name, items.unit, items.item_cell_name, devices.code, devices.template_id
      from items join devices on devices.id = items.device_id`.execute(db)
  ).rows;
  const byPurpose = new Map<Purpose, number[]>();
  for (const i of items) {
    const fromTemplate =
      i.template_id === null ? undefined : pointPurposes.get(Number(i.template_id))?.get(i.item_cell_name);
    // The template's point decides only when the item still has a room-ish name (not renamed to a battery's).
    const purpose = fromTemplate && !notTheRoom.test(i.name) ? fromTemplate : defaultPurpose(i.code, i.name, i.unit);
    if (purpose) byPurpose.set(purpose, [...(byPurpose.get(purpose) ?? []), Number(i.id)]);
  }
  for (const [purpose, ids] of byPurpose)
    for (let k = 0; k < ids.length; k += 500)
      await sql`update items set purpose = ${purpose} where id in (${sql.join(ids.slice(k, k + 500))})`.execute(db);
};
