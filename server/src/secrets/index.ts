import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
}

const prefix = 'enc:v1:';

export const createSecretBox = (key: Buffer): SecretBox => {
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes');
  const isEncrypted = (v: string) => v.startsWith(prefix);
  return {
    isEncrypted,
    encrypt(plain) {
      if (plain === '' || isEncrypted(plain)) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    decrypt(stored) {
      if (!isEncrypted(stored)) return stored;
      try {
        const raw = Buffer.from(stored.slice(prefix.length), 'base64');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return '';
      }
    },
  };
};

/** Loads `dataDir/secret.key`, making it (32 random bytes, mode 0600) at first use, like the login key. */
export const loadOrCreateSecretBox = (dataDir: string): SecretBox => {
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
  return createSecretBox(readFileSync(file));
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
