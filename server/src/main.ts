import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDb } from './db/kysely.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createAuthRepository, ensureAdmin, loadOrCreateLoginKey } from './modules/auth/index.ts';
import { builtInDefaults } from './modules/global-config/index.ts';
import { createPushHub } from './push/hub.ts';

const config = loadConfig();
const defaultWebDir = path.resolve(fileURLToPath(import.meta.url), '../../../web/dist');
const webDir = config.webDir ?? (existsSync(defaultWebDir) ? defaultWebDir : undefined);

const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const applied = await migrateToLatest(db.kysely);
const adminPassword = await ensureAdmin(createAuthRepository(db));
const push = createPushHub();
const app = await buildApp({
  db,
  push,
  loginKey: loadOrCreateLoginKey(config.dataDir),
  globalConfigDefaults:
    config.captcha === 'off'
      ? { ...builtInDefaults, LOGIN_SAFE: { ...builtInDefaults.LOGIN_SAFE, captcha_enabled: false } }
      : builtInDefaults,
  webDir,
  logLevel: config.logLevel,
  bodyLimitBytes: config.bodyLimitBytes,
});
if (applied.length) app.log.info({ migrations: applied }, 'database migrated');

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
