import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DebugLogState, Sm4State, SysInformation } from '@sitewatch/contract/system';
import { sql } from 'kysely';
import { z } from 'zod';
import serverPackage from '../../../package.json' with { type: 'json' };
import type { Services } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../http/errors.ts';
import type { SecretBox } from '../../secrets/index.ts';
import { findLogSource, type LogSource, redactLog, sm4Encrypt, tailOfFile, tailOfJournal } from './debug-log.ts';

/** The stored SM4 settings (module_settings `sm4`; the key sealed at rest by the secret box). */
export const sm4Settings = z.object({
  enabled: z.boolean().default(false),
  key: z.string().default(''),
  updated_at: z.number().int().default(0),
});
export type Sm4Settings = z.infer<typeof sm4Settings>;
export const sm4SecretFields = ['key'] as const;

export interface SystemServiceDeps {
  db: Db;
  dataDir: string;
  estate: Services['estateCounts'];
  licence: Pick<Services['licence'], 'info'>;
  secrets?: SecretBox | undefined;
  clock: () => number;
  /** Where the server's log is read from (tests hand in their own). */
  logSource?: () => Promise<LogSource>;
}

/** Size of the database: SQLite's file with its journal, PostgreSQL's pg_database_size. */
const databaseSize = async (db: Db, dataDir: string): Promise<number | null> => {
  try {
    if (db.dialect === 'postgres') {
      const { rows } = await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(db.kysely);
      return Number(rows[0]?.n ?? 0);
    }
    const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
      db.kysely,
    );
    const file = rows[0]?.file || path.join(dataDir, 'sitewatch.db');
    let total = 0;
    for (const f of [file, `${file}-wal`, `${file}-shm`])
      total += await stat(f).then(
        (s) => s.size,
        () => 0,
      );
    return total;
  } catch {
    return null;
  }
};

export const createSystemService = (deps: SystemServiceDeps) => {
  const store = createSettingsStore<{ sm4: Sm4Settings }>({
    db: deps.db,
    table: 'module_settings',
    schemas: { sm4: sm4Settings },
    defaults: { sm4: sm4Settings.parse({}) },
    secretFields: { sm4: [...sm4SecretFields] },
    secrets: deps.secrets,
    clock: deps.clock,
  });
  const logSource = deps.logSource ?? (() => findLogSource());
  const startedAt = Math.floor((Date.now() - process.uptime() * 1000) / 1000);

  const sm4View = (s: Sm4Settings): Sm4State => ({
    enabled: s.enabled && s.key !== '',
    key_set: s.key !== '',
    fingerprint: s.key ? createHash('sha256').update(Buffer.from(s.key, 'hex')).digest('hex').slice(0, 8) : '',
    updated_at: s.updated_at,
  });

  return {
    /** After a restore (the area's `reload`): the restored SM4 settings. */
    reload: () => store.reload(),
    async information(): Promise<SysInformation> {
      return {
        version: serverPackage.version,
        node_version: process.versions.node,
        started_at: startedAt,
        server_uptime: Math.max(0, Math.floor(process.uptime())),
        database: { kind: deps.db.dialect, size_bytes: await databaseSize(deps.db, deps.dataDir) },
        counts: await deps.estate.counts(),
        licence: { state: (await deps.licence.info()).status },
      };
    },

    async sm4(): Promise<Sm4State> {
      return sm4View(await store.get('sm4'));
    },

    /** Stores the SM4 settings; a key '' or absent keeps the stored key. */
    async saveSm4(input: { enabled: boolean; key?: string | undefined }): Promise<Sm4State> {
      const current = await store.get('sm4');
      const key = input.key ? input.key.toLowerCase() : current.key;
      if (input.enabled && !key) throw new AppError('badRequest', 'system.validation.sm4KeyRequired');
      const next = { enabled: input.enabled, key, updated_at: Math.floor(deps.clock() / 1000) };
      await store.set('sm4', next);
      return sm4View(next);
    },

    async debugLogState(): Promise<DebugLogState> {
      const source = await logSource();
      const sm4 = await store.get('sm4');
      const encrypted = sm4.enabled && sm4.key !== '';
      if (source.kind === 'none') return { available: false, reason: 'noLogSource', source: '', encrypted };
      return { available: true, reason: '', source: source.kind, encrypted };
    },

    /** The last `mb` megabytes of the log, redacted; SM4-encrypted when the key is enabled. */
    async debugLog(mb: number): Promise<{ body: Buffer; encrypted: boolean; bytes: number }> {
      const source = await logSource();
      if (source.kind === 'none') throw new AppError('conflict', 'system.reason.noLogSource');
      const bytes = mb * 1024 * 1024;
      const raw =
        source.kind === 'file' ? await tailOfFile(source.file, bytes) : await tailOfJournal(source.journalctl, bytes);
      const body = Buffer.from(redactLog(raw), 'utf8');
      const sm4 = await store.get('sm4');
      if (sm4.enabled && sm4.key) return { body: sm4Encrypt(body, sm4.key), encrypted: true, bytes: body.length };
      return { body, encrypted: false, bytes: body.length };
    },
  };
};
export type SystemService = ReturnType<typeof createSystemService>;
