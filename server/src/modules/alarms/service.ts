import type {
  AlarmCommons,
  alarmLevelInput,
  logQuery,
  reviewQuery,
  warningOperation,
} from '@sitewatch/contract/alarms';
import type { z } from 'zod';
import type { AlarmEngine } from '../../alarms/engine.ts';
import type { AlarmSettings } from '../../alarms/settings.ts';
import type { Principal } from '../../http/auth.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { AlarmsRepository } from './repository.ts';

export interface AlarmsServiceDeps {
  repo: AlarmsRepository;
  engine: Pick<AlarmEngine, 'flush' | 'toRow' | 'operate' | 'confirmAll'>;
  settings: Pick<AlarmSettings, 'get' | 'set'>;
}

/** The sites a caller may see: null for every site (user 1 and role 1). */
export type AllowedSites = number[] | null;
type LevelInput = z.output<typeof alarmLevelInput>;

const levelRow = (r: { id: number; name: string; level: number; color: string; sound: number }) => ({
  ...r,
  sound: r.sound === 1,
});

/**
 * Alarm levels, common parameters, the alarm list, alarm operations and the alarm log. Lists,
 * operations and clearing are limited to the caller's granted sites.
 */
export const createAlarmsService = ({ repo, engine, settings }: AlarmsServiceDeps) => {
  const levelValues = (body: LevelInput) => ({ ...body, sound: body.sound ? 1 : 0 });
  /** Rows name the confirming person by their alias (issue 38); the record keeps the login name. */
  const named = async <R extends { confirmed_by: string }>(rows: R[]): Promise<R[]> => {
    const names = await repo.namesOf(rows.map((r) => r.confirmed_by));
    return rows.map((r) => ({ ...r, confirmed_by: names.get(r.confirmed_by) ?? r.confirmed_by }));
  };

  return {
    async levels() {
      const rows = await repo.listLevels();
      return { total: rows.length, data: rows.map(levelRow) };
    },
    async createLevel(body: LevelInput) {
      const v = levelValues(body);
      const { id } = await repo.insertLevel(v);
      return levelRow({ id, ...v });
    },
    async updateLevel(id: number, body: LevelInput) {
      const v = levelValues(body);
      const r = await repo.updateLevel(id, v);
      if (!r || Number(r.numUpdatedRows) === 0) throw notFound();
      return levelRow({ id, ...v });
    },
    async deleteLevel(id: number) {
      const r = await repo.deleteLevel(id);
      if (!r || Number(r.numDeletedRows) === 0) throw notFound();
    },

    commons: () => settings.get('commons'),
    async setCommons(body: AlarmCommons) {
      await settings.set('commons', body);
      return settings.get('commons');
    },
    /** What the shell needs of the common parameters. */
    async params() {
      const c = await settings.get('commons');
      return { popup_enable: c.popup_enable, voice_enable: c.voice_enable, video_enable: c.video_enable };
    },

    /** Alarm records of the caller's sites; what the engine holds in memory is written first. */
    async review(query: z.output<typeof reviewQuery>, siteIds: AllowedSites) {
      await engine.flush();
      const { total, rows } = await repo.listAlarms(
        {
          siteIds,
          device_group_id: query.device_group_id,
          level: query.level,
          handling: query.handling,
          scope: query.scope,
          start: query.start,
          end: query.end,
          status_id: query.status_id,
        },
        query.page,
        query.limit,
      );
      return { total, data: await named(rows.map(engine.toRow)) };
    },
    async operate(principal: Principal, siteIds: AllowedSites, body: z.output<typeof warningOperation>) {
      const row = await engine.operate(principal, siteIds, body);
      if (!row) throw notFound('alarms.notFound');
      return (await named([row]))[0]!;
    },
    async confirmAll(principal: Principal, siteIds: AllowedSites, remarks: string) {
      const confirmed = await engine.confirmAll(principal, siteIds, remarks);
      if (confirmed === 0) throw new AppError('badRequest', 'alarms.nothingToConfirm');
      return { confirmed };
    },

    async alarmLog(query: z.output<typeof logQuery>, siteIds: AllowedSites) {
      const { total, rows } = await repo.listLogs(
        { siteIds, start: query.start, end: query.end, item_name: query.item_name, action: query.action },
        query.page,
        query.limit,
      );
      const names = await repo.namesOf(rows.map((r) => r.user_name));
      return { total, data: rows.map((r) => ({ ...r, user_name: names.get(r.user_name) ?? r.user_name })) };
    },
    /** A restricted caller clears the entries of their own sites only. */
    async clearLog(siteIds: AllowedSites) {
      await engine.flush();
      await repo.clearLogs(siteIds);
    },
  };
};

export type AlarmsService = ReturnType<typeof createAlarmsService>;
