import { sql } from 'kysely';
import { announceAtOnce, type Changes } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import { personNamesByLogin } from '../../db/person-name.ts';
import type { AlarmsTable } from '../../db/schema-alarms.ts';

export interface AlarmListFilter {
  siteIds: number[] | null;
  device_group_id?: number | undefined;
  level?: number | undefined;
  handling?: number | undefined;
  scope: 'open' | 'all';
  start?: number | undefined;
  end?: number | undefined;
  /** One alarm by id. */
  status_id?: number | undefined;
}

export interface LogFilter {
  siteIds: number[] | null;
  start?: number | undefined;
  end?: number | undefined;
  item_name?: string | undefined;
  action?: string | undefined;
}

/**
 * Alarm levels, alarm records and the alarm log (Kysely only). The alarm engine keeps the levels in
 * memory: their writes announce `alarm_settings`.
 */
export const createAlarmsRepository = (db: Db, changes: Changes = announceAtOnce(undefined)) => {
  const k = db.kysely;
  const levelsChanged = <T>(result: T) => {
    changes.note('alarm_settings', null);
    return result;
  };
  const alarmsQuery = (f: AlarmListFilter) => {
    let q = k.selectFrom('alarms');
    if (f.scope === 'open') q = q.where('end_time', 'is', null);
    if (f.siteIds !== null)
      q = f.siteIds.length ? q.where('device_group_id', 'in', f.siteIds) : q.where(sql<boolean>`1 = 0`);
    if (f.device_group_id !== undefined) q = q.where('device_group_id', '=', f.device_group_id);
    if (f.level !== undefined) q = q.where('level', '=', f.level);
    if (f.handling !== undefined) q = q.where('handling', '=', f.handling);
    if (f.start !== undefined) q = q.where('start_time', '>=', f.start);
    if (f.end !== undefined) q = q.where('start_time', '<=', f.end);
    if (f.status_id !== undefined) q = q.where('id', '=', f.status_id);
    return q;
  };
  const logsQuery = (f: LogFilter) => {
    let q = k.selectFrom('alarm_logs');
    if (f.siteIds !== null)
      q = f.siteIds.length ? q.where('device_group_id', 'in', f.siteIds) : q.where(sql<boolean>`1 = 0`);
    if (f.start !== undefined) q = q.where('time', '>=', f.start);
    if (f.end !== undefined) q = q.where('time', '<=', f.end);
    if (f.item_name) q = q.where('item_name', 'like', `%${f.item_name.replace(/[%_\\]/g, '')}%`);
    if (f.action) q = q.where('action', '=', f.action);
    return q;
  };
  return {
    listLevels: () => k.selectFrom('alarm_levels').selectAll().orderBy('level').orderBy('id').execute(),
    findLevel: (id: number) => k.selectFrom('alarm_levels').selectAll().where('id', '=', id).executeTakeFirst(),
    insertLevel: async (v: { name: string; level: number; color: string; sound: number }) =>
      levelsChanged(await k.insertInto('alarm_levels').values(v).returning('id').executeTakeFirstOrThrow()),
    updateLevel: async (id: number, v: { name: string; level: number; color: string; sound: number }) =>
      levelsChanged(await k.updateTable('alarm_levels').set(v).where('id', '=', id).executeTakeFirst()),
    deleteLevel: async (id: number) =>
      levelsChanged(await k.deleteFrom('alarm_levels').where('id', '=', id).executeTakeFirst()),
    async listAlarms(f: AlarmListFilter, page: number, limit: number): Promise<{ total: number; rows: AlarmsTable[] }> {
      const total = await alarmsQuery(f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const rows = await alarmsQuery(f)
        .selectAll()
        .orderBy('start_time', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      return { total: Number(total?.n ?? 0), rows };
    },
    async listLogs(f: LogFilter, page: number, limit: number) {
      const total = await logsQuery(f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const rows = await logsQuery(f)
        .selectAll()
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      return { total: Number(total?.n ?? 0), rows };
    },
    /** The shown names (alias, else login name) of the people these rows name by login name. */
    namesOf: (logins: readonly string[]) => personNamesByLogin(k, logins),
    /** Clears the log of these sites (null: of every site). */
    clearLogs: (siteIds: number[] | null) => {
      let q = k.deleteFrom('alarm_logs');
      if (siteIds !== null) q = q.where('device_group_id', 'in', siteIds.length ? siteIds : [0]);
      return q.execute();
    },
  };
};
export type AlarmsRepository = ReturnType<typeof createAlarmsRepository>;
