import {
  type HistoryTemplateInput,
  type HistoryTemplateRow,
  historyRangeName,
  templateInterval,
} from '@sitewatch/contract/series';
import type { Kysely } from 'kysely';
import { readIdList } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';

/**
 * Saved history report templates (/history_report): a caller sees (and deletes) only the templates
 * with an item of its sites, their item lists cut to those items.
 */
export const templateCalls = (
  k: Kysely<Database>,
  now: () => number,
  visible: (ids: number[], allowed: number[] | null) => Promise<number[]>,
) => ({
  /** Templates with at least one item the caller can see, their lists cut to those items. */
  async listTemplates(allowed: number[] | null = null) {
    const rows = await k.selectFrom('data_history_templates').selectAll().orderBy('id').execute();
    const out: HistoryTemplateRow[] = [];
    for (const r of rows) {
      const item_ids = await visible(readIdList(r.item_ids), allowed);
      if (item_ids.length === 0) continue;
      const parsedRange = historyRangeName.safeParse(r.range);
      const parsedInterval = templateInterval.safeParse(r.interval);
      out.push({
        id: r.id,
        name: r.name,
        item_ids,
        interval: parsedInterval.success ? parsedInterval.data : 'hour',
        site_id: r.site_id,
        device_ids: readIdList(r.device_ids),
        range: parsedRange.success ? parsedRange.data : 'last24h',
        t1: r.t1 === null ? null : Number(r.t1),
        t2: r.t2 === null ? null : Number(r.t2),
        created_at: Number(r.created_at),
      });
    }
    return out;
  },
  async createTemplate(input: HistoryTemplateInput, userId: number | null = null): Promise<HistoryTemplateRow> {
    const created_at = now();
    const { id } = await k
      .insertInto('data_history_templates')
      .values({
        name: input.name,
        item_ids: JSON.stringify(input.item_ids),
        interval: input.interval,
        site_id: input.site_id,
        device_ids: JSON.stringify(input.device_ids),
        range: input.range,
        t1: input.range === 'custom' ? input.t1 : null,
        t2: input.range === 'custom' ? input.t2 : null,
        created_by: userId,
        created_at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      id,
      name: input.name,
      item_ids: input.item_ids,
      interval: input.interval,
      site_id: input.site_id,
      device_ids: input.device_ids,
      range: input.range,
      t1: input.range === 'custom' ? input.t1 : null,
      t2: input.range === 'custom' ? input.t2 : null,
      created_at,
    };
  },
  /** Deletes a template the caller can see (one with an item of its sites); others are a 404. */
  async deleteTemplate(id: number, allowed: number[] | null = null) {
    const row = await k.selectFrom('data_history_templates').select('item_ids').where('id', '=', id).executeTakeFirst();
    if (!row || (await visible(readIdList(row.item_ids), allowed)).length === 0) throw notFound();
    await k.deleteFrom('data_history_templates').where('id', '=', id).execute();
    return null;
  },
});
