import { randomBytes, randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type AlarmEngine, createAlarmEngine } from './alarms/engine.ts';
import { createAlarmSettings } from './alarms/settings.ts';
import type { Kernel } from './area.ts';
import { areas } from './areas.ts';
import { createEventBus, type EventBus } from './bus/bus.ts';
import { type Collector, createCollector } from './collector/collector.ts';
import type { DriverRegistry } from './collector/driver.ts';
import type { Db } from './db/kysely.ts';
import { type Authenticator, registerAuthHook } from './http/auth.ts';
import { registerErrorHandling, sendError } from './http/envelope.ts';
import { badRequest } from './http/errors.ts';
import {
  applyHttpLimits,
  defaultHttpLimits,
  type HttpLimits,
  httpTimeoutOptions,
  type TrustProxy,
} from './http/limits.ts';
import { type MetricsAccess, registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerPipelineMetrics } from './http/pipeline-metrics.ts';
import { registerSecurityHeaders } from './http/security.ts';
import { registerWebApp } from './http/web.ts';
import { createAccessService, registerAccess } from './modules/access/index.ts';
import { apiTokenService, withApiTokens } from './modules/api-tokens/index.ts';
import { createAuditLog, registerAuditTrail } from './modules/audit/index.ts';
import {
  createAuthRepository,
  createAuthService,
  createLoginPolicy,
  type LoginKey,
  loginRateLimit,
  requestMeta,
} from './modules/auth/index.ts';
import { createDeviceStateLog } from './modules/device-view/index.ts';
import { createGlobalConfig, type GlobalConfigDefaults } from './modules/global-config/index.ts';
import { type ChannelRegistry, createChannels } from './notify/channels/index.ts';
import { createNotifier } from './notify/notifier.ts';
import { createPushHub, type PushHub } from './push/hub.ts';
import { startLiveFeed } from './push/live.ts';
import { registerPushChannel } from './push/routes.ts';
import { createGrantCache, pushAlarms } from './push/scoped.ts';
import { encryptStoredSecrets } from './secrets/at-rest.ts';
import { createSecretBox, type SecretBox } from './secrets/index.ts';
import { startSeriesMaintenance } from './series/maintenance.ts';
import { createSeriesStore, type SeriesStore } from './series/store.ts';

export interface AppDeps {
  db: Db;
  /** The push hub (tests hand in their own to watch what is sent); a new one by default. */
  push?: PushHub;
  /** Who may read /metrics besides loopback: a bearer token, addresses (none by default). */
  metrics?: MetricsAccess;
  /**
   * Device drivers: with them the server collects (a collector, the series store and its
   * maintenance, the device state log); without them it serves the API only, as most tests do.
   */
  drivers?: DriverRegistry | undefined;
  /** A collector to use instead of building one (tests hand in fakes). */
  collector?: Collector | undefined;
  /** Where the collector's device loops run (`worker` by default; docs/series-store.md, "Both cores"). */
  collectorThread?: 'worker' | 'main' | undefined;
  /** A series store to use instead of building one; without either, reads go straight to the tables. */
  series?: SeriesStore | undefined;
  /** The RSA key that protects passwords on the way from the browser. */
  loginKey: LoginKey;
  /**
   * Encrypts stored secrets (main.ts: `secret.key` in the data dir); a key of this process alone by
   * default, for suites that do not restart.
   */
  secrets?: SecretBox | undefined;
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
  /** Where the JSON log lines go (standard output by default). */
  logStream?: { write(line: string): void };
  bodyLimitBytes?: number;
  /** Request timeout and connections per address (30 s and 200 by default). */
  httpLimits?: Partial<HttpLimits>;
  /** Whose X-Forwarded-For makes `request.ip` (off by default: the connection's address). */
  trustProxy?: TrustProxy;
  /** PEM certificate and key: the server answers HTTPS only, and sends HSTS. */
  tls?: { cert: string | Buffer; key: string | Buffer } | undefined;
  /** Notification channels (tests may wrap them); the real ones by default. */
  notifyChannels?: ChannelRegistry;
  /** First retry delay of a failed notice (ms). */
  notifyRetryDelayMs?: number;
  /** The data directory (the dashboard shows the disk it is on); the working directory by default. */
  dataDir?: string | undefined;
}

/**
 * The running server: the HTTP app and the engines, wired through one event bus. `start` starts the
 * engines (after the app listens); `app.close()` stops everything in order (docs/architecture.md).
 */
export interface Sitewatch {
  app: FastifyInstance;
  bus: EventBus;
  push: PushHub;
  alarms: AlarmEngine;
  collector: Collector | undefined;
  series: SeriesStore | undefined;
  start(): Promise<void>;
}

/** Removes the spec client's `t` (epoch seconds) from bodies and queries: accepted and ignored. */
const dropT = (value: unknown) => {
  if (value && typeof value === 'object' && !Array.isArray(value) && 't' in value) {
    delete (value as Record<string, unknown>).t;
  }
};

/** Whether every string in a parsed body or query is well-formed UTF-16 (no lone surrogate). */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (value: unknown, depth = 0): boolean => {
  if (typeof value === 'string') return !loneSurrogate.test(value);
  if (!value || typeof value !== 'object' || depth > 64) return true;
  if (Array.isArray(value)) return value.every((v) => wellFormed(v, depth + 1));
  return Object.entries(value).every(([k, v]) => !loneSurrogate.test(k) && wellFormed(v, depth + 1));
};

/** The HTTP app alone, for suites that need no engine of their own. */
export const buildApp = async (deps: AppDeps): Promise<FastifyInstance> => (await createSitewatch(deps)).app;

/**
 * The composition root: builds the event bus, the engines and the HTTP app with each area's
 * `register` from one list, and wires who publishes and who subscribes (docs/architecture.md, "The
 * spine"). main.ts only reads the configuration, listens, starts and stops; tests call it with
 * their own database and fakes.
 */
/**
 * A line per request at info filled 1.4 MB in 15 minutes with one browser: requests are logged at
 * debug (LOG_LEVEL=debug shows them); errors keep Fastify's own error lines.
 */
class QuietRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(error: Error | null, _request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
  override routeNotFound(request: FastifyRequest) {
    request.log.debug({ method: request.method, url: request.url }, 'route not found');
  }
}

export const createSitewatch = async (deps: AppDeps): Promise<Sitewatch> => {
  const secrets = deps.secrets ?? createSecretBox(randomBytes(32));
  const limits = { ...defaultHttpLimits, ...deps.httpLimits };
  const { serverOptions, ...timeouts } = httpTimeoutOptions(limits);
  // Fastify's types follow the plain HTTP server; the HTTPS one has the same surface here.
  const serverChoice = (
    deps.tls ? { https: { ...serverOptions, cert: deps.tls.cert, key: deps.tls.key } } : { http: serverOptions }
  ) as { http: typeof serverOptions };
  const app = Fastify({
    ...timeouts,
    ...serverChoice,
    // A hop count as the function Fastify's types take (its runtime takes the number too).
    trustProxy:
      typeof deps.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(deps.trustProxy)
        : (deps.trustProxy ?? false),
    logger: { level: deps.logLevel ?? 'info', ...(deps.logStream ? { stream: deps.logStream } : {}) },
    logController: new QuietRequestLog(),
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
  applyHttpLimits(app.server, limits);
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
    // A lone surrogate would be stored as invalid UTF-8: refused before anything reads the body.
    if (!wellFormed(request.body) || !wellFormed(request.query)) throw badRequest();
    dropT(request.body);
    dropT(request.query);
  });

  const clock = deps.clock ?? Date.now;
  const warn = (obj: object, msg: string) => app.log.warn(obj, msg);
  const bus = createEventBus({ warn });
  const push = deps.push ?? createPushHub();

  // ---------- collection: drivers → collector → bus → series store, device state log, alarm engine ----------
  const series =
    deps.series ??
    (deps.drivers
      ? createSeriesStore(deps.db, {
          onFlushError: (err) => warn({ err }, 'writing samples failed'),
          onDropped: ({ itemId, samples, err }) =>
            warn({ err, itemId, samples }, 'samples the database refused were dropped; the rest were stored'),
          log: { warn },
        })
      : undefined);
  const collector =
    deps.collector ??
    (deps.drivers
      ? createCollector({
          db: deps.db,
          secrets,
          bus,
          drivers: deps.drivers,
          thread: deps.collectorThread ?? 'worker',
          log: { warn, info: (obj, msg) => app.log.info(obj, msg) },
        })
      : undefined);
  if (series) {
    // One answer of a device at a time; NaN (no usable value) is not stored.
    bus.subscribe('samples', ({ ids, values, from, to, ts_ms }) => {
      for (let i = from; i < to; i++) {
        const v = values[i]!;
        if (!Number.isNaN(v)) series.append(ids[i]!, ts_ms, v);
      }
    });
  }
  // Device state changes are kept for the device pages' log (bounded per device).
  const deviceStates = deps.drivers ? createDeviceStateLog(deps.db, { log: { warn } }) : undefined;
  if (deviceStates) {
    bus.subscribe('device.state', (e) =>
      deviceStates.record(e.device_id, { state: e.state, reason: e.reason, time: e.since }),
    );
  }

  const config = createGlobalConfig(deps.db, deps.globalConfigDefaults, secrets);
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
  // Personal API tokens (swt_…) are accepted wherever a session token is, beside a suite's fake
  // authenticator too; the tokens area registers their routes.
  const authenticator: Authenticator = withApiTokens(
    deps.authenticator ?? {
      authenticate: (token, request) => auth.authenticate(token, request ? requestMeta(request) : undefined),
      liveSessions: (ids) => auth.liveSessions(ids),
    },
    apiTokenService({ db: deps.db, config, audit, clock }),
  );

  await registerSecurityHeaders(app, { hsts: Boolean(deps.tls) });
  await registerOpenApi(app);
  await app.register(rateLimit, { global: false });
  registerPipelineMetrics(registerMetrics(app, deps.metrics), { bus, series });
  registerAccess(app, access);
  registerAuthHook(app, authenticator);
  registerAuditTrail(app, audit);
  await registerPushChannel(app, push, authenticator);

  // Live values: the collector's, with the item states the alarm engine published.
  const live = collector;
  const alarmSettings = createAlarmSettings(deps.db, clock, secrets);
  const notifier = createNotifier({
    secrets,
    db: deps.db,
    settings: alarmSettings,
    channels: deps.notifyChannels ?? createChannels(() => config.get('OUTBOUND')),
    clock,
    ...(deps.notifyRetryDelayMs !== undefined ? { retryDelayMs: deps.notifyRetryDelayMs } : {}),
    log: app.log,
  });
  const alarms = createAlarmEngine({
    db: deps.db,
    bus,
    notifier,
    settings: alarmSettings,
    clock,
    log: app.log,
  });
  // Scoping in one place: alarm events and live values go to the users granted their site.
  const grants = createGrantCache({
    grantedSites: async (userId) => (await access.forUser(userId)).siteIds,
    bus,
    clock,
  });
  const stopAlarmPush = pushAlarms(bus, push, grants, clock, () => notifier.dutyRoster());

  // ---------- the areas (areas.ts), each given the kernel ----------
  const kernel: Kernel = {
    app,
    db: deps.db,
    bus,
    push,
    grants,
    clock,
    secrets,
    audit,
    access,
    config,
    auth,
    loginKey: deps.loginKey,
    alarmSettings,
    alarms,
    notifier,
    collector,
    live,
    series,
    dataDir: deps.dataDir ?? process.cwd(),
    loginRateLimit: deps.loginRateLimit ?? loginRateLimit,
  };
  for (const area of areas) await area.register(kernel);

  await registerWebApp(app, deps.webDir);

  // ---------- start and stop, in order ----------
  const pruneDeviceStates = () =>
    void deviceStates?.pruneOrphans().catch((err) => warn({ err }, 'device state log pruning failed'));
  const timers: NodeJS.Timeout[] = [];
  let stopMaintenance: (() => void) | undefined;
  let stopLiveFeed: (() => void) | undefined;
  // Closing the app (after in-flight requests) stops polling first, then writes what is buffered:
  // device states, alarms, queued notices, samples; the database is the caller's to close.
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
    for (const area of [...areas].reverse()) await area.stop?.();
    stopLiveFeed?.();
    stopAlarmPush();
    grants.stop();
    if (deps.drivers) await collector?.stop();
    await deviceStates?.flush();
    await alarms.stop();
    await notifier.stop();
    stopMaintenance?.();
    if (deps.drivers) await series?.stop();
    push.closeAll();
  });
  return {
    app,
    bus,
    push,
    alarms,
    collector,
    series,
    async start() {
      // Secrets still in clear (rows from before encryption at rest, an old backup) are sealed once.
      const sealed = await encryptStoredSecrets(deps.db, secrets);
      if (sealed > 0) app.log.info({ sealed }, 'stored secrets encrypted');
      if (deps.drivers && series) {
        series.start();
        stopMaintenance = startSeriesMaintenance(
          () => config.get('SERIES_RETENTION'),
          series,
          (err) => warn({ err }, 'series maintenance failed'),
        );
      }
      if (deviceStates) {
        pruneDeviceStates();
        const timer = setInterval(pruneDeviceStates, 3_600_000);
        timer.unref();
        timers.push(timer);
      }
      await alarms.start();
      if (live) {
        stopLiveFeed = startLiveFeed({
          bus,
          hub: push,
          live,
          grants,
          log: { warn },
        });
      }
      for (const area of areas) await area.start?.();
      if (deps.drivers) await collector?.start();
    },
  };
};
