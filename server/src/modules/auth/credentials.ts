import {
  checkPassword,
  type Language,
  nowSeconds,
  type PasswordRule,
  passwordMaxLength,
  sharedText,
} from '@sitewatch/contract';
import { AppError } from '../../http/errors.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { LoginKey } from './login-key.ts';
import { decoyVerify, hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import type { AuthRepository, UserRow } from './repository.ts';
import { createLoginThrottle } from './throttle.ts';

/** The first-start administrator: never locked by failed logins, throttled instead (docs/users.md). */
const administratorId = 1;

export interface RequestMeta {
  ip: string;
  userAgent: string;
  /** Epoch seconds of the user's last keyboard or mouse activity, as the client reports it. */
  lastActivity?: number | undefined;
}

export const passwordRulesError = (rules: PasswordRule[], language: Language) =>
  new AppError(
    'passwordRules',
    undefined,
    { rules: rules.map((r) => sharedText(language, `password.rules.${r}`)).join('；') },
    rules.map((rule) => ({ path: 'new_password', message: rule })),
  );

/**
 * What every way in checks of the credentials it is given: the encrypted fields, the captcha, the
 * account lock and the brute-force budget around each password check, and the password rules of a
 * new password. The sign-in flows of service.ts are made of these.
 */
export const createCredentialChecks = ({
  repo,
  config,
  loginKey,
  audit,
  clock,
  onPasswordChanged,
}: {
  repo: AuthRepository;
  config: GlobalConfig;
  loginKey: LoginKey;
  audit: AuditLog;
  clock: () => number;
  onPasswordChanged?: ((userId: number) => Promise<void>) | undefined;
}) => {
  const now = () => nowSeconds(clock());
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
        detail: { code: 'accountLocked' },
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
        detail: external
          ? { code: 'wrongPasswordVia', params: { via: external.via.toUpperCase() } }
          : { code: 'wrongPassword' },
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
            detail: { code: 'autoLock' },
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

  /** Sets a new password after the old one was proven: the rules, then every session and auto-login ends. */
  const setPassword = async (
    user: UserRow,
    oldPassword: string,
    newPassword: string,
    language: Language,
    meta: RequestMeta,
  ) => {
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
    await onPasswordChanged?.(user.id);
  };

  return { throttled, decrypt, checkCaptcha, stillLocked, verifyCredentials, setPassword };
};

export type CredentialChecks = ReturnType<typeof createCredentialChecks>;
