import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type AlarmEngine, createAlarmEngine } from './alarms/engine.ts';
import { withJitterState } from './alarms/live.ts';
import { createAlarmSettings } from './alarms/settings.ts';
import type { Collector } from './collector/collector.ts';
import type { Db } from './db/kysely.ts';
import { type Authenticator, registerAuthHook } from './http/auth.ts';
import { registerErrorHandling, sendError } from './http/envelope.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security.ts';
import { registerWebApp } from './http/web.ts';
import { createAccessService, registerAccess, registerAccessRoutes } from './modules/access/index.ts';
import { registerAlarms } from './modules/alarms/index.ts';
import { createAuditLog, registerAuditTrail } from './modules/audit/index.ts';
import {
  createAuthRepository,
  createAuthService,
  createLoginPolicy,
  type LoginKey,
  loginRateLimit,
  registerAuth,
  requestMeta,
} from './modules/auth/index.ts';
import { registerDashboard } from './modules/dashboard/index.ts';
import { registerDeviceView } from './modules/device-view/index.ts';
import {
  createGlobalConfig,
  type GlobalConfigDefaults,
  registerGlobalConfigRoutes,
} from './modules/global-config/index.ts';
import { registerHealth } from './modules/health/index.ts';
import { registerLdap } from './modules/ldap/index.ts';
import { registerMonitoring } from './modules/monitoring/index.ts';
import { registerNotify } from './modules/notify/index.ts';
import { registerReports } from './modules/reports/index.ts';
import { loginSafeLockout } from './modules/security/index.ts';
import { registerSeries } from './modules/series/index.ts';
import { registerUsers } from './modules/users/index.ts';
import { type ChannelRegistry, createChannels } from './notify/channels/index.ts';
import { createNotifier } from './notify/notifier.ts';
import type { PushHub } from './push/hub.ts';
import { registerPushChannel } from './push/routes.ts';
import type { SeriesStore } from './series/store.ts';

export interface AppDeps {
  db: Db;
  push: PushHub;
  /** The running collector (live values, device writes); absent in API-only tests. */
  collector?: Collector | undefined;
  /** The running series store; without it reads go straight to the tables. */
  series?: SeriesStore | undefined;
  /** The RSA key that protects passwords on the way from the browser. */
  loginKey: LoginKey;
  /** Replaces session authentication (suites of other areas use a fixed token). */
  authenticator?: Authenticator;
  /** Defaults of the global configuration, before an administrator changes it. */
  globalConfigDefaults?: GlobalConfigDefaults;
  /** Logins a minute per address on each login route. */
  loginRateLimit?: { max: number; timeWindow: number };
  clock?: () => number;
  /** Built web app to serve; none in API-only tests. */
  webDir?: string | undefined;
  logLevel?: string;
  bodyLimitBytes?: number;
  /** Notification channels (tests may wrap them); the real ones by default. */
  notifyChannels?: ChannelRegistry;
  /** First retry delay of a failed notice (ms). */
  notifyRetryDelayMs?: number;
  /** The data directory (the dashboard shows the disk it is on); the working directory by default. */
  dataDir?: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The alarm engine: main.ts feeds it the collector's samples and starts it. */
    alarms: AlarmEngine;
  }
}

/** Removes the spec client's `t` (epoch seconds) from bodies and queries: accepted and ignored. */
const dropT = (value: unknown) => {
  if (value && typeof value === 'object' && !Array.isArray(value) && 't' in value) {
    delete (value as Record<string, unknown>).t;
  }
};

/**
 * Builds the whole HTTP app: the http plugins first, then each area's `register` from a short
 * list. Tests call it with their own database and fakes.
 */
export const buildApp = async (deps: AppDeps): Promise<FastifyInstance> => {
  const app = Fastify({
    logger: { level: deps.logLevel ?? 'info' },
    bodyLimit: deps.bodyLimitBytes ?? 1_048_576,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors the router raises before any route (bad URL encoding, over-long path parameter)
    // get the envelope too.
    frameworkErrors: (_error, request, reply) => sendError(reply, request, 'badRequest'),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While closing, answers in flight end their keep-alive connection, so close() need not wait
  // for the keep-alive timeout after the last answer.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('preValidation', async (request) => {
    dropT(request.body);
    dropT(request.query);
  });

  const clock = deps.clock ?? Date.now;
  const config = createGlobalConfig(deps.db, deps.globalConfigDefaults);
  const audit = createAuditLog(deps.db, clock);
  const access = createAccessService(deps.db);
  const auth = createAuthService({
    repo: createAuthRepository(deps.db),
    policy: createLoginPolicy(deps.db, config, clock),
    config,
    loginKey: deps.loginKey,
    audit,
    clock,
  });
  const authenticator: Authenticator = deps.authenticator ?? {
    authenticate: (token, request) => auth.authenticate(token, request ? requestMeta(request) : undefined),
  };

  await registerSecurityHeaders(app);
  await registerOpenApi(app);
  await app.register(rateLimit, { global: false });
  registerMetrics(app);
  registerAccess(app, access);
  registerAuthHook(app, authenticator);
  registerAuditTrail(app, audit);
  await registerPushChannel(app, deps.push, authenticator);

  registerHealth(app, deps);
  // Live item states show jitter (state 6) when the alarm engine sees an item flapping.
  const live =
    deps.collector && withJitterState(deps.collector, () => (app.hasDecorator('alarms') ? app.alarms : undefined));
  registerMonitoring(app, { ...deps, collector: live, audit });
  registerSeries(app, deps);
  registerReports(app, { db: deps.db, live });
  registerDeviceView(app, { db: deps.db, series: deps.series, live });
  registerAuth(app, {
    auth,
    loginKey: deps.loginKey,
    config,
    access,
    rateLimit: deps.loginRateLimit ?? loginRateLimit,
  });
  registerAccessRoutes(app, deps.db, access);
  registerGlobalConfigRoutes(app, config, audit, { LOGIN_SAFE: loginSafeLockout() });
  registerUsers(app, { db: deps.db, auth, audit, clock });
  registerLdap(app, { db: deps.db, config, audit, auth, rateLimit: deps.loginRateLimit ?? loginRateLimit, clock });
  const alarmSettings = createAlarmSettings(deps.db, clock);
  const notifier = createNotifier({
    db: deps.db,
    settings: alarmSettings,
    channels: deps.notifyChannels ?? createChannels(),
    clock,
    ...(deps.notifyRetryDelayMs !== undefined ? { retryDelayMs: deps.notifyRetryDelayMs } : {}),
    log: app.log,
  });
  const alarms = createAlarmEngine({
    db: deps.db,
    push: deps.push,
    access,
    notifier,
    settings: alarmSettings,
    clock,
    log: app.log,
  });
  app.decorate('alarms', alarms);
  app.addHook('onClose', async () => {
    await alarms.stop();
    await notifier.stop();
  });
  registerAlarms(app, { db: deps.db, engine: alarms, settings: alarmSettings, audit, auth });
  registerNotify(app, {
    db: deps.db,
    notifier,
    settings: alarmSettings,
    audit,
    auth,
    onGroupsChanged: () => alarms.reload(),
  });
  registerDashboard(app, {
    db: deps.db,
    dataDir: deps.dataDir ?? process.cwd(),
    alarms,
    collector: deps.collector,
    notifier,
    audit,
    clock,
  });

  await registerWebApp(app, deps.webDir);
  return app;
};
