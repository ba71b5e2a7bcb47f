import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSitewatch } from './app.ts';
import { createDrivers, demoCommFaultRate } from './collector/drivers/index.ts';
import { loadConfig } from './config.ts';
import { openDb } from './db/kysely.ts';
import { migrateToLatest } from './db/migrate.ts';
import { parseTrustProxy } from './http/limits.ts';
import { loadOrCreateLoginKey } from './modules/auth/index.ts';
import { builtInDefaults } from './modules/global-config/index.ts';
import { loadOrCreateSecretBox } from './secrets/index.ts';

// main.ts reads the configuration, opens the database, listens, starts and stops; app.ts builds
// and wires everything else (docs/architecture.md).
const config = loadConfig();
const defaultWebDir = path.resolve(fileURLToPath(import.meta.url), '../../../web/dist');
const webDir = config.webDir ?? (existsSync(defaultWebDir) ? defaultWebDir : undefined);

// The data dir keeps the login key also with PostgreSQL: owner only.
mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
chmodSync(config.dataDir, 0o700);
// A person at a terminal reads lines, a log collector parses JSON: never both in one stream.
const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
// Loaded only then: a service's JSON log does not carry its formatter (and colour tables) in memory.
const logStream = pretty
  ? (await import('pino-pretty')).default({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      sync: true,
    })
  : undefined;
// SITEWATCH_DEMO: 0 no demo estate, 1 (default) a healthy one, `faults` one with occasional faults.
const demo = process.env.SITEWATCH_DEMO ?? '1';
const demoFaults = demo === 'faults';
const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const applied = await migrateToLatest(db.kysely);
const sitewatch = await createSitewatch({
  db,
  drivers: createDrivers({ commFaultRate: demoFaults ? demoCommFaultRate : 0 }),
  collectorThread: config.collectorThread,
  loginKey: loadOrCreateLoginKey(config.dataDir),
  secrets: loadOrCreateSecretBox(config.dataDir),
  mode: config.mode,
  globalConfigDefaults:
    config.captcha === 'off'
      ? { ...builtInDefaults, LOGIN_SAFE: { ...builtInDefaults.LOGIN_SAFE, captcha_enabled: false } }
      : builtInDefaults,
  webDir,
  dataDir: config.dataDir,
  logLevel: config.logLevel,
  logStream,
  bodyLimitBytes: config.bodyLimitBytes,
  trustProxy: parseTrustProxy(config.trustProxy),
  tls:
    config.tlsCert && config.tlsKey
      ? { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) }
      : undefined,
  httpLimits: { requestTimeoutMs: config.requestTimeoutMs, maxConnectionsPerIp: config.maxConnectionsPerIp },
  metrics: {
    token: config.metricsToken,
    allow: (config.metricsAllow ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
  },
});
const { app } = sitewatch;
if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
// First-start work of the areas (the administrator, a captcha a test run left off, the demo estate),
// before the server answers.
const prepared = await sitewatch.prepare({ demo: demo !== '0', scenarios: demoFaults ? ['faults'] : [] });
for (const { msg, obj } of prepared.info ?? []) app.log.info(obj ?? {}, msg);
for (const warning of prepared.warnings ?? []) app.log.warn(warning);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  const force = setTimeout(() => {
    app.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, config.shutdownGraceMs);
  force.unref();
  try {
    // In-flight requests finish, then polling stops and the buffered samples, states and alarms are written.
    await app.close();
    await db.close();
    app.log.info('stopped');
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ host: config.host, port: config.port });
await sitewatch.start();
const url = `${config.tlsCert ? 'https' : 'http'}://localhost:${(app.server.address() as { port: number }).port}`;
const database = db.dialect === 'sqlite' ? path.join(config.dataDir, 'sitewatch.db') : 'PostgreSQL';
app.log.info({ url, database, mode: config.mode }, 'Sitewatch is running');
const testNotice =
  config.mode === 'production'
    ? null
    : `${config.mode} mode${config.captcha === 'off' ? ', login captcha off' : ''}: not for production use`;
if (testNotice) app.log.warn({ mode: config.mode, captcha: config.captcha }, testNotice);
// JSON logs travel to collectors: only the terminal banner shows the password itself.
if (pretty) {
  // One block, one address, after the start-up lines.
  const lines = [`Sitewatch is running at ${url}`];
  if (testNotice) lines.push(testNotice);
  lines.push(...(prepared.banner ?? []));
  process.stdout.write(`\n${lines.map((line) => `  ${line}`).join('\n')}\n\n`);
}
