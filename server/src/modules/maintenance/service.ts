import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ConfigArea } from '@sitewatch/contract/events';
import {
  type AutoBackupSettings,
  autoBackupSettings,
  autoBackupsKept,
  type BackupPackage,
  backupFileName,
  type LatestBackup,
  latestBackup,
} from '@sitewatch/contract/maintenance';
import type { DeclarationCatalogue, Kernel } from '../../area.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import { notFound } from '../../http/errors.ts';
import type { SecretBox } from '../../secrets/index.ts';
import { checkPart, migrationOf, restoreRows } from './database.ts';
import type { FtpSync } from './ftp.ts';
import { buildPackage, contentsOf, databasePart, openPackage, type PackageKind } from './package.ts';

export interface MaintenanceDeps {
  kernel: Kernel;
  declarations: DeclarationCatalogue;
  secrets: SecretBox;
  /** FTP sync: an automatic backup is copied when it is enabled. */
  ftp?: Pick<FtpSync, 'enabled' | 'sync'>;
}

const stamp = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
};

/** The module_settings key of a restore whose rows are committed and whose files are not yet swapped. */
const pendingKey = 'backup_restore_pending';

/**
 * What a restore logs as it goes (info): the package checked, the rows committed (the marker with
 * them), the upload folders swapped. An operator reads how far a restore came; the kill test
 * (maintenance-kill.int.test.ts) kills its child server at these steps.
 */
export const restoreSteps = {
  checked: 'backup restore: package checked, rows to replace',
  committed: 'backup restore: rows committed, upload folders to swap',
  swapped: 'backup restore: upload folders swapped',
} as const;

/** Backup packages, their restore and the automatic schedule (docs/maintenance.md). */
export const createMaintenanceService = ({ kernel, declarations, secrets, ftp }: MaintenanceDeps) => {
  const { db, config } = kernel;
  const folder = path.join(config.dataDir, 'backups');
  const staging = path.join(config.dataDir, '.restore');
  const store = () =>
    createSettingsStore({
      db,
      table: 'module_settings',
      schemas: { backup_auto: autoBackupSettings, backup_latest: latestBackup },
      defaults: { backup_auto: autoBackupSettings.parse({}), backup_latest: { file: '', read: true, time: 0, ftp: 0 } },
      clock: kernel.clock,
    });
  const settings = store();
  // One backup or restore at a time: a second waits for the first.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  /** The time in the name (the clock's, local) and its order among packages of the same second. */
  const made = (filename: string) => {
    const m = /_(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:_(\d+))?\.tar$/.exec(filename);
    if (!m) return { time: 0, n: 0 };
    const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    return { time: Math.floor(new Date(y, mo - 1, d, h, mi, se).getTime() / 1000), n: Number(m[7] ?? 1) };
  };
  const describe = (filename: string): BackupPackage => {
    const stat = statSync(path.join(folder, filename));
    return {
      filename,
      size: stat.size,
      time: made(filename).time,
      kind: filename.includes('history_') ? 'history' : 'config',
      auto: filename.startsWith('auto_'),
    };
  };
  const list = (kind?: PackageKind): BackupPackage[] =>
    (existsSync(folder) ? readdirSync(folder) : [])
      .filter((f) => backupFileName.safeParse(f).success)
      .map(describe)
      .filter((p) => !kind || p.kind === kind)
      .sort((a, b) => b.time - a.time || made(b.filename).n - made(a.filename).n);

  const fileOf = (filename: string) => {
    if (!backupFileName.safeParse(filename).success) throw notFound();
    const file = path.join(folder, filename);
    if (!existsSync(file)) throw notFound();
    return file;
  };

  /** A unique name of a package made now (`prefix` auto_ or upload_). */
  const nameFor = (kind: PackageKind, prefix: string, now: number) => {
    const base = `${prefix}${kind === 'config' ? 'backup' : 'history'}_${stamp(now)}`;
    let filename = `${base}.tar`;
    for (let n = 2; existsSync(path.join(folder, filename)); n++) filename = `${base}_${n}.tar`;
    return filename;
  };

  const create = (kind: PackageKind, auto = false) =>
    serial(async () => {
      const now = kernel.clock();
      const filename = nameFor(kind, auto ? 'auto_' : '', now);
      await buildPackage({
        db,
        areas: declarations.all(),
        kind,
        dataDir: config.dataDir,
        file: path.join(folder, filename),
        nowMs: now,
        seal: secrets.encrypt,
      });
      if (auto) {
        const autos = list(kind).filter((p) => p.auto);
        for (const old of autos.slice(autoBackupsKept)) rmSync(path.join(folder, old.filename), { force: true });
      }
      // 000 §3 latest backup `ftp`: 0 not copied, 1 copied, 2 the copy failed (docs/maintenance.md).
      let copied = 0;
      if (auto && ftp && (await ftp.enabled())) copied = (await ftp.sync(path.join(folder, filename))).ok ? 1 : 2;
      await settings.set('backup_latest', { file: filename, read: false, time: Math.floor(now / 1000), ftp: copied });
      return describe(filename);
    });

  /**
   * Restores a package: checked whole first (manifest, checksums, format, database kind, schema,
   * secret key, the database part itself), then the rows replaced in one transaction, then the
   * upload folders swapped; every declared topic announced so the engines re-read their state.
   */
  const expectation = async () => ({
    database: db.dialect,
    migration: await migrationOf(db),
    open: secrets.decrypt,
  });

  const restore = (file: string) =>
    serial(async () => {
      rmSync(staging, { recursive: true, force: true });
      mkdirSync(staging, { recursive: true, mode: 0o700 });
      try {
        // Every part checked against the sealed manifest while it is staged, before anything is used.
        const manifest = await openPackage(file, await expectation(), staging);
        const here = contentsOf(declarations.all(), manifest.kind);
        const dbFile = path.join(staging, databasePart(manifest.database));
        // Tables this server declares and the package holds: an area added since is left as it is.
        const tables = here.tables.filter((t) => manifest.tables.includes(t));
        await checkPart(db, dbFile, tables, manifest.migration);
        const packageName = path.basename(file);
        kernel.log.info({ file: packageName }, restoreSteps.checked);
        // Files of folders this server declares; a staged folder (an empty one too) is one still to swap.
        const folders = manifest.uploads.filter((u) => here.uploads.includes(u));
        const files = manifest.parts.filter((p) => folders.some((f) => p.name.startsWith(`uploads/${f}/`))).length;
        for (const name of folders) mkdirSync(path.join(staging, 'uploads', name), { recursive: true });
        const marker = { k: pendingKey, v: JSON.stringify(folders), updated_at: Math.floor(kernel.clock() / 1000) };
        await restoreRows(db, dbFile, tables, manifest.kind === 'config' ? here.cleared : [], marker);
        kernel.log.info({ file: packageName }, restoreSteps.committed);
        await finishSwap();
        kernel.log.info({ file: packageName }, restoreSteps.swapped);
        // Consumers of config.changed re-read at once; what areas cache otherwise they re-read in
        // their own `reload` (their declarations), awaited here so the answer finds it done.
        announceAll();
        await declarations.reload();
        return { tables: tables.length, files };
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
    });

  /**
   * The upload folders of a committed restore swapped in: each staged folder renamed over its
   * target (the old one aside, then removed), then the marker the rows' transaction wrote removed.
   * Run again after a crash (start), it finishes what is left: a folder no longer staged is done.
   */
  const finishSwap = async () => {
    const row = await db.kysely
      .selectFrom('module_settings')
      .select('v')
      .where('k', '=', pendingKey)
      .executeTakeFirst();
    if (!row) return false;
    for (const name of JSON.parse(row.v) as string[]) {
      const target = path.join(config.dataDir, name);
      const staged = path.join(staging, 'uploads', name);
      if (!existsSync(staged)) continue;
      const old = `${target}.old-restore`;
      rmSync(old, { recursive: true, force: true });
      if (existsSync(target)) renameSync(target, old);
      mkdirSync(path.dirname(target), { recursive: true });
      renameSync(staged, target);
      rmSync(old, { recursive: true, force: true });
    }
    await db.kysely.deleteFrom('module_settings').where('k', '=', pendingKey).execute();
    return true;
  };

  /** Every topic a declared table announces, for all ids: the engines and caches re-read. */
  const announceAll = () => {
    const topics = new Set<ConfigArea>();
    for (const area of declarations.all())
      for (const d of Object.values(area.tables ?? {})) if (d?.announces) topics.add(d.announces);
    for (const area of topics) kernel.bus.publish('config.changed', { area, ids: null });
  };

  return {
    folder,
    /** At start: a restore a crash cut between its commit and its files is finished (roll forward). */
    recover: async () => {
      if (await finishSwap()) {
        kernel.log.warn('a restore cut short by a crash was finished: its upload folders are swapped in');
        rmSync(staging, { recursive: true, force: true });
      } else if (existsSync(staging)) rmSync(staging, { recursive: true, force: true });
    },
    /** Takes an uploaded file as a package once it passes every check a restore makes before changing anything. */
    adopt: (file: string) =>
      serial(async () => {
        const stage = path.join(config.dataDir, `.adopt-${path.basename(file)}`);
        mkdirSync(stage, { recursive: true, mode: 0o700 });
        try {
          const manifest = await openPackage(file, await expectation(), stage);
          const filename = nameFor(manifest.kind, 'upload_', kernel.clock());
          renameSync(file, path.join(folder, filename));
          return describe(filename);
        } finally {
          rmSync(stage, { recursive: true, force: true });
        }
      }),
    /** This area's own cached settings, read again after a restore. */
    reload: () => settings.reload(),
    list,
    create,
    restore,
    fileOf,
    remove: async (filename: string) => {
      rmSync(fileOf(filename));
    },
    autoSettings: () => settings.get('backup_auto'),
    saveAutoSettings: (value: AutoBackupSettings) => settings.set('backup_auto', value),
    latest: (): Promise<LatestBackup> => settings.get('backup_latest'),
    closeLatest: async () => {
      const latest = await settings.get('backup_latest');
      await settings.set('backup_latest', { ...latest, read: true });
    },
  };
};

export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
