import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSitewatch } from './app.ts';
import { createDrivers } from './collector/drivers/index.ts';
import { loadConfig } from './config.ts';
import { openDb } from './db/kysely.ts';
import { migrateToLatest } from './db/migrate.ts';
import { parseTrustProxy } from './http/limits.ts';
import { createAuthRepository, ensureAdmin, loadOrCreateLoginKey } from './modules/auth/index.ts';
import { builtInDefaults, restoreCaptchaAfterTestMode } from './modules/global-config/index.ts';
import { seedDemo } from './modules/monitoring/demo.ts';
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
const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const applied = await migrateToLatest(db.kysely);
const adminPassword = await ensureAdmin(createAuthRepository(db));
// A database a test run used does not keep that run's captcha off in production.
const captchaRestored = await restoreCaptchaAfterTestMode(db, config.mode);
// A demo estate on an empty database, so a newcomer sees live values at once; SITEWATCH_DEMO=0 skips it.
const demo = process.env.SITEWATCH_DEMO === '0' ? null : await seedDemo(db);
const sitewatch = await createSitewatch({
  db,
  drivers: createDrivers(),
  collectorThread: config.collectorThread,
  loginKey: loadOrCreateLoginKey(config.dataDir),
  secrets: loadOrCreateSecretBox(config.dataDir),
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
// The initial administrator password is worthless once changed, but a copy of it on disk invites
// reuse: the file goes with the first successful change of user 1's password (and at any start after).
const initialPasswordFile = path.join(config.dataDir, 'initial-admin-password.txt');
const dropInitialPasswordFile = async () => {
  if (!existsSync(initialPasswordFile)) return;
  const admin = await db.kysely
    .selectFrom('users')
    .select('must_change_password')
    .where('id', '=', 1)
    .executeTakeFirst();
  if (admin && !admin.must_change_password) rmSync(initialPasswordFile, { force: true });
};
app.addHook('onResponse', async (request, reply) => {
  if (request.method === 'PUT' && reply.statusCode < 300 && /\/user\/password/.test(request.url))
    await dropInitialPasswordFile().catch((err) => app.log.warn({ err }, 'could not remove the initial password file'));
});
await dropInitialPasswordFile();
// Written before the server answers, so whoever sees it ready (a script, the journeys' setup) finds
// the file; kept only its owner can read, and it must be changed at first login.
if (adminPassword) writeFileSync(initialPasswordFile, `${adminPassword}\n`, { mode: 0o600 });
if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
if (demo) app.log.info(demo, 'demo estate created (SITEWATCH_DEMO=0 skips it)');
if (captchaRestored) app.log.warn('the login captcha a test run had switched off is on again');

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
if (adminPassword)
  app.log.info({ file: initialPasswordFile }, 'first start: the initial password of admin is in the file');
if (pretty) {
  // One block, one address, after the start-up lines.
  const lines = [`Sitewatch is running at ${url}`];
  if (testNotice) lines.push(testNotice);
  if (adminPassword)
    lines.push(
      `First start: sign in as admin with password ${adminPassword}`,
      `(also in ${initialPasswordFile}; you will be asked to change it)`,
    );
  process.stdout.write(`\n${lines.map((line) => `  ${line}`).join('\n')}\n\n`);
}
