import { alarmRoutes, alarmMenus as m } from '@sitewatch/contract/alarms';
import type { OperationLogAction, OperationLogModule } from '@sitewatch/contract/operation-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AlarmEngine } from '../../alarms/engine.ts';
import type { AlarmSettings } from '../../alarms/settings.ts';
import type { EventBus } from '../../bus/bus.ts';
import { announceAtOnce } from '../../db/changes.ts';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { createAlarmsRepository } from './repository.ts';
import { createAlarmsService } from './service.ts';

export interface AlarmsDeps {
  db: Db;
  engine: AlarmEngine;
  bus: Pick<EventBus, 'publish'>;
  settings: AlarmSettings;
  audit: AuditLog;
  auth: Pick<AuthService, 'verifyOwnPassword'>;
  access: AccessService;
}

/**
 * Alarm routes: levels, common parameters, the shell's alarm params, the alarm list (`review`),
 * alarm operations (`warning_operation`) and the alarm log. Lists and operations are limited to the
 * caller's granted sites.
 */
export const registerAlarms = (app: FastifyInstance, deps: AlarmsDeps) => {
  const service = createAlarmsService({ ...deps, repo: createAlarmsRepository(deps.db, announceAtOnce(deps.bus)) });
  const audit = (request: FastifyRequest, module: OperationLogModule, action: OperationLogAction, target = '') =>
    deps.audit.write({ module, action, target, success: true }, request);
  const siteIdsOf = async (request: FastifyRequest): Promise<number[] | null> =>
    (await deps.access.forUser(request.principal!.user_id)).siteIds;

  addRoute(app, alarmRoutes.levels, () => service.levels());
  addRoute(
    app,
    alarmRoutes.levelCreate,
    async ({ body, request }) => {
      const row = await service.createLevel(body);
      await audit(request, 'setting/alarm_levels', 'add', body.name);
      return row;
    },
    { permission: { menu: m.warningLevel, func: 'add' } },
  );
  addRoute(
    app,
    alarmRoutes.levelUpdate,
    async ({ params, body, request }) => {
      const row = await service.updateLevel(params.id, body);
      await audit(request, 'setting/alarm_levels', 'edit', body.name);
      return row;
    },
    { permission: { menu: m.warningLevel, func: 'edit' } },
  );
  addRoute(
    app,
    alarmRoutes.levelDelete,
    async ({ params, request }) => {
      await service.deleteLevel(params.id);
      await audit(request, 'setting/alarm_levels', 'delete', String(params.id));
      return null;
    },
    { permission: { menu: m.warningLevel, func: 'delete' } },
  );

  addRoute(app, alarmRoutes.commons, () => service.commons(), {
    permission: { menu: m.alarmParam, func: 'view' },
  });
  addRoute(
    app,
    alarmRoutes.commonsUpdate,
    async ({ body, request }) => {
      const row = await service.setCommons(body);
      await audit(request, 'setting/alarm_commons', 'edit');
      return row;
    },
    { permission: { menu: m.alarmParam, func: 'edit' } },
  );
  addRoute(app, alarmRoutes.params, () => service.params());

  addRoute(app, alarmRoutes.review, async ({ query, request }) => service.review(query, await siteIdsOf(request)));

  addRoute(
    app,
    alarmRoutes.operation,
    async ({ body, request }) => {
      // Disabling and enabling need the page's disable function on top of confirm.
      if (body.alarm_action >= 2) await deps.access.require(request, { menu: m.alarm, func: 'disable' });
      return service.operate(request.principal!, await siteIdsOf(request), body);
    },
    { permission: { menu: m.alarm, func: 'confirm' } },
  );
  addRoute(
    app,
    alarmRoutes.operateAll,
    async ({ body, request }) => service.confirmAll(request.principal!, await siteIdsOf(request), body.remarks),
    { permission: { menu: m.alarm, func: 'confirm' } },
  );

  addRoute(app, alarmRoutes.alarmLog, async ({ query, request }) => service.alarmLog(query, await siteIdsOf(request)), {
    permission: { menu: m.alarmLog, func: 'view' },
  });
  addRoute(
    app,
    alarmRoutes.alarmLogClear,
    async ({ body, request }) => {
      await deps.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      await service.clearLog(await siteIdsOf(request));
      await audit(request, 'alarm_log', 'clear');
      return null;
    },
    { permission: { menu: m.alarmLog, func: 'clear' } },
  );
};
