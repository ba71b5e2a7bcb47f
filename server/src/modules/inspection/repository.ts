import { inspectionReportSettings, patrolSettings } from '@sitewatch/contract/inspection';
import type { Db } from '../../db/kysely.ts';
import { personNames } from '../../db/person-name.ts';
import { createSettingsStore } from '../../db/settings-store.ts';

/** Sites, items in scope, reports, plans and the module's settings rows. */
export const createInspectionRepository = (db: Db, clock?: () => number) => {
  const k = db.kysely;
  /** Inspector and reviewer by their alias now (issue 38); a plan (inspector 0) and removed users as written. */
  const named = async <
    R extends { inspector_id: number; inspector: string; reviewer_id: number | null; reviewer: string },
  >(
    rows: R[],
  ): Promise<R[]> => {
    const names = await personNames(
      k,
      rows.flatMap((r) => [r.inspector_id, r.reviewer_id ?? 0]),
    );
    return rows.map((r) => ({
      ...r,
      inspector: names.get(r.inspector_id) ?? r.inspector,
      reviewer: (r.reviewer_id !== null && names.get(r.reviewer_id)) || r.reviewer,
    }));
  };
  const namedOne = async <R extends Parameters<typeof named>[0][number]>(row: R | undefined) =>
    row === undefined ? undefined : (await named([row]))[0];
  return {
    k,
    sites: () => k.selectFrom('device_groups').select(['id', 'parent_id']).execute(),

    /** Enabled items of enabled devices of these sites, with their stored value and state. */
    items: (siteIds: number[]) =>
      siteIds.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('items')
            .innerJoin('devices', 'devices.id', 'items.device_id')
            .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id')
            .select([
              'items.id as item_id',
              'items.name as item_name',
              'items.unit',
              'items.value',
              'items.state',
              'devices.id as device_id',
              'devices.name as device_name',
              'device_groups.id as device_group_id',
              'device_groups.name as device_group_name',
            ])
            .where('devices.device_group_id', 'in', siteIds)
            .where('items.enable', '=', 1)
            .where('devices.enable', '=', 1)
            .orderBy('device_groups.id')
            .orderBy('devices.id')
            .orderBy('items.id')
            .execute(),

    insertReport: async (row: {
      kind: string;
      plan_id: number | null;
      inspector_id: number;
      inspector: string;
      status: number;
      device_group_ids: string;
      content: string;
      summary: string;
      items: number;
      abnormal: number;
      created_at: number;
      reviewer_id: number | null;
      reviewer: string;
      reviewed_at: number | null;
    }) => {
      const r = await k.insertInto('inspection_reports').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    report: async (id: number) =>
      namedOne(await k.selectFrom('inspection_reports').selectAll().where('id', '=', id).executeTakeFirst()),
    reports: async (
      filter: { status?: number | undefined; kind?: string | undefined },
      page: number,
      limit: number,
    ) => {
      let q = k.selectFrom('inspection_reports');
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (filter.kind !== undefined) q = q.where('kind', '=', filter.kind);
      const [{ n }] = (await q.select((e) => e.fn.countAll<number>().as('n')).execute()) as [{ n: number }];
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      return { total: Number(n), rows: await named(rows) };
    },
    latest: async () =>
      namedOne(
        await k
          .selectFrom('inspection_reports')
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirst(),
      ),
    /** Sets the review only while the report is still waiting (a second reviewer loses the race). */
    review: async (
      id: number,
      set: { status: number; reviewer_id: number; reviewer: string; review_comment: string; reviewed_at: number },
    ) => {
      const r = await k
        .updateTable('inspection_reports')
        .set(set)
        .where('id', '=', id)
        .where('status', '=', 0)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    plans: () => k.selectFrom('inspection_plans').selectAll().orderBy('id').execute(),
    plan: (id: number) => k.selectFrom('inspection_plans').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Patrol and report settings (module_settings `patrol_settings`, `inspection_report`), cached. */
    settings: createSettingsStore({
      db,
      table: 'module_settings',
      schemas: { patrol_settings: patrolSettings, inspection_report: inspectionReportSettings },
      defaults: { patrol_settings: patrolSettings.parse({}), inspection_report: inspectionReportSettings.parse({}) },
      clock,
    }),
  };
};
export type InspectionRepository = ReturnType<typeof createInspectionRepository>;
