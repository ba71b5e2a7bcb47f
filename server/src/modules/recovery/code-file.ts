import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { recoveryRules } from '@sitewatch/contract/recovery';
import { z } from 'zod';

/**
 * The one recovery code of an installation, kept hashed in the data dir (docs/recovery.md): the
 * command run on the box writes it, the server reads, counts wrong tries in it and consumes it.
 * Only whoever can write the data dir (the box's administrator) can make one.
 */
export const recoveryFileName = 'recovery-code.json';

/** 31 characters without look-alikes (no 0/O, 1/I/L): 12 of them are about 59 random bits. */
const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const stored = z.object({
  salt: z.string().regex(/^[a-f0-9]{32}$/),
  hash: z.string().regex(/^[a-f0-9]{64}$/),
  created_at: z.number().int(),
  expires_at: z.number().int(),
  failures: z.number().int().min(0),
});
export type StoredRecoveryCode = z.infer<typeof stored>;

/** A typed code as compared: upper case, without dashes and spaces. */
export const normalizeCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

const digest = (salt: string, code: string) =>
  createHash('sha256')
    .update(`${salt}:${normalizeCode(code)}`)
    .digest('hex');

export const recoveryFile = (dataDir: string) => path.join(dataDir, recoveryFileName);

/**
 * Makes a new code (replacing any earlier one), valid `recoveryRules.codeMinutes` from `nowMs`;
 * answers it in clear, once: only its salted SHA-256 is written (owner-only file).
 */
export const issueRecoveryCode = async (dataDir: string, nowMs: number) => {
  const raw = Array.from({ length: 12 }, () => alphabet[randomInt(alphabet.length)]).join('');
  const code = `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
  const salt = randomBytes(16).toString('hex');
  const now = Math.floor(nowMs / 1000);
  const row: StoredRecoveryCode = {
    salt,
    hash: digest(salt, code),
    created_at: now,
    expires_at: now + recoveryRules.codeMinutes * 60,
    failures: 0,
  };
  const file = recoveryFile(dataDir);
  await writeFile(`${file}.part`, JSON.stringify(row), { mode: 0o600 });
  await rename(`${file}.part`, file);
  return { code, expires_at: row.expires_at };
};

/** The stored code, or null when there is none (or it cannot be read: treated as none). */
export const readRecoveryCode = async (dataDir: string): Promise<StoredRecoveryCode | null> => {
  try {
    const parsed = stored.safeParse(JSON.parse(await readFile(recoveryFile(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

export const matchesCode = (row: StoredRecoveryCode, code: string) =>
  timingSafeEqual(Buffer.from(digest(row.salt, code), 'hex'), Buffer.from(row.hash, 'hex'));

export const recordFailure = async (dataDir: string, row: StoredRecoveryCode) => {
  const file = recoveryFile(dataDir);
  await writeFile(`${file}.part`, JSON.stringify({ ...row, failures: row.failures + 1 }), { mode: 0o600 });
  await rename(`${file}.part`, file);
};

/**
 * Takes the code away, once: the file is renamed aside (only one caller's rename succeeds), then
 * removed. False when another caller took it first.
 */
export const consumeRecoveryCode = async (dataDir: string): Promise<boolean> => {
  const file = recoveryFile(dataDir);
  const aside = `${file}.used-${randomBytes(6).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch {
    return false;
  }
  await rm(aside, { force: true });
  return true;
};

export const destroyRecoveryCode = (dataDir: string) => rm(recoveryFile(dataDir), { force: true });
