import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import type { OutboundConfig } from '@sitewatch/contract/auth';
import { type FtpRecord, ftpRecord, ftpSettings } from '@sitewatch/contract/maintenance';
import { Client } from 'basic-ftp';
import { z } from 'zod';
import type { Kernel } from '../../area.ts';
import { createSettingsStore } from '../../db/settings-store.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { checkedAddress, OutboundRefused } from '../../notify/outbound.ts';
import type { SecretBox } from '../../secrets/index.ts';

/** The stored FTP settings: the password sealed at rest (declared secret of the area). */
const stored = ftpSettings.extend({ host: z.string(), path: z.string(), password: z.string().default('') });
type Stored = z.infer<typeof stored>;
const empty: Stored = {
  enabled: false,
  host: '',
  port: 21,
  path: '/',
  user: 'anonymous',
  password: '',
  secure: false,
  ca: '',
};
const recordsKept = 50;
const timeoutMs = 15_000;

/** Why a conversation failed: the FTP server's or the network's words, or the refusal's text key. */
const reasonOf = (err: unknown) =>
  (err instanceof AppError
    ? String(err.values.reason ?? err.key)
    : err instanceof Error
      ? err.message
      : String(err)
  ).slice(0, 200);

/** How an FTPS conversation checks the server's certificate. */
const tlsOptions = (s: Stored): tls.ConnectionOptions => ({
  rejectUnauthorized: true,
  ...(isIP(s.host.replace(/^\[|\]$/g, '')) ? {} : { servername: s.host }),
  ...(s.ca ? { ca: [...tls.rootCertificates, s.ca] } : {}),
});

/** A saved authority must be certificates Node's TLS takes (the contract checks only the form). */
const checkCa = (ca: string) => {
  if (!ca) return;
  try {
    // Node's TLS skips a block it cannot read; every block must be a certificate.
    for (const block of ca.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [''])
      new X509Certificate(block);
  } catch {
    throw badRequest('maintenance.validation.ftpCa');
  }
};

/**
 * Copies of backup packages on an FTP or FTPS server (docs/maintenance.md, "FTP sync"), with
 * basic-ftp: the address is checked against the outbound policy before any connection (and the
 * connection goes to that checked address), every conversation is bounded by a timeout, and each
 * copy is recorded (the latest 50).
 */
export const createFtpSync = (deps: {
  kernel: Kernel;
  secrets: SecretBox;
  outbound: () => Promise<OutboundConfig>;
}) => {
  const settings = createSettingsStore({
    db: deps.kernel.db,
    table: 'module_settings',
    schemas: { backup_ftp: stored, backup_ftp_records: z.array(ftpRecord) },
    defaults: { backup_ftp: empty, backup_ftp_records: [] as FtpRecord[] },
    secretFields: { backup_ftp: ['password'] },
    secrets: deps.secrets,
    clock: deps.kernel.clock,
  });

  /** One signed-in conversation with the saved server, in its folder (made when missing). */
  const withServer = async <T>(work: (client: Client, folder: string) => Promise<T>): Promise<T> => {
    const s = await settings.get('backup_ftp');
    if (!s.host) throw badRequest('maintenance.ftp.notConfigured');
    let address: string;
    try {
      address = (await checkedAddress(s.host, await deps.outbound())).address;
    } catch (err) {
      if (err instanceof OutboundRefused) throw badRequest('maintenance.ftp.notAllowed');
      throw badRequest('maintenance.ftp.failed', { reason: err instanceof Error ? err.message : String(err) });
    }
    const client = new Client(timeoutMs);
    try {
      await client.access({
        host: address,
        port: s.port,
        user: s.user || 'anonymous',
        password: s.password,
        secure: s.secure,
        // The certificate is checked against the name the administrator gave, not the checked
        // address (an address given is checked as it is), and against the system's authorities
        // plus the ones saved with the server.
        ...(s.secure ? { secureOptions: tlsOptions(s) } : {}),
      });
      await client.ensureDir(s.path);
      return await work(client, s.path);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw badRequest('maintenance.ftp.failed', {
        reason: (err instanceof Error ? err.message : String(err)).slice(0, 200),
      });
    } finally {
      client.close();
    }
  };

  const record = async (entry: FtpRecord) => {
    const records = await settings.get('backup_ftp_records');
    await settings.set('backup_ftp_records', [entry, ...records].slice(0, recordsKept));
    return entry;
  };

  return {
    settings: async () => {
      const { password, ...rest } = await settings.get('backup_ftp');
      return { ...rest, has_password: password !== '' };
    },
    save: async (value: z.infer<typeof ftpSettings>) => {
      checkCa(value.ca);
      const before = await settings.get('backup_ftp');
      await settings.set('backup_ftp', { ...value, password: value.password || before.password });
    },
    enabled: async () => (await settings.get('backup_ftp')).enabled,
    /** Signs in and lists the folder: the result, a failure with its reason. */
    test: async () => {
      try {
        return await withServer(async (client) => ({ ok: true, entries: (await client.list()).length, detail: '' }));
      } catch (err) {
        return { ok: false, entries: 0, detail: reasonOf(err) };
      }
    },
    /** The remote folder; a failure with its reason, as the test answers it. */
    list: async () => {
      try {
        const data = await withServer(async (client) =>
          (await client.list()).map((e) => ({
            name: e.name,
            size: e.size,
            time: e.rawModifiedAt,
            directory: e.isDirectory,
          })),
        );
        return { ok: true, detail: '', data };
      } catch (err) {
        return { ok: false, detail: reasonOf(err), data: [] };
      }
    },
    /** Copies one package (its path on disk); the result is recorded, a failure too, and answered. */
    sync: async (file: string): Promise<FtpRecord> => {
      const filename = path.basename(file);
      const time = Math.floor(deps.kernel.clock() / 1000);
      try {
        // Written under a temporary name and renamed, so the server never lists half a package.
        await withServer(async (client) => {
          await client.uploadFrom(file, `${filename}.part`);
          await client.rename(`${filename}.part`, filename);
        });
        return await record({ filename, time, ok: true, detail: '' });
      } catch (err) {
        const detail =
          err instanceof AppError
            ? String(err.values.reason ?? err.key)
            : err instanceof Error
              ? err.message
              : String(err);
        return record({ filename, time, ok: false, detail: detail.slice(0, 200) });
      }
    },
    records: () => settings.get('backup_ftp_records'),
    reload: () => settings.reload(),
  };
};

export type FtpSync = ReturnType<typeof createFtpSync>;
