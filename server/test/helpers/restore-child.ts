/**
 * A server process that restores one package (maintenance-kill.int.test.ts kills it with SIGKILL
 * at some moment of the restore). It writes `ready` once built, and waits for a line on stdin, the
 * package file, before it restores (the test starts the next rounds' children while a round runs);
 * it writes `restoring` when it starts, then the restore's own log lines (info, one JSON line each)
 * as the restore logs its steps, and `done`. Arguments: data dir,
 * database URL or '', and a step to stop at ('' for none): `restoring` or a text of
 * `restoreSteps`. At that step the process stops dead (the line written first), so the kill lands
 * exactly there, however loaded the machine.
 */
import { writeSync } from 'node:fs';
import { createSitewatch } from '../../src/app.ts';
import { openDb } from '../../src/db/kysely.ts';
import { loadOrCreateLoginKey } from '../../src/modules/auth/index.ts';
import { loadOrCreateSecretBox } from '../../src/secrets/index.ts';

const [dataDir, url, stopAt = ''] = process.argv.slice(2) as [string, string, string?];
/** Written at once (a pipe's stdout is asynchronous in Node); at `stopAt` the thread blocks for good. */
const say = (line: string) => {
  writeSync(1, line.endsWith('\n') ? line : `${line}\n`);
  if (stopAt && line.includes(stopAt)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};
const db = openDb({ dataDir, databaseUrl: url || undefined });
const sitewatch = await createSitewatch({
  db,
  dataDir,
  // The install's key, as a server's start reads it (made by the test's own server first).
  loginKey: loadOrCreateLoginKey(dataDir),
  secrets: loadOrCreateSecretBox(dataDir),
  logLevel: 'info',
  logStream: { write: say },
});
say('ready');
// The test gone before it sent the package (a failed test, its worker ended): nothing to wait for.
process.stdin.once('end', () => process.exit(1));
const file = await new Promise<string>((resolve) => process.stdin.once('data', (d) => resolve(String(d).trim())));
process.stdin.pause();
say('restoring');
await sitewatch.services.maintenance.restore(file);
say('done');
await sitewatch.app.close();
await db.close();
