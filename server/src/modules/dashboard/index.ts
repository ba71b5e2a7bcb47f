import { overviewMenuId, dashboardRoutes as r } from '@sitewatch/contract/dashboard';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Timers } from '../../clock/timers.ts';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { createDashboardRepository } from './repository.ts';
import { createDashboardService, type DashboardDeps } from './service.ts';
import { createCpuSampler } from './system-info.ts';

export interface DashboardModuleDeps {
  db: Db;
  dataDir: string;
  alarms: DashboardDeps['alarms'];
  collector?: DashboardDeps['collector'];
  notifier: DashboardDeps['notifier'];
  audit: AuditLog;
  clock: () => number;
  timers?: Timers;
  access: AccessService;
}

/**
 * The home dashboard and the overview page (000 §2.6, §7; 002 §7.3): system info with the real
 * state of the engines, the alarm ranking and its clear, open alarms by level, the environment
 * items and the per-site overview. Reads are for every signed-in user, limited to their sites.
 * docs/dashboard.md.
 */
export const registerDashboard = (app: FastifyInstance, deps: DashboardModuleDeps) => {
  const cpu = createCpuSampler(3000, undefined, deps.timers);
  app.addHook('onClose', async () => cpu.stop());
  const service = createDashboardService({
    repo: createDashboardRepository(deps.db),
    cpu,
    dataDir: deps.dataDir,
    alarms: deps.alarms,
    collector: deps.collector,
    notifier: deps.notifier,
    serverListening: () => app.server.listening,
    clock: deps.clock,
  });
  const allowed = (request: FastifyRequest) => deps.access.sites(request);

  // Every user's home page shows the figures; the host's own details only administrators get (sites null).
  addRoute(app, r.systemInfo, async ({ request }) => service.systemInfo((await allowed(request)) === null));
  addRoute(app, r.alarmCount, async ({ query, request }) => service.alarmCount(query, await allowed(request)));
  addRoute(
    app,
    r.alarmCountClear,
    async ({ request }) => {
      const answer = await service.clearAlarmCount();
      await deps.audit.write(
        {
          module: 'overview/alarm_count_clear',
          action: 'clear',
          target: '',
          success: true,
          detail: { code: 'countingSince', params: { time: answer.since } },
        },
        request,
      );
      return answer;
    },
    { permission: 'admin' },
  );
  addRoute(app, r.alarmLevelCount, async ({ request }) =>
    service.alarmLevelCount(await allowed(request), requestLanguage(request)),
  );
  addRoute(app, r.environment, async ({ request }) => service.environment(await allowed(request)));
  addRoute(app, r.sites, async ({ request }) => service.sites(await allowed(request)), {
    permission: { menu: overviewMenuId },
  });
};
