import {
  type HistoryTemplateInput,
  type HistoryTemplateRow,
  historyRangeName,
  templateInterval,
} from '@sitewatch/contract/series';
import type { Kysely } from 'kysely';
import { readIdList } from '../../db/json.ts';
import type { Database } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';

/**
 * Saved history report templates (/history_report): a caller sees only the templates with an item
 * of its sites, answered with their part (the items, devices and site of its grant), and deletes
 * only a template it holds whole (docs/reports.md, "Templates").
 */
export const templateCalls = (
  k: Kysely<Database>,
  now: () => number,
  visible: (ids: number[], allowed: number[] | null) => Promise<number[]>,
) => {
  const devicesOf = async (ids: number[], allowed: number[] | null) => {
    if (allowed === null || ids.length === 0) return ids;
    const rows = await k
      .selectFrom('devices')
      .select('id')
      .where('id', 'in', ids)
      .where('device_group_id', 'in', allowed.length ? allowed : [0])
      .execute();
    const ok = new Set(rows.map((r) => r.id));
    return ids.filter((id) => ok.has(id));
  };
  const siteOf = (site: number, allowed: number[] | null) => (allowed === null || allowed.includes(site) ? site : 0);
  return {
    /** Templates with at least one item the caller can see, their lists cut to those items. */
    async listTemplates(allowed: number[] | null = null) {
      const rows = await k.selectFrom('data_history_templates').selectAll().orderBy('id').execute();
      const out: HistoryTemplateRow[] = [];
      for (const r of rows) {
        const item_ids = await visible(readIdList(r.item_ids), allowed);
        if (item_ids.length === 0) continue;
        const device_ids = await devicesOf(readIdList(r.device_ids), allowed);
        const parsedRange = historyRangeName.safeParse(r.range);
        const parsedInterval = templateInterval.safeParse(r.interval);
        out.push({
          id: r.id,
          name: r.name,
          item_ids,
          interval: parsedInterval.success ? parsedInterval.data : 'hour',
          site_id: siteOf(r.site_id, allowed),
          device_ids,
          range: parsedRange.success ? parsedRange.data : 'last24h',
          t1: r.t1 === null ? null : Number(r.t1),
          t2: r.t2 === null ? null : Number(r.t2),
          created_at: Number(r.created_at),
        });
      }
      return out;
    },
    /**
     * Saves a template of the caller's sites: items of other sites are left out (docs/reports.md); a
     * site, or items, only of sites outside the grant are refused (403).
     */
    async createTemplate(
      input: HistoryTemplateInput,
      userId: number | null = null,
      allowed: number[] | null = null,
    ): Promise<HistoryTemplateRow> {
      if (input.site_id !== 0 && siteOf(input.site_id, allowed) === 0) throw forbidden('access.siteNotGranted');
      const item_ids = await visible(input.item_ids, allowed);
      if (item_ids.length === 0) throw forbidden('access.siteNotGranted');
      input = { ...input, item_ids, device_ids: await devicesOf(input.device_ids, allowed) };
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
    /**
     * Deletes a template the caller holds whole: every item and device of its sites, and its site. One
     * it cannot see is a 404; one it sees in part, a 403 (a template shared with other sites' users).
     */
    async deleteTemplate(id: number, allowed: number[] | null = null) {
      const row = await k
        .selectFrom('data_history_templates')
        .select(['item_ids', 'device_ids', 'site_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      const items = readIdList(row?.item_ids ?? '[]');
      const seen = await visible(items, allowed);
      if (!row || seen.length === 0) throw notFound();
      const devices = readIdList(row.device_ids);
      const whole =
        seen.length === items.length &&
        (await devicesOf(devices, allowed)).length === devices.length &&
        siteOf(row.site_id, allowed) === row.site_id;
      if (!whole) throw forbidden('access.spansOtherSites');
      await k.deleteFrom('data_history_templates').where('id', '=', id).execute();
      return null;
    },
  };
};
