import { randomBytes, randomUUID } from 'node:crypto';
import {
  checkPassword,
  isLanguage,
  type Language,
  nowSeconds,
  type PasswordRule,
  passwordExpiry,
  passwordMaxLength,
  sharedText,
} from '@sitewatch/contract';
import { type AutoLoginPeriod, autoLoginDays, changePwdScenes, type LoginAnswer } from '@sitewatch/contract/auth';
import type { AuthResult, Principal, RejectReason } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import type { AuditLog } from '../audit/index.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import { newCaptchaCode, renderCaptcha } from './captcha.ts';
import type { LoginKey } from './login-key.ts';
import type { LoginPolicy } from './login-policy.ts';
import { decoyVerify, hashPassword, isCommonPassword, tokenDigest, verifyPassword } from './passwords.ts';
import { type AuthRepository, newUserDefaults, type UserRow } from './repository.ts';
import { createLoginThrottle } from './throttle.ts';

/** A captcha is kept this long and accepted once. */
export const captchaTtlSeconds = 120;
/** Session activity is written at most this often (the idle rule needs minutes, not seconds). */
const touchEverySeconds = 15;
/** The first-start administrator: never locked by failed logins, throttled instead (docs/users.md). */
const administratorId = 1;

export interface RequestMeta {
  ip: string;
  userAgent: string;
  /** Epoch seconds of the user's last keyboard or mouse activity, as the client reports it. */
  lastActivity?: number | undefined;
}

export interface AuthDeps {
  repo: AuthRepository;
  /** Terminal and account restrictions of the security settings. */
  policy: LoginPolicy;
  config: GlobalConfig;
  loginKey: LoginKey;
  audit: AuditLog;
  clock?: () => number;
}

const newToken = () => randomBytes(32).toString('base64url');

const passwordRulesError = (rules: PasswordRule[], language: Language) =>
  new AppError(
    'passwordRules',
    undefined,
    { rules: rules.map((r) => sharedText(language, `password.rules.${r}`)).join('；') },
    rules.map((rule) => ({ path: 'new_password', message: rule })),
  );

/**
 * Sign-in and sessions: captchas, encrypted credentials, account lock, password rules and forced
 * changes, opaque session tokens stored hashed (so logout, idle timeout, password change and
 * single-terminal login really revoke them), and auto-login device tokens.
 */
export const createAuthService = ({ repo, policy, config, loginKey, audit, clock = Date.now }: AuthDeps) => {
  const now = () => nowSeconds(clock());
  /** Who checks the password of users whose login type is not local (LDAP users: the directory). */
  const passwordCheckers = new Map<number, (user: UserRow, password: string) => Promise<boolean>>();
  const throttle = createLoginThrottle(repo, now);

  /** Runs one password check inside the brute-force budget; `check` answers whether it was right. */
  const throttled = async <T>(userName: string, ip: string, check: () => Promise<T>, right: (r: T) => boolean) => {
    const attempt = await throttle.begin(userName, ip);
    let result: T;
    try {
      result = await check();
    } catch (err) {
      // No password was judged (a directory that did not answer, a refusal of its own).
      await attempt.dropped();
      throw err;
    }
    if (right(result)) await attempt.succeeded();
    return result;
  };

  const decrypt = (ciphertext: string): string => {
    const plain = loginKey.decrypt(ciphertext);
    if (plain === null || plain.length === 0 || plain.length > passwordMaxLength) throw new AppError('decryptFailed');
    return plain;
  };

  const checkCaptcha = async (captchaId: string, captchaCode: string) => {
    const loginSafe = await config.get('LOGIN_SAFE');
    if (!loginSafe.captcha_enabled) return;
    const row = captchaId ? await repo.takeCaptcha(captchaId) : undefined;
    if (!row || row.expires_at < now() || row.code.toLowerCase() !== captchaCode.trim().toLowerCase()) {
      throw new AppError('captchaWrong');
    }
  };

  /** Lifts an automatic lock whose days have passed; says whether the user is still locked. */
  const stillLocked = async (user: UserRow): Promise<boolean> => {
    if (user.locked_at === null) return false;
    const { lock_expiry_days } = await config.get('LOGIN_SAFE');
    if (user.lock_reason === 'auto' && lock_expiry_days > 0 && user.locked_at + lock_expiry_days * 86_400 <= now()) {
      await repo.unlockUser(user.id, now());
      return false;
    }
    return true;
  };

  /**
   * Checks a user name and password as a login does, with the account lock and the brute-force
   * budget: a locked name (or an unknown name that has failed as often) gets the same answer, so the
   * lock says nothing of whether the name exists. The administrator is never locked by failures
   * (anyone could lock it out): the budget's growing delay is its protection. `external` checks the credentials instead of the local password (an
   * LDAP bind): it answers the local user they prove, or null when they are wrong.
   */
  const verifyCredentials = async (
    userName: string,
    password: string,
    meta: RequestMeta,
    external?: { via: string; check: (user: UserRow | undefined) => Promise<UserRow | null> },
  ): Promise<UserRow> => {
    const { auto_lock } = await config.get('LOGIN_SAFE');
    const user = await repo.findUserByName(userName);
    const since = now() - auto_lock.period_minutes * 60;
    const tooMany = async () =>
      auto_lock.enabled && (await repo.countRecentFailures(userName, since)) >= auto_lock.attempts;
    const lockable = user?.id !== administratorId;
    // An automatic lock of the administrator (made before it was exempt) is lifted, or its new
    // sessions would be ended at once as those of a locked account.
    if (user && !lockable && user.locked_at !== null && user.lock_reason === 'auto') {
      await repo.unlockUser(user.id, now());
      user.locked_at = null;
    }
    const locked = user ? await stillLocked(user) : await tooMany();
    if (locked) {
      await audit.write({
        module: 'auth',
        action: 'login',
        target: userName,
        success: false,
        detail: 'locked',
        ip: meta.ip,
      });
      throw new AppError('accountLocked');
    }
    const verified = await throttled(
      userName,
      meta.ip,
      async (): Promise<UserRow | null> => {
        if (external) return external.check(user);
        // Directory (login type 2) accounts prove themselves only to the directory, never by a local password.
        if (user && user.login_type === 1) return (await verifyPassword(user.password_hash, password)) ? user : null;
        return decoyVerify(password).then(() => null);
      },
      (row) => row !== null,
    );
    if (!verified) {
      await audit.write({
        module: 'auth',
        action: 'login',
        target: userName,
        success: false,
        detail: `${external ? `${external.via}: ` : ''}wrong user name or password`,
        ip: meta.ip,
        user_id: user?.id ?? null,
      });
      if (lockable && (await tooMany())) {
        if (user) {
          await repo.lockUser(user.id, now(), 'auto');
          await audit.write({
            module: 'auth',
            action: 'lock',
            target: userName,
            success: true,
            detail: 'auto',
            ip: meta.ip,
            user_id: user.id,
          });
        }
        throw new AppError('accountLocked');
      }
      throw new AppError('loginFailed');
    }
    if (!verified.enable) throw new AppError('accountDisabled');
    return verified;
  };

  const openSession = async (user: UserRow, meta: RequestMeta, remember: boolean, deviceTokenId: number | null) => {
    const token = newToken();
    const time = now();
    const id = await repo.insertSession({
      user_id: user.id,
      token_hash: tokenDigest(token),
      remember: remember ? 1 : 0,
      device_token_id: deviceTokenId,
      ip: meta.ip.slice(0, 64),
      user_agent: meta.userAgent.slice(0, 300),
      created_at: time,
      last_seen_at: time,
    });
    if ((await config.get('LOGIN_SAFE')).single_terminal) await repo.revokeUserSessions(user.id, 'replaced', time, id);
    return token;
  };

  /** The answer of a login: what the password's state asks of the user, and a session unless a change is forced. */
  const answerFor = async (
    user: UserRow,
    password: string | null,
    meta: RequestMeta,
    options: { remember: boolean; period: AutoLoginPeriod | null; deviceTokenId?: number; via?: string },
  ): Promise<LoginAnswer> => {
    const rules = await config.get('PWD_COMPLEXITY');
    const broken =
      password === null ? [] : checkPassword({ password, userName: user.user_name, isCommon: isCommonPassword }, rules);
    // Only local passwords (login type 1) are kept here, so only they expire.
    const alterable = user.login_type === 1;
    const expiry = alterable
      ? passwordExpiry(rules, user.id, user.password_changed_at, now())
      : { expired: false, daysLeft: null, tip: false };
    const scene = user.must_change_password
      ? changePwdScenes.firstLogin
      : broken.length > 0
        ? changePwdScenes.complexity
        : expiry.expired
          ? changePwdScenes.expired
          : 0;
    const base = {
      need_tip_change_pwd: expiry.tip,
      change_pwd_scene: scene,
      pwd_complexity_error: broken,
      pwd_expired: expiry.expired,
      pwd_is_alterable: alterable,
      pwd_days_left: expiry.daysLeft,
      user_name: user.user_name,
    };
    if (scene !== 0 && alterable) {
      await audit.write({
        module: 'auth',
        action: 'login',
        target: user.user_name,
        success: true,
        detail: 'password change required',
        ip: meta.ip,
        user_id: user.id,
      });
      return { ...base, access_token: '', device_token: null };
    }
    let deviceToken: string | null = null;
    let deviceTokenId = options.deviceTokenId ?? null;
    if (options.period !== null) {
      deviceToken = newToken();
      const days = autoLoginDays[options.period];
      deviceTokenId = await repo.insertDeviceToken({
        user_id: user.id,
        token_hash: tokenDigest(deviceToken),
        period: options.period,
        expires_at: days === null ? null : now() + days * 86_400,
        ip: meta.ip.slice(0, 64),
        user_agent: meta.userAgent.slice(0, 300),
        created_at: now(),
        last_used_at: now(),
      });
    }
    const access_token = await openSession(user, meta, options.remember || options.period !== null, deviceTokenId);
    await audit.write({
      module: 'auth',
      action: options.deviceTokenId ? 'auto_login' : 'login',
      target: user.user_name,
      success: true,
      ...(options.via ? { detail: options.via } : {}),
      ip: meta.ip,
      user_id: user.id,
    });
    return { ...base, access_token, device_token: deviceToken };
  };

  return {
    /** Lets another module (LDAP) verify the passwords of its login type. */
    setPasswordChecker(loginType: number, check: (user: UserRow, password: string) => Promise<boolean>) {
      passwordCheckers.set(loginType, check);
    },

    async newCaptcha(): Promise<string> {
      const id = randomUUID();
      await repo.purgeCaptchas(now());
      await repo.insertCaptcha(id, newCaptchaCode(), now() + captchaTtlSeconds);
      return id;
    },

    /**
     * The image of a captcha id (PNG), or null when it is unknown or expired. It is drawn at the
     * first fetch and kept with the captcha: every fetch answers the same bytes, so fetching again
     * gives a script nothing new to combine (issue 27). Two first fetches at once keep one drawing.
     */
    async captchaImage(id: string): Promise<Buffer | null> {
      const row = await repo.findCaptcha(id);
      if (!row || row.expires_at < now()) return null;
      if (row.image) return Buffer.from(row.image);
      await repo.keepCaptchaImage(id, renderCaptcha(row.code));
      const kept = await repo.findCaptcha(id);
      return kept?.image ? Buffer.from(kept.image) : null;
    },

    async login(
      input: {
        user_name: string;
        password: string;
        captcha_id: string;
        captcha_code: string;
        remember: boolean;
        auto_login_period: AutoLoginPeriod | null;
      },
      meta: RequestMeta,
    ): Promise<LoginAnswer> {
      await checkCaptcha(input.captcha_id, input.captcha_code);
      await policy.checkTerminal(meta);
      const userName = decrypt(input.user_name).trim();
      const password = decrypt(input.password);
      const user = await verifyCredentials(userName, password, meta);
      await policy.checkAccount(user.id);
      return answerFor(user, password, meta, { remember: input.remember, period: input.auto_login_period });
    },

    /**
     * A login whose password another authority checks (`via`: the LDAP directory), with the same
     * captcha, encrypted fields, restrictions, account lock, attempt count, audit and session as
     * `login`. `check` gets the decrypted name and password and the local user of that name, and
     * answers the local user they prove, or null when they are wrong. Such users keep no password
     * here: no password rule or expiry applies, and no auto-login token is issued.
     */
    async loginVerifiedBy(
      via: string,
      input: { user_name: string; password: string; captcha_id: string; captcha_code: string; remember: boolean },
      meta: RequestMeta,
      check: (userName: string, password: string, user: UserRow | undefined) => Promise<UserRow | null>,
    ): Promise<LoginAnswer> {
      await checkCaptcha(input.captcha_id, input.captcha_code);
      await policy.checkTerminal(meta);
      const userName = decrypt(input.user_name).trim();
      const password = decrypt(input.password);
      const user = await verifyCredentials(userName, password, meta, {
        via,
        check: (row) => check(userName, password, row),
      });
      await policy.checkAccount(user.id);
      return answerFor(user, null, meta, { remember: input.remember, period: null, via });
    },

    async autoLogin(deviceToken: string, meta: RequestMeta): Promise<LoginAnswer> {
      const row = await repo.findDeviceTokenByHash(tokenDigest(deviceToken));
      const user = row ? await repo.findUserById(row.user_id) : undefined;
      const valid =
        row &&
        user &&
        row.revoked_at === null &&
        (row.expires_at === null || row.expires_at > now()) &&
        user.enable &&
        !(await stillLocked(user));
      if (!valid || !row || !user) {
        await audit.write({
          module: 'auth',
          action: 'auto_login',
          target: user?.user_name ?? '',
          success: false,
          ip: meta.ip,
        });
        throw new AppError('loginFailed', 'auth.autoLoginFailed');
      }
      await policy.checkTerminal(meta);
      await policy.checkAccount(user.id);
      await repo.touchDeviceToken(row.id, now());
      const answer = await answerFor(user, null, meta, { remember: true, period: null, deviceTokenId: row.id });
      if (!answer.access_token) throw new AppError('loginFailed', 'auth.autoLoginFailed');
      return answer;
    },

    async exit(principal: Principal, deviceToken: string | undefined, meta: RequestMeta) {
      await repo.revokeSession(principal.session_id, 'logout', now());
      if (deviceToken) {
        const row = await repo.findDeviceTokenByHash(tokenDigest(deviceToken));
        if (row && row.user_id === principal.user_id) await repo.revokeDeviceToken(row.id, now());
      }
      await audit.write({
        module: 'auth',
        action: 'logout',
        target: principal.user_name,
        success: true,
        ip: meta.ip,
        user_id: principal.user_id,
        user_name: principal.user_name,
      });
    },

    /** Resolves a bearer token; enforces idle timeout, disabled and locked accounts on the server. */
    async authenticate(token: string, meta?: RequestMeta): Promise<AuthResult> {
      if (token.length > 128) return { reason: 'unknown' };
      const session = await repo.findSessionByHash(tokenDigest(token));
      if (!session) return { reason: 'unknown' };
      if (session.revoked_at !== null) return { reason: (session.revoke_reason ?? 'revoked') as RejectReason };
      const time = now();
      if (!session.enable || session.locked_at !== null) {
        await repo.revokeSession(session.id, 'disabled', time);
        return { reason: 'disabled' };
      }
      const { acc_logout_config } = await config.get('ACCOUNT_SAFE');
      if (acc_logout_config.enabled && time - session.last_seen_at > acc_logout_config.opt_period * 60) {
        await repo.revokeSession(session.id, 'idle', time);
        return { reason: 'idle' };
      }
      // Activity is what the user did, as the client reports it (clamped to [last seen, now]);
      // a request without the report counts as activity at its own time.
      const activity = Math.min(time, Math.max(session.last_seen_at, meta?.lastActivity ?? time));
      if (activity - session.last_seen_at >= touchEverySeconds) await repo.touchSession(session.id, activity);
      return { principal: { user_id: session.user_id, user_name: session.user_name, session_id: session.id } };
    },

    /**
     * Of these sessions, the ones still in force, idle timeout included; read-only (touches nothing),
     * so the push channel can re-check its sockets every second without keeping them from idling out.
     */
    async liveSessions(ids: number[]): Promise<Set<number>> {
      const live = new Set<number>();
      if (ids.length === 0) return live;
      const time = now();
      const { acc_logout_config } = await config.get('ACCOUNT_SAFE');
      for (let i = 0; i < ids.length; i += 500) {
        for (const row of await repo.liveSessions(ids.slice(i, i + 500))) {
          if (acc_logout_config.enabled && time - row.last_seen_at > acc_logout_config.opt_period * 60) continue;
          live.add(row.id);
        }
      }
      return live;
    },

    async changePassword(principal: Principal, oldEnc: string, newEnc: string, language: Language, meta: RequestMeta) {
      const user = await repo.findUserById(principal.user_id);
      if (!user) throw new AppError('notLoggedIn');
      const oldPassword = decrypt(oldEnc);
      const newPassword = decrypt(newEnc);
      const right = await throttled(
        user.user_name,
        meta.ip,
        () => verifyPassword(user.password_hash, oldPassword),
        (ok) => ok,
      );
      if (!right) {
        await audit.write({
          module: 'auth',
          action: 'change_password',
          target: user.user_name,
          success: false,
          detail: 'old password wrong',
          ip: meta.ip,
          user_id: user.id,
          user_name: user.user_name,
        });
        throw new AppError('badRequest', 'auth.oldPasswordWrong');
      }
      await setPassword(user, oldPassword, newPassword, language, meta);
    },

    async changePasswordWithoutLogin(
      input: {
        user_name: string;
        old_password: string;
        new_password: string;
        captcha_id: string;
        captcha_code: string;
      },
      language: Language,
      meta: RequestMeta,
    ) {
      await checkCaptcha(input.captcha_id, input.captcha_code);
      const oldPassword = decrypt(input.old_password);
      const newPassword = decrypt(input.new_password);
      const user = await verifyCredentials(input.user_name.trim(), oldPassword, meta);
      if (user.login_type !== 1) throw new AppError('forbidden');
      await setPassword(user, oldPassword, newPassword, language, meta);
    },

    /**
     * The verification password of sensitive actions (002 §5.3, §6): the caller's own password,
     * encrypted like any password, checked again on the server.
     */
    async verifyOwnPassword(principal: Principal, encryptedPassword: string, from?: { ip: string }) {
      const plain = loginKey.decrypt(encryptedPassword);
      if (!plain) throw new AppError('badRequest', 'users.verifyPasswordEmpty');
      const user = await repo.findUserById(principal.user_id);
      if (!user) throw new AppError('notLoggedIn');
      const checker = passwordCheckers.get(user.login_type);
      // A stolen session must not become a password oracle: the same budget as a login.
      const valid = await throttled(
        user.user_name,
        from?.ip ?? '',
        () => (checker ? checker(user, plain) : verifyPassword(user.password_hash, plain)),
        (ok) => ok,
      );
      if (!valid) {
        await audit.write({
          module: 'auth',
          action: 'verify_password',
          target: principal.user_name,
          success: false,
          user_id: principal.user_id,
          user_name: principal.user_name,
        });
        throw new AppError('badRequest', 'users.verifyPasswordWrong');
      }
    },

    /** Decrypts a password an administrator sets for a user and checks the rules (and ≥ 6 on creation). */
    async acceptNewPassword(encryptedPassword: string, userName: string, language: Language): Promise<string> {
      const plain = decrypt(encryptedPassword);
      if ([...plain].length < 6) throw new AppError('badRequest', 'users.passwordTooShort');
      const broken = checkPassword(
        { password: plain, userName, isCommon: isCommonPassword },
        await config.get('PWD_COMPLEXITY'),
      );
      if (broken.length > 0) throw passwordRulesError(broken, language);
      return hashPassword(plain);
    },

    /** Ends every session and auto-login of a user (disabled, blocked, password reset by an administrator). */
    async endSessions(userId: number, reason: 'disabled' | 'password_changed' | 'revoked') {
      await repo.revokeUserSessions(userId, reason, now());
      await repo.revokeUserDeviceTokens(userId, now());
    },

    async setLanguage(principal: Principal, language: string) {
      if (isLanguage(language)) await repo.setLanguage(principal.user_id, language, now());
    },

    async listDeviceTokens(principal: Principal, everyone: boolean) {
      const rows = await repo.listDeviceTokens(everyone ? null : principal.user_id, now());
      const mine = await repo.sessionDeviceToken(principal.session_id);
      return rows.map((row) => ({ ...row, current: row.id === mine }));
    },

    async revokeDeviceToken(principal: Principal, id: number, isAdmin: boolean) {
      const row = await repo.findDeviceToken(id);
      if (!row || (row.user_id !== principal.user_id && !isAdmin)) throw new AppError('notFound');
      await repo.revokeDeviceToken(id, now());
      await audit.write({
        module: 'auth',
        action: 'revoke_device_token',
        target: String(id),
        success: true,
        user_id: principal.user_id,
        user_name: principal.user_name,
      });
    },
  };

  async function setPassword(
    user: UserRow,
    oldPassword: string,
    newPassword: string,
    language: Language,
    meta: RequestMeta,
  ) {
    const rules = await config.get('PWD_COMPLEXITY');
    const broken = checkPassword(
      { password: newPassword, userName: user.user_name, oldPassword, isCommon: isCommonPassword },
      rules,
    );
    // A forced change must at least change the password, whatever the rules say.
    if (newPassword === oldPassword && !broken.includes('differFromOld')) broken.push('differFromOld');
    if (broken.length > 0) throw passwordRulesError(broken, language);
    const time = now();
    await repo.updatePassword(user.id, await hashPassword(newPassword), time);
    await repo.revokeUserSessions(user.id, 'password_changed', time);
    await repo.revokeUserDeviceTokens(user.id, time);
    await audit.write({
      module: 'auth',
      action: 'change_password',
      target: user.user_name,
      success: true,
      ip: meta.ip,
      user_id: user.id,
      user_name: user.user_name,
    });
  }
};

export type AuthService = ReturnType<typeof createAuthService>;

/**
 * Makes user id 1 `admin` (role 1, default user group) on an empty database, with a random password that must be
 * changed at first login; returns that password once, or null when users exist.
 */
export const ensureAdmin = async (repo: AuthRepository, clock: () => number = Date.now): Promise<string | null> => {
  if ((await repo.countUsers()) > 0) return null;
  const password = randomBytes(12).toString('base64url');
  const time = nowSeconds(clock());
  const id = await repo.insertUser({
    ...newUserDefaults(time),
    user_name: 'admin',
    alias: 'Administrator',
    password_hash: await hashPassword(password),
  });
  await repo.addUserRole(id, 1);
  // Group 1 is the default user group made by the users migration.
  await repo.addUserGroup(id, 1);
  return password;
};
