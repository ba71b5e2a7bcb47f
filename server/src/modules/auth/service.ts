import { randomBytes, randomUUID } from 'node:crypto';
import { checkPassword, isLanguage, type Language, nowSeconds } from '@sitewatch/contract';
import type { AutoLoginPeriod, LoginAnswer } from '@sitewatch/contract/auth';
import type { Principal } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { newCaptchaCode, renderCaptcha } from './captcha.ts';
import { createCredentialChecks, passwordRulesError, type RequestMeta } from './credentials.ts';
import type { LoginKey } from './login-key.ts';
import type { LoginPolicy } from './login-policy.ts';
import { hashPassword, isCommonPassword, tokenDigest, verifyPassword } from './passwords.ts';
import { type AuthRepository, newUserDefaults, type UserRow } from './repository.ts';
import { createSessions } from './sessions.ts';

export type { RequestMeta } from './credentials.ts';

/** A captcha is kept this long and accepted once. */
export const captchaTtlSeconds = 120;

export interface AuthDeps {
  repo: AuthRepository;
  /** Terminal and account restrictions of the security settings. */
  policy: LoginPolicy;
  config: GlobalConfig;
  loginKey: LoginKey;
  audit: AuditLog;
  clock?: () => number;
  /** Who checks the password of users whose login type is not local (LDAP users: the directory). */
  passwordCheckers?: () => readonly PasswordChecker[];
  /** Told after a user's password changed (the first administrator's password file goes). */
  onPasswordChanged?: (userId: number) => Promise<void>;
}

/** Checks the passwords of one login type instead of the stored hash (the LDAP area's directory). */
export interface PasswordChecker {
  loginType: number;
  check(user: UserRow, password: string): Promise<boolean>;
}

/**
 * Sign-in and sessions: captchas, encrypted credentials, account lock, password rules and forced
 * changes, opaque session tokens stored hashed (so logout, idle timeout, password change and
 * single-terminal login really revoke them), and auto-login device tokens. The checks of the
 * credentials are in credentials.ts, the sessions and device tokens in sessions.ts; this joins them
 * into the ways in (login, directory login, auto-login) and the password changes.
 */
export const createAuthService = ({
  repo,
  policy,
  config,
  loginKey,
  audit,
  clock = Date.now,
  passwordCheckers = () => [],
  onPasswordChanged,
}: AuthDeps) => {
  const now = () => nowSeconds(clock());
  const checkerOf = (loginType: number) => passwordCheckers().find((c) => c.loginType === loginType)?.check;
  const { throttled, decrypt, checkCaptcha, stillLocked, verifyCredentials, setPassword } = createCredentialChecks({
    repo,
    config,
    loginKey,
    audit,
    clock,
    onPasswordChanged,
  });
  const { answerFor, ...sessions } = createSessions({ repo, config, audit, clock });

  return {
    ...sessions,

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
          detail: { code: 'oldPasswordWrong' },
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
      const checker = checkerOf(user.login_type);
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

    /** The first administrator (user 1): the one account the recovery path restores (docs/recovery.md). */
    async firstAdministrator(): Promise<{ id: number; user_name: string } | undefined> {
      const user = await repo.findUserById(1);
      return user && { id: user.id, user_name: user.user_name };
    },

    /**
     * Gives a locked-out account back to its owner (the recovery path): the new password (a hash of
     * acceptNewPassword), enabled and unlocked, every session of it ended.
     */
    async restoreAccess(userId: number, passwordHash: string) {
      await repo.restoreAccess(userId, passwordHash, now());
      await sessions.endSessions(userId, 'password_changed');
    },

    async setLanguage(principal: Principal, language: string) {
      if (isLanguage(language)) await repo.setLanguage(principal.user_id, language, now());
    },
  };
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
