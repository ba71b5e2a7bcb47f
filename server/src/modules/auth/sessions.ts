import { randomBytes } from 'node:crypto';
import { checkPassword, nowSeconds, passwordExpiry } from '@sitewatch/contract';
import { type AutoLoginPeriod, autoLoginDays, changePwdScenes, type LoginAnswer } from '@sitewatch/contract/auth';
import type { AuthResult, Principal, RejectReason } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { RequestMeta } from './credentials.ts';
import { isCommonPassword, tokenDigest } from './passwords.ts';
import type { AuthRepository, UserRow } from './repository.ts';

/** Session activity is written at most this often (the idle rule needs minutes, not seconds). */
const touchEverySeconds = 15;

const newToken = () => randomBytes(32).toString('base64url');

/**
 * Sessions and auto-login device tokens: opaque tokens stored hashed (so logout, idle timeout,
 * password change and single-terminal login really revoke them), and the answer a proven login gets.
 */
export const createSessions = ({
  repo,
  config,
  audit,
  clock,
}: {
  repo: AuthRepository;
  config: GlobalConfig;
  audit: AuditLog;
  clock: () => number;
}) => {
  const now = () => nowSeconds(clock());

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
        detail: { code: 'passwordChangeRequired' },
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
      ...(options.via ? { detail: { code: 'via', params: { via: options.via.toUpperCase() } } } : {}),
      ip: meta.ip,
      user_id: user.id,
    });
    return { ...base, access_token, device_token: deviceToken };
  };

  return {
    answerFor,

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

    /** Ends every session and auto-login of a user (disabled, blocked, password reset by an administrator). */
    async endSessions(userId: number, reason: 'disabled' | 'password_changed' | 'revoked') {
      await repo.revokeUserSessions(userId, reason, now());
      await repo.revokeUserDeviceTokens(userId, now());
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
};

export type Sessions = ReturnType<typeof createSessions>;
