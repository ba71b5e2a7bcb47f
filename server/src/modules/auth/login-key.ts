import { constants, createPrivateKey, createPublicKey, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The RSA key pair that protects passwords on their way from the browser (RSA-OAEP, SHA-256),
 * made at first start and kept in the data dir; never an embedded symmetric key (the spec's
 * product embeds one in its client; we do not).
 */
export interface LoginKey {
  /** DER SubjectPublicKeyInfo, base64, as WebCrypto imports it (`spki`). */
  publicKey: string;
  /** The plain text, or null when the ciphertext does not decrypt. */
  decrypt(ciphertextBase64: string): string | null;
}

export const createLoginKey = (privatePem: string): LoginKey => {
  const key = createPrivateKey(privatePem);
  const publicKey = createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');
  return {
    publicKey,
    decrypt(ciphertextBase64) {
      if (!/^[A-Za-z0-9+/=]+$/.test(ciphertextBase64)) return null;
      try {
        const plain = privateDecrypt(
          { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
          Buffer.from(ciphertextBase64, 'base64'),
        );
        const text = plain.toString('utf8');
        // Invalid UTF-8 turns into U+FFFD: refuse rather than hash a mangled password.
        return text.includes('\uFFFD') ? null : text;
      } catch {
        return null;
      }
    },
  };
};

export const generateLoginKeyPem = (): string =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** Loads the key from `dataDir/login-key.pem`, making it (mode 0600) on first start. */
export const loadOrCreateLoginKey = (dataDir: string): LoginKey => {
  const file = path.join(dataDir, 'login-key.pem');
  if (!existsSync(file)) writeFileSync(file, generateLoginKeyPem(), { mode: 0o600 });
  return createLoginKey(readFileSync(file, 'utf8'));
};
