import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { hash, verify } from '@node-rs/argon2';
import type { dictionary as Dictionary } from '@zxcvbn-ts/language-common';

/**
 * Password hashing: argon2id with OWASP's parameters (19 MiB, t=2, p=1). The PHC string keeps
 * its parameters, so raising them later still verifies older hashes.
 */
/** `algorithm: 2` is Algorithm.Argon2id (a const enum the isolated-module build cannot read). */
export const argon2Options = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, argon2Options);

export const verifyPassword = async (passwordHash: string, password: string): Promise<boolean> => {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
};

/** A hash to verify against when the user does not exist, so timing does not reveal names. */
let decoyHash: Promise<string> | null = null;
export const decoyVerify = async (password: string): Promise<false> => {
  decoyHash ??= hashPassword('decoy-password-for-unknown-users');
  await verifyPassword(await decoyHash, password);
  return false;
};

/**
 * The common-password list shipped with zxcvbn-ts (about 49 000 passwords from real leaks), read
 * at the first password checked (a login, a change): with its dictionary ~4 MB of heap a server
 * kept from start-up (issue 18, memory). Synchronously, as the check is: a CommonJS package.
 */
let common: Set<string> | null = null;
const commonPasswords = (): Set<string> => {
  if (common) return common;
  const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as {
    dictionary: typeof Dictionary;
  };
  common = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return common;
};
export const isCommonPassword = (password: string): boolean => commonPasswords().has(password.toLowerCase());

/** SHA-256 of a random token: tokens are stored only as this digest. */
export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');
