import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { createCollector } from './collector/collector.ts';
import { createDrivers } from './collector/drivers/index.ts';
import { loadConfig } from './config.ts';
import { openDb } from './db/kysely.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createAuthRepository, ensureAdmin, loadOrCreateLoginKey } from './modules/auth/index.ts';
import { createDeviceStateLog } from './modules/device-view/index.ts';
import { builtInDefaults } from './modules/global-config/index.ts';
import { seedDemo } from './modules/monitoring/demo.ts';
import { createPushHub } from './push/hub.ts';
import { startSeriesMaintenance } from './series/maintenance.ts';
import { createSeriesStore } from './series/store.ts';

const config = loadConfig();
const defaultWebDir = path.resolve(fileURLToPath(import.meta.url), '../../../web/dist');
const webDir = config.webDir ?? (existsSync(defaultWebDir) ? defaultWebDir : undefined);

const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const applied = await migrateToLatest(db.kysely);
const adminPassword = await ensureAdmin(createAuthRepository(db));
const push = createPushHub();
// A demo estate on an empty database, so a newcomer sees live values at once; SITEWATCH_DEMO=0 skips it.
const demo = process.env.SITEWATCH_DEMO === '0' ? null : await seedDemo(db);
// The engines log through the app's logger once it exists (their callbacks run after start-up).
const series = createSeriesStore(db, { onFlushError: (err) => app.log.warn({ err }, 'writing samples failed') });
const stopMaintenance = startSeriesMaintenance(db, series, (err) => app.log.warn({ err }, 'series maintenance failed'));
// Device state changes are kept for the device pages' log (bounded per device).
const deviceStates = createDeviceStateLog(db, {
  log: { warn: (obj, msg) => app.log.warn(obj, msg) },
});
const pruneDeviceStates = () => {
  deviceStates.pruneOrphans().catch((err) => app.log.warn({ err }, 'device state log pruning failed'));
};
setInterval(pruneDeviceStates, 3_600_000).unref();
const collector = createCollector({
  db,
  store: series,
  drivers: createDrivers(),
  log: { warn: (obj, msg) => app.log.warn(obj, msg), info: (obj, msg) => app.log.info(obj, msg) },
  // Every sample and device state goes to the alarm engine as it arrives.
  onSample: (itemId, value, tsMs) => app.alarms.onSample(itemId, value, tsMs),
  onDeviceState: (deviceId, state) => {
    app.alarms.onDeviceState(deviceId, state.state);
    deviceStates.record(deviceId, state);
  },
});
const app = await buildApp({
  db,
  push,
  collector,
  series,
  loginKey: loadOrCreateLoginKey(config.dataDir),
  globalConfigDefaults:
    config.captcha === 'off'
      ? { ...builtInDefaults, LOGIN_SAFE: { ...builtInDefaults.LOGIN_SAFE, captcha_enabled: false } }
      : builtInDefaults,
  webDir,
  dataDir: config.dataDir,
  logLevel: config.logLevel,
  bodyLimitBytes: config.bodyLimitBytes,
});
if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
if (demo) app.log.info(demo, 'demo estate created (SITEWATCH_DEMO=0 skips it)');

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
    await app.close();
    // Stop polling, then write the buffered samples and live values before the database closes.
    await collector.stop();
    await deviceStates.flush();
    await app.alarms.stop();
    stopMaintenance();
    await series.stop();
    push.closeAll();
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
series.start();
pruneDeviceStates();
await app.alarms.start();
await collector.start();
const url = `http://localhost:${(app.server.address() as { port: number }).port}`;
const where = db.dialect === 'sqlite' ? path.join(config.dataDir, 'sitewatch.db') : 'PostgreSQL';
process.stdout.write(`\nSitewatch is running: ${url}\nDatabase: ${where}\nAPI docs: ${url}/api/docs\n`);
if (adminPassword) {
  // Printed once and kept in a file only its owner can read; it must be changed at first login.
  const file = path.join(config.dataDir, 'initial-admin-password.txt');
  writeFileSync(file, `${adminPassword}\n`, { mode: 0o600 });
  process.stdout.write(
    `\nFirst start: log in as admin with password ${adminPassword}\n(also in ${file}; you will be asked to change it)\n`,
  );
} else {
  process.stdout.write('Log in with your account; the first administrator is "admin".\n');
}
process.stdout.write('\n');
