import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { z } from 'zod';

/**
 * Activation codes (docs/licence.md): `SW1.<payload>.<signature>`, both parts base64url; the payload
 * is JSON, the signature Ed25519 over the bytes `SW1.<payload>`. The vendor tool (tools/licence)
 * signs with the private key; the product holds only the public key and verifies.
 */
export const codePrefix = 'SW1';

export const codePayload = z.strictObject({
  /** Serial number of the installation the code is for. */
  sn: z.string().min(1).max(64),
  edition: z.string().max(64),
  /** End of the activation, epoch seconds; 0: never expires. */
  expires: z.number().int().min(0),
  devices: z.number().int().min(0),
  items: z.number().int().min(0),
  /** Devices allowed per category code. */
  categories: z.record(z.string().max(64), z.number().int().min(0)),
  /** When the vendor issued it, epoch seconds. */
  issued: z.number().int().min(0),
});
export type CodePayload = z.infer<typeof codePayload>;

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** Signs a payload with the vendor's private key (PEM): the vendor tool and tests only. */
export const signCode = (payload: CodePayload, privateKeyPem: string): string => {
  const body = `${codePrefix}.${b64(JSON.stringify(codePayload.parse(payload)))}`;
  const signature = sign(null, Buffer.from(body), createPrivateKey(privateKeyPem));
  return `${body}.${b64(signature)}`;
};

/** A new vendor key pair (PEM): the vendor tool and tests. */
export const makeVendorKeys = () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
};

export const publicKeyOf = (pem: string): KeyObject => {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the licence public key is not an Ed25519 key');
  return key;
};

/** Why a code is refused: each has its own message (licence.* in the shared locale files). */
export type CodeProblem = 'codeMalformed' | 'codeSignature';

/** The payload of a code signed by the key, or why not (no check of serial number or expiry here). */
export const readCode = (
  code: string,
  key: KeyObject,
): { ok: true; payload: CodePayload } | { ok: false; problem: CodeProblem } => {
  const parts = code.trim().split('.');
  if (parts.length !== 3 || parts[0] !== codePrefix || !parts[1] || !parts[2])
    return { ok: false, problem: 'codeMalformed' };
  const b64url = /^[A-Za-z0-9_-]+$/;
  if (!b64url.test(parts[1]) || !b64url.test(parts[2])) return { ok: false, problem: 'codeMalformed' };
  const signature = Buffer.from(parts[2], 'base64url');
  if (signature.length !== 64) return { ok: false, problem: 'codeSignature' };
  if (!verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), key, signature))
    return { ok: false, problem: 'codeSignature' };
  // Signed by the vendor: the payload is theirs, but is still read strictly.
  try {
    const parsed = codePayload.safeParse(JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')));
    return parsed.success ? { ok: true, payload: parsed.data } : { ok: false, problem: 'codeMalformed' };
  } catch {
    return { ok: false, problem: 'codeMalformed' };
  }
};
