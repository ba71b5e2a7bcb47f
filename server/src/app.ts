import { randomBytes, randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { Language } from '@sitewatch/contract';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AlarmEngine } from './alarms/engine.ts';
import type { AnyArea, DemoScenario, Kernel, PrepareReport, ServerConfig, Services } from './area.ts';
import { loadAreas } from './areas.ts';
import { busBridgeArea, createBusBridge } from './bus/bridge.ts';
import { createEventBus, type EventBus } from './bus/bus.ts';
import { createPending, realTimers, settledAll, type Timers, trackedTimers } from './clock/timers.ts';
import type { Collector } from './collector/collector.ts';
import type { DriverRegistry } from './collector/driver.ts';
import { type MadeArea, makeAreas } from './compose.ts';
import type { Db } from './db/kysely.ts';
import { engines } from './engines.ts';
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
import { databaseRateStore, rateLimitsArea } from './http/rate-store.ts';
import { type RouteRequirement, requirementOf } from './http/route.ts';
import { registerSecurityHeaders } from './http/security.ts';
import { createTlsListener, type TlsSource } from './http/tls.ts';
import { registerWebApp } from './http/web.ts';
import { ensureDeclaredMenus } from './modules/access/menus.ts';
import { type LoginKey, requestMeta } from './modules/auth/index.ts';
import type { GlobalConfigDefaults } from './modules/global-config/index.ts';
import { withApiTokens } from './modules/tokens/index.ts';
import type { ChannelRegistry } from './notify/channels/index.ts';
import { createPushHub, type PushHub } from './push/hub.ts';
import { registerPushChannel } from './push/routes.ts';
import { encryptStoredSecrets } from './secrets/at-rest.ts';
import { createSecretBox, type SecretBox } from './secrets/index.ts';
import type { SeriesStore } from './series/store.ts';

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
  /** The licence's public key and trial length (tests hand in a key pair of their own). */
  licence?: ServerConfig['licence'];
  /** Logins a minute per address on each login route. */
  loginRateLimit?: { max: number; timeWindow: number };
  /** `production` (main.ts by default), or `test`/`development`: what the first-start preparation does. */
  mode?: ServerConfig['mode'];
  /** Epoch ms: what every part reads as now (`Date.now` by default). */
  clock?: () => number;
  /**
   * Every timer of the server (the real ones by default); tests hand in a manual clock's, with its
   * `now` as `clock` (docs/testing.md, "The test clock"). A collector given them polls on the main thread.
   */
  timers?: Timers;
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
  /** Areas made beside the declared ones (a test's throw-away area); none by default. */
  extraAreas?: readonly AnyArea[];
  /**
   * PostgreSQL: whether the domain events also cross to the other processes on the database
   * (bus/bridge.ts, docs/scale.md); on by default. SQLite has one process: never.
   */
  busBridge?: boolean;
}

/** A route the app answers: what it requires and the area that registered it ('root' for the app's own). */
export interface RouteRecord {
  method: string;
  url: string;
  requirement: RouteRequirement;
  area: string;
}

/**
 * The running server: the HTTP app and the engines, wired through one event bus. `start` starts the
 * engines and areas (after the app listens); `app.close()` stops everything in order
 * (docs/architecture.md).
 */
export interface Sitewatch {
  app: FastifyInstance;
  bus: EventBus;
  push: PushHub;
  alarms: AlarmEngine;
  collector: Collector | undefined;
  series: SeriesStore | undefined;
  /** What the engines and areas provide, by name (tests reach an area's engine here). */
  services: Services;
  /** Every area and engine, in the order they were made. */
  areas: readonly AnyArea[];
  /** Every route of the app, with its requirement and area: the authorization matrices read it. */
  routes: readonly RouteRecord[];
  /**
   * First-start work on this database, before the app listens (main.ts): the administrator, the
   * captcha a test run left off, and with `demo` the demo estate on an empty database.
   */
  prepare(options: { demo: boolean; language?: Language; scenarios?: readonly DemoScenario[] }): Promise<PrepareReport>;
  start(): Promise<void>;
  /**
   * Resolves when nothing is left to happen without time passing: the bus handlers' work, what
   * timers started, and every engine's and area's own work (alarm flush and reload, the notifier's
   * queue, live rounds, the series writer, the device state log) have drained (docs/testing.md).
   * `between`: between two timers of the test clock, samples buffered for the series store's next
   * flush wait for its timer (as they do in production) instead of being flushed at once.
   */
  settled(between?: boolean): Promise<void>;
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

/** Merges first-start reports. */
const mergeReports = (a: PrepareReport, b: PrepareReport | undefined): PrepareReport => ({
  banner: [...(a.banner ?? []), ...(b?.banner ?? [])],
  info: [...(a.info ?? []), ...(b?.info ?? [])],
  warnings: [...(a.warnings ?? []), ...(b?.warnings ?? [])],
});

/**
 * The composition root: builds the HTTP app, the bus and the kernel, then makes the engines and
 * every declared area (areas.ts) in the order their needs give, registers their routes, and starts
 * and stops them (docs/architecture.md, "The spine" and "Areas"). main.ts only reads the
 * configuration, listens, starts and stops; tests call it with their own database and fakes.
 */
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
  // Every route is recorded with its requirement and the area registering it.
  const routes: RouteRecord[] = [];
  let registering = 'root';
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' && route.url.startsWith('/api/')) continue;
      routes.push({ method, url: route.url, requirement: requirementOf(route.config), area: registering });
    }
  });

  // What a timer's run starts counts as work in flight until it settles (settled()).
  const timerWork = createPending();
  const timers = trackedTimers(deps.timers ?? realTimers, timerWork);
  const localBus = createEventBus({ warn: (obj, msg) => app.log.warn(obj, msg) });
  // On PostgreSQL the domain events also cross to the other processes on the database; local
  // delivery stays synchronous as it is, and samples never leave the process (bus/bridge.ts).
  const postgres = deps.db.dialect === 'postgres';
  const bridge =
    postgres && deps.busBridge !== false
      ? createBusBridge({ db: deps.db, bus: localBus, timers, log: app.log })
      : undefined;
  const kernel: Kernel = {
    db: deps.db,
    bus: bridge?.bus ?? localBus,
    clock: deps.clock ?? Date.now,
    timers,
    log: app.log,
    config: {
      dataDir: deps.dataDir ?? process.cwd(),
      mode: deps.mode ?? 'production',
      loginRateLimit: deps.loginRateLimit ?? { max: 60, timeWindow: 60_000 },
      globalConfigDefaults: deps.globalConfigDefaults,
      licence: deps.licence,
    },
  };
  const push = deps.push ?? createPushHub();

  // ---------- the engines and the areas, made in the order of their needs ----------
  // The bridge first: it is started before and stopped after every part that publishes.
  const declared = [
    ...(postgres ? [busBridgeArea(bridge), rateLimitsArea()] : []),
    ...engines(deps),
    ...(await loadAreas()),
    ...(deps.extraAreas ?? []),
  ];
  // Filled once the areas are made: a restore asks every made area to re-read (its `reload`).
  let madeAreas: MadeArea[] = [];
  const declarations = {
    all: () => declared,
    reload: async () => {
      for (const { parts } of madeAreas) await parts.reload?.();
    },
  };
  const { services, made } = await makeAreas(declared, kernel, {
    secrets,
    push,
    loginKey: deps.loginKey,
    declarations,
  });
  madeAreas = made;
  const { access, auth, apiTokens, collector, series, alarms } = services;
  // An area that provides `tls` (the https area) makes a second, HTTPS listener beside the app's own,
  // whose certificate changes without a restart (http/tls.ts, docs/https.md).
  const tlsSource = (services as { tls?: TlsSource }).tls;
  const tlsListener = tlsSource && !deps.tls ? createTlsListener(app, tlsSource, limits) : undefined;
  // Pages the areas declare that the database lacks (a new area's) are added with their functions.
  await ensureDeclaredMenus(
    deps.db,
    made.flatMap((m) => m.area.menus ?? []),
  );

  // ---------- the HTTP layer ----------
  // Personal API tokens (swt_…) are accepted wherever a session token is, beside a suite's fake
  // authenticator too.
  const authenticator: Authenticator = withApiTokens(
    deps.authenticator ?? {
      authenticate: (token, request) => auth.authenticate(token, request ? requestMeta(request) : undefined),
      liveSessions: (ids) => auth.liveSessions(ids),
    },
    apiTokens,
  );
  await registerSecurityHeaders(app, { hsts: Boolean(deps.tls) });
  await registerOpenApi(app);
  // On PostgreSQL the counts are in the database, one for every server on it (http/rate-store.ts); a
  // count that cannot be written lets the request through (the login's own budget still holds).
  await app.register(rateLimit, {
    global: false,
    ...(postgres ? { store: databaseRateStore(deps.db), skipOnError: true } : {}),
  });
  registerPipelineMetrics(registerMetrics(app, deps.metrics), { bus: kernel.bus, series, bridge });
  app.decorate('access', access);
  registerAuthHook(app, authenticator);
  await registerPushChannel(app, push, authenticator, { timers: kernel.timers, clock: kernel.clock });
  // Each area's routes load as a plugin of the root context (its hooks reach every route, as before),
  // awaited so that routes it registers in nested plugins are recorded as its own.
  for (const { area, parts } of made) {
    await app.register(
      fastifyPlugin(async (instance) => {
        registering = area.name;
        await parts.routes?.(instance);
      }),
    );
  }
  registering = 'root';
  await registerWebApp(app, deps.webDir);

  // ---------- start and stop, in order ----------
  // Closing the app (after in-flight requests) stops polling first, then every area and engine in
  // the reverse order of their making: the buffered device states, alarms, queued notices and
  // samples are written; the database is the caller's to close.
  const collecting = Boolean(deps.drivers && collector);
  app.addHook('onClose', async () => {
    if (collecting) await collector?.stop();
    for (const { parts } of [...made].reverse()) await parts.stop?.();
    push.closeAll();
  });
  return {
    app,
    bus: kernel.bus,
    push,
    alarms,
    collector,
    series,
    services,
    areas: made.map((m) => m.area),
    routes,
    async prepare({ demo, language = 'zh_cn', scenarios = [] }) {
      let report: PrepareReport = {};
      for (const { parts } of made) report = mergeReports(report, await parts.prepare?.());
      if (demo && (await isEmpty(deps.db, made))) {
        for (const area of seedOrder(made.map((m) => m.area))) {
          const seeded = await area.seed?.(kernel, language, scenarios);
          if (seeded) report = mergeReports(report, { info: [{ msg: `${area.name}: demo data made`, obj: seeded }] });
        }
      }
      return report;
    },
    settled: (between = false) =>
      settledAll(
        [kernel.bus, timerWork, ...made.map((m) => m.parts)].flatMap((p) =>
          p.settled ? [() => p.settled!(between)] : [],
        ),
      ),
    async start() {
      // Secrets still in clear (rows from before encryption at rest, an old backup) are sealed once.
      const sealed = await encryptStoredSecrets(
        deps.db,
        secrets,
        made.map((m) => m.area),
      );
      if (sealed > 0) app.log.info({ sealed }, 'stored secrets encrypted');
      for (const { area, parts } of made) {
        if (!parts.start) continue;
        // Wall time, not the kernel's: a start that hangs is told in the log, whatever the clock.
        const slow = setTimeout(() => app.log.warn({ area: area.name }, 'area still starting after 10 s'), 10_000);
        slow.unref();
        try {
          await parts.start();
        } finally {
          clearTimeout(slow);
        }
      }
      await tlsListener?.start();
      // Polling starts last: every consumer of samples is running.
      if (collecting) await collector?.start();
    },
  };
};

/** The areas in the order their demo shares stand on each other (`seedAfter`), else as made. */
const seedOrder = (areas: readonly AnyArea[]): AnyArea[] => {
  const ordered: AnyArea[] = [];
  const visit = (area: AnyArea, path: string[]) => {
    if (ordered.includes(area) || path.includes(area.name)) return;
    for (const name of area.seedAfter ?? []) {
      const before = areas.find((a) => a.name === name);
      if (before) visit(before, [...path, area.name]);
    }
    ordered.push(area);
  };
  for (const area of areas) visit(area, []);
  return ordered;
};

/** A database without a row of site data (a demo estate may be made on it). */
const isEmpty = async (db: Db, made: readonly MadeArea[]) => {
  for (const { area } of made) {
    for (const [table, declaration] of Object.entries(area.tables ?? {})) {
      if (!declaration || declaration.sites === 'global') continue;
      const row = await db.kysely
        .selectFrom(table as 'devices')
        .select((eb) => eb.lit(1).as('one'))
        .limit(1)
        .executeTakeFirst();
      if (row) return false;
    }
  }
  return true;
};
