/**
 * A server process that restores one package and says when it starts (maintenance-kill.int.test.ts
 * kills it with SIGKILL at some moment of the restore). Arguments: data dir, database URL or '',
 * package file.
 */
import { createSitewatch } from '../../src/app.ts';
import { openDb } from '../../src/db/kysely.ts';
import { createLoginKey, generateLoginKeyPem } from '../../src/modules/auth/index.ts';
import { loadOrCreateSecretBox } from '../../src/secrets/index.ts';

const [dataDir, url, file] = process.argv.slice(2) as [string, string, string];
const db = openDb({ dataDir, databaseUrl: url || undefined });
const sitewatch = await createSitewatch({
  db,
  dataDir,
  loginKey: createLoginKey(generateLoginKeyPem()),
  secrets: loadOrCreateSecretBox(dataDir),
  logLevel: 'silent',
});
process.stdout.write('restoring\n');
await sitewatch.services.maintenance.restore(file);
process.stdout.write('done\n');
await sitewatch.app.close();
await db.close();
