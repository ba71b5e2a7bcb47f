import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sealKeyFile } from './key-file.ts';

/**
 * Secrets at rest (issue 11, finding 7): device, mail, LDAP and channel secrets are stored as
 * `enc:v1:<base64 of iv | tag | ciphertext>` (AES-256-GCM) with a key kept in the data dir, so a copy
 * of the database alone does not give them away. A value without the prefix is plaintext from before
 * and passes through, so old rows keep working until the start-up pass encrypts them.
 */
export interface SecretBox {
  /** '' stays '' (not set); an already encrypted value is kept as it is. */
  encrypt(plain: string): string;
  /** The plain text; a value without the prefix as it is; '' when it does not decrypt (another key). */
  decrypt(stored: string): string;
  isEncrypted(stored: string): boolean;
  /** The install key sealed with `passphrase` (key-file.ts): the key itself never leaves the box. */
  exportKey(passphrase: string): string;
  /** Whether `key` is the one new values are sealed with. */
  uses(key: Buffer): boolean;
  /**
   * Seals new values with `key` from now on; values sealed with the keys before still open
   * (an imported key, docs/maintenance.md "The install key").
   */
  rekey(key: Buffer): void;
}

const prefix = 'enc:v1:';

/** `previous`: keys whose values still open (never used to seal). */
export const createSecretBox = (first: Buffer, previous: Buffer[] = []): SecretBox => {
  if (first.length !== 32) throw new Error('the secret key must be 32 bytes');
  let key = first;
  let older = previous;
  const isEncrypted = (v: string) => v.startsWith(prefix);
  const open = (raw: Buffer, k: Buffer) => {
    const decipher = createDecipheriv('aes-256-gcm', k, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  };
  return {
    isEncrypted,
    exportKey: (passphrase) => sealKeyFile(key, passphrase),
    uses: (other) => other.length === key.length && timingSafeEqual(other, key),
    rekey(next) {
      if (next.length !== 32) throw new Error('the secret key must be 32 bytes');
      older = [key, ...older.filter((k) => !k.equals(next))];
      key = next;
    },
    encrypt(plain) {
      if (plain === '' || isEncrypted(plain)) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    decrypt(stored) {
      if (!isEncrypted(stored)) return stored;
      const raw = Buffer.from(stored.slice(prefix.length), 'base64');
      for (const k of [key, ...older]) {
        try {
          return open(raw, k);
        } catch {
          // another key's value: the next key, or ''
        }
      }
      return '';
    },
  };
};

/** Loads `dataDir/secret.key`, making it (32 random bytes, mode 0600) at first use, like the login key. */
export const loadOrCreateSecretBox = (dataDir: string): SecretBox => {
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
  // The key an imported one replaced: values it sealed that were not sealed again still open.
  const previous = path.join(dataDir, 'secret.key.previous');
  return createSecretBox(readFileSync(file), existsSync(previous) ? [readFileSync(previous)] : []);
};

/** Applies `f` to the named string fields of a JSON object text; text that is not an object is left as it is. */
export const mapJsonFields = (text: string, fields: readonly string[], f: (v: string) => string): string => {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return text;
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return text;
  const rec = o as Record<string, unknown>;
  for (const k of fields) if (typeof rec[k] === 'string') rec[k] = f(rec[k]);
  return JSON.stringify(rec);
};
