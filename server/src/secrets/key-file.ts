import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { z } from 'zod';

/**
 * The install key sealed with an administrator's passphrase, to carry to another install
 * (docs/maintenance.md, "The install key"): scrypt (N 2^15, r 8, p 1) makes a key of the
 * passphrase and a random salt; AES-256-GCM seals the 32 key bytes with it. A JSON text, as
 * a file to download and upload. A wrong passphrase or a changed file does not open (GCM's tag).
 */
const keyFile = z.strictObject({
  format: z.literal('sitewatch-secret-key'),
  version: z.literal(1),
  kdf: z.strictObject({ name: z.literal('scrypt'), N: z.literal(32768), r: z.literal(8), p: z.literal(1) }),
  salt: z.string().max(64),
  iv: z.string().max(64),
  tag: z.string().max(64),
  sealed: z.string().max(128),
});

const kdf = { name: 'scrypt' as const, N: 32768 as const, r: 8 as const, p: 1 as const };
const derive = (passphrase: string, salt: Buffer) =>
  scryptSync(passphrase.normalize('NFC'), salt, 32, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 64 * 1024 * 1024 });

export const sealKeyFile = (key: Buffer, passphrase: string): string => {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(passphrase, salt), iv);
  const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
  const file: z.infer<typeof keyFile> = {
    format: 'sitewatch-secret-key',
    version: 1,
    kdf,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    sealed: sealed.toString('base64'),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
};

/** Why a key file does not open: not one (`format`) or not with this passphrase (`passphrase`). */
export class KeyFileRefused extends Error {
  constructor(readonly reason: 'format' | 'passphrase') {
    super(`secret key file refused: ${reason}`);
  }
}

/** The 32 key bytes of a key file, or KeyFileRefused. */
export const openKeyFile = (text: string, passphrase: string): Buffer => {
  let parsed: z.infer<typeof keyFile>;
  try {
    parsed = keyFile.parse(JSON.parse(text));
  } catch {
    throw new KeyFileRefused('format');
  }
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      derive(passphrase, Buffer.from(parsed.salt, 'base64')),
      Buffer.from(parsed.iv, 'base64'),
    );
    decipher.setAuthTag(Buffer.from(parsed.tag, 'base64'));
    const key = Buffer.concat([decipher.update(Buffer.from(parsed.sealed, 'base64')), decipher.final()]);
    if (key.length !== 32) throw new Error('not 32 bytes');
    return key;
  } catch {
    throw new KeyFileRefused('passphrase');
  }
};
