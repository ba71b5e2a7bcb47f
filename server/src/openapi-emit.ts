// Writes the OpenAPI document of the whole API to openapi/openapi.json, so API changes show up
// in review as a diff (a test fails when the committed file is out of date).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { openDb } from './db/kysely.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createLoginKey, generateLoginKeyPem } from './modules/auth/index.ts';
import { createPushHub } from './push/hub.ts';

export const openApiFile = path.resolve(fileURLToPath(import.meta.url), '../../../openapi/openapi.json');

/** The generated document, as text with a stable layout (paths in order). */
export const generateOpenApi = async (): Promise<string> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-openapi-'));
  const db = openDb({ dataDir });
  // The app starts on a migrated database (the areas' menus are checked against it).
  await migrateToLatest(db.kysely);
  const app = await buildApp({
    db,
    push: createPushHub(),
    loginKey: createLoginKey(generateLoginKeyPem()),
    logLevel: 'silent',
  });
  await app.ready();
  // Paths sorted: the areas register in the order of their needs, and a new area must not reorder the file.
  const doc = app.swagger() as { paths?: Record<string, unknown> };
  const paths = Object.fromEntries(Object.entries(doc.paths ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  const text = `${JSON.stringify({ ...doc, paths }, null, 2)}\n`;
  await app.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
  return text;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(openApiFile, await generateOpenApi());
  console.log(`wrote ${openApiFile}`);
}
