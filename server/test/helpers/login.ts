import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { nowSeconds } from '@sitewatch/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/kysely.ts';
import { ensureAdmin } from '../../src/modules/auth/index.ts';
import { argon2Options } from '../../src/modules/auth/passwords.ts';
import { createAuthRepository, newUserDefaults } from '../../src/modules/auth/repository.ts';

/** Encrypts as the browser does: RSA-OAEP with SHA-256 under the server's public key (base64 SPKI). */
export const encryptFor = (publicKeyB64: string, text: string): string =>
  publicEncrypt(
    {
      key: createPublicKey({ key: Buffer.from(publicKeyB64, 'base64'), format: 'der', type: 'spki' }),
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
    },
    Buffer.from(text, 'utf8'),
  ).toString('base64');

export const publicKeyOf = async (app: FastifyInstance): Promise<string> =>
  (await app.inject({ method: 'GET', url: '/api/v1/pub/login/params' })).json().data.public_key;

/** Posts a login the way the web client does; returns the raw answer. */
export const postLogin = async (
  app: FastifyInstance,
  userName: string,
  password: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => {
  const key = await publicKeyOf(app);
  return app.inject({
    method: 'POST',
    url: '/api/v1/pub/login/safe',
    headers,
    payload: {
      user_name: encryptFor(key, userName),
      password: encryptFor(key, password),
      captcha_id: '',
      captcha_code: '',
      ...extra,
    },
  });
};

/** Logs in and returns the bearer header for later calls. */
export const loginHeader = async (app: FastifyInstance, userName: string, password: string) => {
  const res = await postLogin(app, userName, password);
  const token = res.json().data?.access_token;
  if (!token) throw new Error(`login failed: ${res.body}`);
  return { authorization: `Bearer ${token}` };
};

/**
 * The password hash of a test's own user: argon2id at a small cost. Its parameters travel in the PHC
 * string, so the product verifies it as any other hash; the tests sign such users in thousands of
 * times, where the product's 19 MiB × 2 passes cost 20–40 ms of a core each. The product's own
 * hashes (users made through the API, the first administrator) keep the product's parameters.
 */
export const testPasswordHash = (password: string) =>
  hash(password, { ...argon2Options, memoryCost: 1024, timeCost: 1 });

/** Makes a user with a known password (and optionally roles) directly in the database. */
export const createUser = async (db: Db, userName: string, password: string, roleIds: number[] = []) => {
  const time = nowSeconds();
  const id = await createAuthRepository(db).insertUser({
    ...newUserDefaults(time),
    user_name: userName,
    alias: userName,
    password_hash: await testPasswordHash(password),
    must_change_password: 0,
  });
  for (const role_id of roleIds) await db.kysely.insertInto('user_roles').values({ user_id: id, role_id }).execute();
  return id;
};

/** The first-start administrator with its one-time password. */
export const createFirstAdmin = async (db: Db) => {
  const password = await ensureAdmin(createAuthRepository(db));
  if (!password) throw new Error('admin already exists');
  return password;
};
