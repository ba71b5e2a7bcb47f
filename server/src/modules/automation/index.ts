import { automationRoutes as r } from '@sitewatch/contract/automation';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import type { Runner } from './runner.ts';
import type { AutomationService } from './service.ts';

/** The plug-in family other areas contribute to (`contributes: { actionKinds }`). */
export type { ActionKind } from './kinds.ts';

/** Menu ids (docs/menus.md): 780 the group, 781 /linkage, 782 /setting_action, 783 /timed_tasks. */
export const automationMenus = { group: 780, linkage: 781, actions: 782, tasks: 783 } as const;

/** Every write to a device needs the control function of the actions page (docs/automation.md). */
const control = { menu: automationMenus.actions, func: 'control' } as const;

/** setting/actions, setting/motion_management, pub/remote_control, setting/auto, setting/cron (002 §7.1, §7.4). */
export const registerAutomation = (
  app: FastifyInstance,
  deps: { service: AutomationService; runner: Runner; access: AccessService },
) => {
  const { service, access } = deps;
  const scope = (request: FastifyRequest) => access.scope(request);
  const p = (menu: number, func: string) => ({ permission: { menu, func } });
  const M = automationMenus;
  /** A save whose action writes to a device asks for the control function too. */
  const controlFor = async (request: FastifyRequest, ...actionIds: number[]) => {
    for (const id of actionIds)
      if (id > 0 && (await service.actionWritesDevice(id))) return void (await access.require(request, control));
  };

  addRoute(app, r.actionKinds, async () => service.kinds(), p(M.actions, 'view'));
  addRoute(
    app,
    r.actions,
    async ({ query, request }) => service.actions(query, await scope(request)),
    p(M.actions, 'view'),
  );
  addRoute(
    app,
    r.createAction,
    async ({ body, request }) => {
      if (service.writesDevice(body)) await access.require(request, control);
      return service.createAction(body, await scope(request));
    },
    p(M.actions, 'add'),
  );
  addRoute(
    app,
    r.updateAction,
    async ({ params, body, request }) => {
      if (service.writesDevice(body)) await access.require(request, control);
      return service.updateAction(params.id, body, await scope(request));
    },
    p(M.actions, 'edit'),
  );
  addRoute(
    app,
    r.deleteAction,
    async ({ params, request }) => service.deleteAction(params.id, await scope(request)),
    p(M.actions, 'delete'),
  );
  addRoute(
    app,
    r.actionRuns,
    async ({ params, query, request }) => service.runs(params.id, query, await scope(request)),
    p(M.actions, 'view'),
  );
  addRoute(
    app,
    r.remoteControl,
    async ({ body, request }) => {
      await service.actionOf(body.action_id, await scope(request));
      const run = await deps.runner.run({
        actionId: body.action_id,
        trigger: 'manual',
        trigger_id: 0,
        dryRun: body.dry_run,
        request,
      });
      return run!;
    },
    { permission: control },
  );

  addRoute(
    app,
    r.linkages,
    async ({ query, request }) => service.linkages(query, await scope(request)),
    p(M.linkage, 'view'),
  );
  addRoute(
    app,
    r.linkage,
    async ({ params, request }) => service.linkage(params.id, await scope(request)),
    p(M.linkage, 'view'),
  );
  addRoute(
    app,
    r.createLinkage,
    async ({ body, request }) => {
      await controlFor(request, body.action_id, body.recovery_action_id);
      return service.createLinkage(body, await scope(request));
    },
    p(M.linkage, 'add'),
  );
  addRoute(
    app,
    r.updateLinkage,
    async ({ params, body, request }) => {
      await controlFor(request, body.action_id, body.recovery_action_id);
      return service.updateLinkage(params.id, body, await scope(request));
    },
    p(M.linkage, 'edit'),
  );
  addRoute(
    app,
    r.linkageState,
    async ({ body, request }) => service.setLinkageState(body.id, body.enable, await scope(request)),
    p(M.linkage, 'edit'),
  );
  addRoute(
    app,
    r.deleteLinkage,
    async ({ params, request }) => service.deleteLinkage(params.id, await scope(request)),
    p(M.linkage, 'delete'),
  );

  addRoute(app, r.crons, async ({ query, request }) => service.tasks(query, await scope(request)), p(M.tasks, 'view'));
  addRoute(
    app,
    r.cronLog,
    async ({ query, request }) => service.taskLog(query, await scope(request)),
    p(M.tasks, 'view'),
  );
  addRoute(
    app,
    r.createCron,
    async ({ body, request }) => {
      await controlFor(request, body.action_id);
      return service.createTask(body, await scope(request));
    },
    p(M.tasks, 'add'),
  );
  addRoute(
    app,
    r.updateCron,
    async ({ params, body, request }) => {
      await controlFor(request, body.action_id);
      return service.updateTask(params.id, body, await scope(request));
    },
    p(M.tasks, 'edit'),
  );
  addRoute(
    app,
    r.deleteCron,
    async ({ params, request }) => service.deleteTask(params.id, await scope(request)),
    p(M.tasks, 'delete'),
  );
};
