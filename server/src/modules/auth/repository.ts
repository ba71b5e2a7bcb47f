import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { Database, DeviceTokensTable, SessionsTable, UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type DeviceTokenRow = Selectable<DeviceTokensTable>;

/** Column values of a new local user before the caller's own (name and password hash). */
export const newUserDefaults = (time: number) => ({
  alias: '',
  password_changed_at: time,
  must_change_password: 1,
  pwd_always_valid: 0,
  email: '',
  phone: '',
  enable: 1,
  login_type: 1,
  language: 'zh_cn',
  locked_at: null,
  lock_reason: null,
  created_at: time,
  updated_at: time,
});

/** Accounts: look-up, creation, password, language and lock. */
const accountQueries = (k: Kysely<Database>) => ({
  findUserByName: (user_name: string) =>
    k.selectFrom('users').selectAll().where('user_name', '=', user_name).executeTakeFirst(),
  findUserById: (id: number) => k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
  countUsers: async () =>
    Number(
      (
        await k
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  insertUser: async (user: Insertable<UsersTable>) =>
    (await k.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow()).id,
  addUserRole: (user_id: number, role_id: number) => k.insertInto('user_roles').values({ user_id, role_id }).execute(),
  addUserGroup: (user_id: number, group_id: number) =>
    k.insertInto('user_user_groups').values({ user_id, group_id }).execute(),
  updatePassword: (id: number, password_hash: string, time: number) =>
    k
      .updateTable('users')
      .set({ password_hash, password_changed_at: time, must_change_password: 0, updated_at: time })
      .where('id', '=', id)
      .execute(),
  setLanguage: (id: number, language: string, time: number) =>
    k.updateTable('users').set({ language, updated_at: time }).where('id', '=', id).execute(),
  lockUser: (id: number, time: number, reason: string) =>
    k
      .updateTable('users')
      .set({ locked_at: time, lock_reason: reason, updated_at: time })
      .where('id', '=', id)
      .execute(),
  /** A recovered account: the new password, enabled and unlocked. */
  restoreAccess: (id: number, password_hash: string, time: number) =>
    k
      .updateTable('users')
      .set({
        password_hash,
        password_changed_at: time,
        must_change_password: 0,
        enable: 1,
        locked_at: null,
        lock_reason: null,
        updated_at: time,
      })
      .where('id', '=', id)
      .execute(),
  unlockUser: (id: number, time: number) =>
    k.updateTable('users').set({ locked_at: null, lock_reason: null, updated_at: time }).where('id', '=', id).execute(),
});

/** Login attempts: what the brute-force budget and the automatic lock count. */
const attemptQueries = (k: Kysely<Database>) => ({
  /**
   * Opens an attempt as a failure before the password is checked, so concurrent guesses see each
   * other at once (the throttle counts every row but its own); a success or a refusal updates it.
   */
  openAttempt: async (user_name: string, ip: string, time: number) =>
    (
      await k
        .insertInto('login_attempts')
        .values({ user_name, ip, success: 0, time })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  markAttemptSucceeded: (id: number) =>
    k.updateTable('login_attempts').set({ success: 1 }).where('id', '=', id).execute(),
  /** An attempt that never checked a password (refused, or a directory that did not answer). */
  dropAttempt: (id: number) => k.deleteFrom('login_attempts').where('id', '=', id).execute(),
  /** Failed attempts since `since` against `user_name` or from `ip` (when given), but `exceptId`. */
  failuresSince: (user_name: string, ip: string | null, since: number, exceptId: number) =>
    k
      .selectFrom('login_attempts')
      .select(['user_name', 'ip', 'time'])
      .where('success', '=', 0)
      .where('time', '>=', since)
      .where('id', '!=', exceptId)
      .where((eb) =>
        ip ? eb.or([eb('user_name', '=', user_name), eb('ip', '=', ip)]) : eb('user_name', '=', user_name),
      )
      .orderBy('time')
      .execute(),
  /** Whether `user_name` has signed in from `ip` since `since` (a known address). */
  succeededFrom: async (user_name: string, ip: string, since: number) =>
    (await k
      .selectFrom('login_attempts')
      .select('id')
      .where('user_name', '=', user_name)
      .where('ip', '=', ip)
      .where('success', '=', 1)
      .where('time', '>=', since)
      .executeTakeFirst()) !== undefined,
  /** Attempts older than `before` say nothing any rule still reads. */
  purgeAttempts: (before: number) => k.deleteFrom('login_attempts').where('time', '<', before).execute(),
  /**
   * Failed attempts for `user_name` since `since`, after its last success (by row order, so a
   * failure in the same second as the success counts), but `exceptId`.
   */
  countRecentFailures: async (user_name: string, since: number, exceptId = 0) => {
    const lastSuccess = await k
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('user_name', '=', user_name)
      .where('success', '=', 1)
      .executeTakeFirst();
    const row = await k
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_name', '=', user_name)
      .where('success', '=', 0)
      .where('time', '>=', since)
      .where('id', '>', Number(lastSuccess?.id ?? 0))
      .where('id', '!=', exceptId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
});

/** Sessions and auto-login device tokens, stored by the digest of their token. */
const sessionQueries = (k: Kysely<Database>) => ({
  insertSession: async (session: Insertable<SessionsTable>) =>
    (await k.insertInto('sessions').values(session).returning('id').executeTakeFirstOrThrow()).id,
  findSessionByHash: (token_hash: string) =>
    k
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.last_seen_at',
        'sessions.revoked_at',
        'sessions.revoke_reason',
        'sessions.device_token_id',
        'users.user_name',
        'users.enable',
        'users.locked_at',
      ])
      .where('sessions.token_hash', '=', token_hash)
      .executeTakeFirst(),
  sessionDeviceToken: async (id: number) =>
    (await k.selectFrom('sessions').select('device_token_id').where('id', '=', id).executeTakeFirst())
      ?.device_token_id ?? null,
  /** Of these sessions, the ones still in force (not revoked, user enabled and unlocked), for the push channel's sweep. */
  liveSessions: (ids: number[]) =>
    k
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'sessions.last_seen_at'])
      .where('sessions.id', 'in', ids)
      .where('sessions.revoked_at', 'is', null)
      .where('users.enable', '=', 1)
      .where('users.locked_at', 'is', null)
      .execute(),
  touchSession: (id: number, last_seen_at: number) =>
    k.updateTable('sessions').set({ last_seen_at }).where('id', '=', id).execute(),
  revokeSession: (id: number, reason: string, time: number) =>
    k
      .updateTable('sessions')
      .set({ revoked_at: time, revoke_reason: reason })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute(),
  revokeUserSessions: (user_id: number, reason: string, time: number, exceptId?: number) => {
    let query = k
      .updateTable('sessions')
      .set({ revoked_at: time, revoke_reason: reason })
      .where('user_id', '=', user_id)
      .where('revoked_at', 'is', null);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return query.execute();
  },

  insertDeviceToken: async (token: Insertable<DeviceTokensTable>) =>
    (await k.insertInto('device_tokens').values(token).returning('id').executeTakeFirstOrThrow()).id,
  findDeviceTokenByHash: (token_hash: string) =>
    k.selectFrom('device_tokens').selectAll().where('token_hash', '=', token_hash).executeTakeFirst(),
  findDeviceToken: (id: number) => k.selectFrom('device_tokens').selectAll().where('id', '=', id).executeTakeFirst(),
  touchDeviceToken: (id: number, time: number) =>
    k.updateTable('device_tokens').set({ last_used_at: time }).where('id', '=', id).execute(),
  revokeDeviceToken: (id: number, time: number) =>
    k
      .updateTable('device_tokens')
      .set({ revoked_at: time })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute(),
  revokeUserDeviceTokens: (user_id: number, time: number) =>
    k
      .updateTable('device_tokens')
      .set({ revoked_at: time })
      .where('user_id', '=', user_id)
      .where('revoked_at', 'is', null)
      .execute(),
  /** Live device tokens, of one user or (null) of everyone. */
  listDeviceTokens: (user_id: number | null, now: number) => {
    let query = k
      .selectFrom('device_tokens')
      .innerJoin('users', 'users.id', 'device_tokens.user_id')
      .select([
        'device_tokens.id',
        'device_tokens.user_id',
        'users.user_name',
        'device_tokens.period',
        'device_tokens.expires_at',
        'device_tokens.ip',
        'device_tokens.user_agent',
        'device_tokens.created_at',
        'device_tokens.last_used_at',
      ])
      .where('device_tokens.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('device_tokens.expires_at', 'is', null), eb('device_tokens.expires_at', '>', now)]))
      .orderBy('device_tokens.created_at', 'desc');
    if (user_id !== null) query = query.where('device_tokens.user_id', '=', user_id);
    return query.execute();
  },
});

/** Captchas, each accepted at most once. */
const captchaQueries = (k: Kysely<Database>) => ({
  insertCaptcha: (id: string, code: string, expires_at: number) =>
    k.insertInto('captchas').values({ id, code, expires_at }).execute(),
  findCaptcha: (id: string) => k.selectFrom('captchas').selectAll().where('id', '=', id).executeTakeFirst(),
  /** Keeps the first image drawn for a captcha; a later one (a second first fetch) is not kept. */
  keepCaptchaImage: (id: string, image: Buffer) =>
    k.updateTable('captchas').set({ image }).where('id', '=', id).where('image', 'is', null).execute(),
  /** Takes a captcha: it is deleted, so it is accepted at most once. */
  takeCaptcha: async (id: string) => {
    const row = await k.selectFrom('captchas').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const deleted = await k.deleteFrom('captchas').where('id', '=', id).executeTakeFirst();
    return Number(deleted.numDeletedRows) === 1 ? row : undefined;
  },
  purgeCaptchas: (now: number) => k.deleteFrom('captchas').where('expires_at', '<', now).execute(),
});

/** Accounts, sessions, device tokens, captchas and login attempts: Kysely only. */
export const createAuthRepository = (db: Db) => {
  const k = db.kysely;
  return { ...accountQueries(k), ...attemptQueries(k), ...sessionQueries(k), ...captchaQueries(k) };
};

export type AuthRepository = ReturnType<typeof createAuthRepository>;
