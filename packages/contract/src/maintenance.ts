import { z } from 'zod';
import { defineRoute } from './route.ts';

/**
 * Backup and restore (002 §3 "Backup package", "Latest backup"; §5.3; §7.2; 000 §3, §7, §9;
 * docs/maintenance.md). A package is one file in the data dir's `backups/` folder: the configuration
 * (`backup_…`) or the history (`history_…`), made by hand or by the schedule (`auto_…`).
 */

/** Automatic backups kept (000 §9, 002 §9): the oldest beyond these are removed. */
export const autoBackupsKept = 3;

const msg = (key: string) => `maintenance.validation.${key}`;

/** A package's file name as the server makes them: nothing that could leave the folder. */
export const backupFileName = z
  .string()
  .regex(/^(auto_|upload_)?(backup|history)_\d{14}(_\d+)?\.tar$/, { message: msg('filename') })
  .describe('File name of a package in the list (e.g. backup_20260101120000.tar).');

export const backupPackage = z.object({
  filename: z.string().describe('File name.'),
  size: z.number().int().describe('Size in bytes.'),
  time: z.number().int().describe('When it was made (epoch seconds).'),
  kind: z
    .enum(['config', 'history'])
    .describe('config: the configuration database, uploads and secrets; history: the series.'),
  auto: z.boolean().describe('Made by the automatic schedule.'),
});
export type BackupPackage = z.infer<typeof backupPackage>;

/**
 * The automatic schedule (002 §5.3: date mode, days or date, run count, time and frequency are
 * required). date_mode 1: every `days` days; 2: on day `date` of each month. On such a day the first
 * run is at `time` (HH:mm, the box's time), then `run_count` runs in all, `frequency` hours apart.
 */
export const autoBackupSettings = z.strictObject({
  enabled: z.boolean().default(false).describe('Whether automatic backups run.'),
  date_mode: z.union([z.literal(1), z.literal(2)], { message: msg('dateMode') }).default(1),
  days: z
    .number({ message: msg('days') })
    .int({ message: msg('days') })
    .min(1, { message: msg('days') })
    .max(365, { message: msg('days') })
    .default(1),
  date: z
    .number({ message: msg('date') })
    .int({ message: msg('date') })
    .min(1, { message: msg('date') })
    .max(28, { message: msg('date') })
    .default(1),
  run_count: z
    .number({ message: msg('runCount') })
    .int({ message: msg('runCount') })
    .min(1, { message: msg('runCount') })
    .max(24, { message: msg('runCount') })
    .default(1),
  time: z
    .string({ message: msg('time') })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: msg('time') })
    .default('02:00'),
  frequency: z
    .number({ message: msg('frequency') })
    .int({ message: msg('frequency') })
    .min(1, { message: msg('frequency') })
    .max(24, { message: msg('frequency') })
    .default(24),
});
export type AutoBackupSettings = z.infer<typeof autoBackupSettings>;

/** The latest-backup notice (000 §3: file, read, time, ftp), polled every 30 s, PUT when closed. */
export const latestBackup = z.object({
  file: z.string().describe("The latest package's file name ('' before the first)."),
  read: z.boolean().describe('Whether the notice was closed.'),
  time: z.number().int().describe('When it was made (epoch seconds; 0 before the first).'),
  ftp: z.number().int().describe('FTP sync of that package: 0 not synced, 1 copied, 2 the copy failed.'),
});
export type LatestBackup = z.infer<typeof latestBackup>;

/** The upload of a package to restore (multipart field `file`; not a contract route: a stream). */
export const backupUploadPath = '/api/v1/setting/maintain/mysql/upload';
/** Largest package accepted by upload. */
export const backupUploadMaxBytes = 2 * 1024 ** 3;

const encrypted = z.string().max(1024).describe('The verification password, encrypted with the login key.');

export const maintenanceRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'setting/maintain/mysql/auto_list',
    summary: 'The backup packages, newest first (file name and size)',
    tags: ['maintenance'],
    query: z.object({ kind: z.enum(['config', 'history']).optional() }),
    response: z.object({ total: z.number().int(), data: z.array(backupPackage) }),
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: 'setting/maintain/mysql/auto_list',
    summary: 'Delete a backup package',
    tags: ['maintenance'],
    body: z.strictObject({ filename: backupFileName }),
    response: z.null(),
  }),
  create: defineRoute({
    method: 'POST',
    path: 'setting/maintain/mysql/backup',
    summary: 'Make a backup package now (configuration by default, or the history)',
    tags: ['maintenance'],
    body: z.strictObject({ kind: z.enum(['config', 'history']).default('config') }),
    response: backupPackage,
  }),
  restore: defineRoute({
    method: 'POST',
    path: 'setting/maintain/mysql/restore',
    summary: 'Restore a package of the list (checked first; nothing changes when it is refused)',
    tags: ['maintenance'],
    body: z.strictObject({ filename: backupFileName, verify_password: encrypted }),
    response: z.object({ tables: z.number().int(), files: z.number().int() }),
  }),
  autoSetting: defineRoute({
    method: 'GET',
    path: 'setting/maintain/mysql/auto_setting',
    summary: 'The automatic backup schedule',
    tags: ['maintenance'],
    response: autoBackupSettings,
  }),
  saveAutoSetting: defineRoute({
    method: 'PUT',
    path: 'setting/maintain/mysql/auto_setting',
    summary: 'Save the automatic backup schedule',
    tags: ['maintenance'],
    body: autoBackupSettings,
    response: z.null(),
  }),
  latest: defineRoute({
    method: 'GET',
    path: 'setting/maintain/mysql/lastest_event',
    summary: 'The latest backup notice (polled every 30 s)',
    tags: ['maintenance'],
    response: latestBackup,
  }),
  closeLatest: defineRoute({
    method: 'PUT',
    path: 'setting/maintain/mysql/lastest_event',
    summary: 'Mark the latest backup notice read (on close)',
    tags: ['maintenance'],
    response: z.null(),
  }),
  download: defineRoute({
    method: 'GET',
    path: 'setting/maintain/mysql/download',
    summary: 'Download a package (a blob, not the envelope; the client waits up to 600 s)',
    tags: ['maintenance'],
    query: z.strictObject({ filename: backupFileName }),
    response: z.null(),
  }),
};

// ---------- FTP sync of backups (002 §5.3: remote address, port default 21, path; §9) ----------

/** The FTP (or FTPS) server backups are copied to. The password is write-only: never answered. */
export const ftpSettings = z.strictObject({
  enabled: z.boolean().default(false).describe('Copy every automatic backup to the server.'),
  host: z
    .string({ message: msg('ftpHost') })
    .trim()
    .min(1, { message: msg('ftpHost') })
    .max(253, { message: msg('ftpHost') })
    .regex(/^[A-Za-z0-9.:[\]-]+$/, { message: msg('ftpHost') })
    .describe('Remote address (host name or IP).'),
  port: z
    .number({ message: msg('ftpPort') })
    .int({ message: msg('ftpPort') })
    .min(1, { message: msg('ftpPort') })
    .max(65535, { message: msg('ftpPort') })
    .default(21),
  path: z
    .string({ message: msg('ftpPath') })
    .trim()
    .min(1, { message: msg('ftpPath') })
    .max(255, { message: msg('ftpPath') })
    .regex(/^\/[^\0\r\n]*$/, { message: msg('ftpPath') })
    .describe('Remote folder, absolute (made when missing).'),
  user: z.string().trim().max(64).default('anonymous'),
  /** Absent or empty: the stored password is kept. */
  password: z.string().max(128).optional(),
  secure: z.boolean().default(false).describe('FTPS (explicit TLS, AUTH TLS).'),
  ca: z
    .string({ message: msg('ftpCa') })
    .trim()
    .max(32_768, { message: msg('ftpCa') })
    .refine((v) => v === '' || /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(v), {
      message: msg('ftpCa'),
    })
    .default('')
    .describe(
      "FTPS: certificates (PEM) the server's certificate may be signed by, besides the system's (a self-signed one).",
    ),
});
export type FtpSettings = z.infer<typeof ftpSettings>;
export const ftpSettingsView = ftpSettings.omit({ password: true }).extend({
  host: z.string(),
  path: z.string(),
  has_password: z.boolean(),
});

export const ftpEntry = z.object({
  name: z.string(),
  size: z.number(),
  time: z.string().describe('As the server lists it.'),
  directory: z.boolean(),
});

export const ftpRecord = z.object({
  filename: z.string(),
  time: z.number().int().describe('Epoch seconds.'),
  ok: z.boolean(),
  detail: z.string().describe('Why it failed (the FTP server’s words), or empty.'),
});
export type FtpRecord = z.infer<typeof ftpRecord>;

export const ftpRoutes = {
  get: defineRoute({
    method: 'GET',
    path: 'setting/maintain/ftp',
    summary: 'The FTP server backups are copied to (the password is never answered)',
    tags: ['maintenance'],
    response: ftpSettingsView,
  }),
  save: defineRoute({
    method: 'PUT',
    path: 'setting/maintain/ftp',
    summary: 'Save the FTP server (remote address, port, path are required)',
    tags: ['maintenance'],
    body: ftpSettings,
    response: z.null(),
  }),
  test: defineRoute({
    method: 'POST',
    path: 'setting/maintain/ftp/test',
    reads: true,
    summary: 'Test the connection to the saved FTP server (signs in and lists the folder); answers the result',
    tags: ['maintenance'],
    response: z.object({
      ok: z.boolean(),
      entries: z.number().int().describe('Entries of the folder when it answered.'),
      detail: z.string().describe('Why it failed, or empty.'),
    }),
  }),
  list: defineRoute({
    method: 'POST',
    path: 'setting/maintain/ftp/list',
    reads: true,
    summary: 'The remote folder of the saved FTP server (a failure is answered with its reason, as the test does)',
    tags: ['maintenance'],
    response: z.object({
      ok: z.boolean(),
      detail: z.string().describe('Why it failed (a text key or the server’s words), or empty.'),
      data: z.array(ftpEntry),
    }),
  }),
  sync: defineRoute({
    method: 'POST',
    path: 'setting/maintain/ftp/sync',
    summary: 'Copy a package to the FTP server now',
    tags: ['maintenance'],
    body: z.strictObject({ filename: backupFileName }),
    response: ftpRecord,
  }),
  records: defineRoute({
    method: 'GET',
    path: 'setting/maintain/ftp/sync_records',
    summary: 'The latest sync records, newest first',
    tags: ['maintenance'],
    response: z.object({ data: z.array(ftpRecord) }),
  }),
};

// ---------- The install key, carried to another install (docs/maintenance.md "The install key") ----------

const passphrase = z
  .string({ message: msg('passphrase') })
  .min(8, { message: msg('passphrase') })
  .max(128, { message: msg('passphrase') })
  .describe('The passphrase the key file is sealed with (8 to 128 characters).');

export const installKeyRoutes = {
  export: defineRoute({
    method: 'POST',
    path: 'setting/maintain/secret_key/export',
    summary: "Export this install's secret key sealed with a passphrase (a key file to import elsewhere)",
    tags: ['maintenance'],
    body: z.strictObject({ passphrase, verify_password: encrypted }),
    response: z.object({
      filename: z.string().describe('A name to save the key file under.'),
      file: z.string().describe('The key file (JSON text).'),
    }),
  }),
  import: defineRoute({
    method: 'POST',
    path: 'setting/maintain/secret_key/import',
    summary: "Make another install's exported key this install's key (its secrets are sealed again with it)",
    tags: ['maintenance'],
    body: z.strictObject({
      file: z
        .string({ message: msg('keyFile') })
        .min(1, { message: msg('keyFile') })
        .max(4096, { message: msg('keyFile') }),
      passphrase,
      verify_password: encrypted,
    }),
    response: z.object({
      changed: z.boolean().describe('False when the file holds the key this install has already.'),
      resealed: z.number().int().describe('Stored secrets sealed again with the imported key.'),
    }),
  }),
};
