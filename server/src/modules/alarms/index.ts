import { alarmRoutes, alarmMenus as m } from '@sitewatch/contract/alarms';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AlarmEngine } from '../../alarms/engine.ts';
import type { AlarmSettings } from '../../alarms/settings.ts';
import type { EventBus } from '../../bus/bus.ts';
import type { Db } from '../../db/kysely.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AuditLog } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';
import { createAlarmsRepository } from './repository.ts';

export interface AlarmsDeps {
  db: Db;
  engine: AlarmEngine;
  bus: Pick<EventBus, 'publish'>;
  settings: AlarmSettings;
  audit: AuditLog;
  auth: Pick<AuthService, 'verifyOwnPassword'>;
}

const siteIdsOf = async (request: FastifyRequest): Promise<number[] | null> =>
  (await request.server.access.forUser(request.principal!.user_id)).siteIds;

/**
 * Alarm routes: levels, common parameters, the shell's alarm params, the alarm list (`review`),
 * alarm operations (`warning_operation`) and the alarm log. Lists and operations are limited to the
 * caller's granted sites.
 */
export const registerAlarms = (app: FastifyInstance, deps: AlarmsDeps) => {
  const repo = createAlarmsRepository(deps.db);
  const audit = (request: FastifyRequest, action: string, target: string, detail = '') =>
    deps.audit.write({ module: 'alarms', action, target, success: true, detail }, request);
  const levelRow = (r: { id: number; name: string; level: number; color: string; sound: number }) => ({
    ...r,
    sound: r.sound === 1,
  });

  addRoute(app, alarmRoutes.levels, async () => {
    const rows = await repo.listLevels();
    return { total: rows.length, data: rows.map(levelRow) };
  });
  addRoute(
    app,
    alarmRoutes.levelCreate,
    async ({ body, request }) => {
      const v = { ...body, sound: body.sound ? 1 : 0 };
      const { id } = await repo.insertLevel(v);
      await audit(request, 'add', `alarm_level ${id}`, body.name);
      deps.bus.publish('config.changed', { area: 'alarm_settings', ids: null });
      return levelRow({ id, ...v });
    },
    { permission: { menu: m.warningLevel, func: 'add' } },
  );
  addRoute(
    app,
    alarmRoutes.levelUpdate,
    async ({ params, body, request }) => {
      const v = { ...body, sound: body.sound ? 1 : 0 };
      const r = await repo.updateLevel(params.id, v);
      if (!r || Number(r.numUpdatedRows) === 0) throw notFound();
      await audit(request, 'edit', `alarm_level ${params.id}`, body.name);
      deps.bus.publish('config.changed', { area: 'alarm_settings', ids: null });
      return levelRow({ id: params.id, ...v });
    },
    { permission: { menu: m.warningLevel, func: 'edit' } },
  );
  addRoute(
    app,
    alarmRoutes.levelDelete,
    async ({ params, request }) => {
      const r = await repo.deleteLevel(params.id);
      if (!r || Number(r.numDeletedRows) === 0) throw notFound();
      await audit(request, 'delete', `alarm_level ${params.id}`);
      return null;
    },
    { permission: { menu: m.warningLevel, func: 'delete' } },
  );

  addRoute(app, alarmRoutes.commons, () => deps.settings.get('commons'), {
    permission: { menu: m.alarmParam, func: 'view' },
  });
  addRoute(
    app,
    alarmRoutes.commonsUpdate,
    async ({ body, request }) => {
      await deps.settings.set('commons', body);
      await audit(request, 'edit', 'alarm_commons');
      return deps.settings.get('commons');
    },
    { permission: { menu: m.alarmParam, func: 'edit' } },
  );
  addRoute(app, alarmRoutes.params, async () => {
    const c = await deps.settings.get('commons');
    return { popup_enable: c.popup_enable, voice_enable: c.voice_enable, video_enable: c.video_enable };
  });

  addRoute(app, alarmRoutes.review, async ({ query, request }) => {
    await deps.engine.flush();
    const { total, rows } = await repo.listAlarms(
      {
        siteIds: await siteIdsOf(request),
        device_group_id: query.device_group_id,
        level: query.level,
        handling: query.handling,
        scope: query.scope,
        start: query.start,
        end: query.end,
      },
      query.page,
      query.limit,
    );
    return { total, data: rows.map(deps.engine.toRow) };
  });

  addRoute(
    app,
    alarmRoutes.operation,
    async ({ body, request }) => {
      if (body.alarm_action >= 2) await request.server.access.require(request, { menu: m.alarm, func: 'disable' });
      const row = await deps.engine.operate(request.principal!, await siteIdsOf(request), body);
      if (!row) throw notFound('alarms.notFound');
      return row;
    },
    { permission: { menu: m.alarm, func: 'confirm' } },
  );
  addRoute(
    app,
    alarmRoutes.operateAll,
    async ({ body, request }) => {
      const confirmed = await deps.engine.confirmAll(request.principal!, await siteIdsOf(request), body.remarks);
      if (confirmed === 0) throw new AppError('badRequest', 'alarms.nothingToConfirm');
      return { confirmed };
    },
    { permission: { menu: m.alarm, func: 'confirm' } },
  );

  addRoute(
    app,
    alarmRoutes.alarmLog,
    async ({ query, request }) => {
      const { total, rows } = await repo.listLogs(
        {
          siteIds: await siteIdsOf(request),
          start: query.start,
          end: query.end,
          item_name: query.item_name,
          action: query.action,
        },
        query.page,
        query.limit,
      );
      return { total, data: rows };
    },
    { permission: { menu: m.alarmLog, func: 'view' } },
  );
  addRoute(
    app,
    alarmRoutes.alarmLogClear,
    async ({ body, request }) => {
      await deps.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      await deps.engine.flush();
      // A restricted user clears the entries of their own sites only.
      await repo.clearLogs(await siteIdsOf(request));
      await audit(request, 'clear', 'alarm_log');
      return null;
    },
    { permission: { menu: m.alarmLog, func: 'clear' } },
  );
};
