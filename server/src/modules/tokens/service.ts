import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { nowSeconds } from '@sitewatch/contract';
import {
  type ApiTokenCreated,
  type ApiTokenRow,
  type apiTokenInput,
  apiTokenMaxPerUser,
  apiTokenPattern,
} from '@sitewatch/contract/tokens';
import type { z } from 'zod';
import type { AuthResult, Principal } from '../../http/auth.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { ipAllowed, type LoginPolicy } from '../auth/index.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { ApiTokenRepository } from './repository.ts';

/** Last use is written at most this often (a script polling every second must not write every second). */
const touchEverySeconds = 60;

const digest = (token: string) => createHash('sha256').update(token).digest();

export interface ApiTokenDeps {
  repo: ApiTokenRepository;
  /** The account block list and allow list of the security settings, as a login checks them. */
  policy: Pick<LoginPolicy, 'checkAccount'>;
  config: GlobalConfig;
  audit: AuditLog;
  clock?: () => number;
}

type Listed = Awaited<ReturnType<ApiTokenRepository['listLive']>>[number];
const toRow = (row: Listed): ApiTokenRow => ({ ...row, read_only: row.read_only === 1 });

/**
 * Personal API tokens (docs/api.md, "API tokens"): `swt_<prefix>_<secret>`, 12 + 43 characters of
 * base64url (72 + 256 random bits). The prefix finds the row; the SHA-256 of the whole token is
 * compared in constant time. A token acts as its user: the grants are the user's at each request,
 * and it stops at once when the user is disabled, locked, blocked or left out of the allow list.
 */
export const createApiTokenService = ({ repo, policy, config, audit, clock = Date.now }: ApiTokenDeps) => {
  const now = () => nowSeconds(clock());

  /** Token management needs a signed-in session: a leaked token cannot make itself new ones. */
  const sessionOnly = (principal: Principal) => {
    if (principal.api_token) throw forbidden('tokens.sessionOnly');
  };

  return {
    isApiToken: (token: string) => token.startsWith('swt_'),

    async create(principal: Principal, input: z.output<typeof apiTokenInput>, ip: string): Promise<ApiTokenCreated> {
      sessionOnly(principal);
      const time = now();
      if ((await repo.countLive(principal.user_id, time)) >= apiTokenMaxPerUser) {
        throw badRequest('tokens.tooMany', { max: apiTokenMaxPerUser });
      }
      const prefix = randomBytes(9).toString('base64url');
      const token = `swt_${prefix}_${randomBytes(32).toString('base64url')}`;
      const id = await repo.insert({
        user_id: principal.user_id,
        name: input.name,
        prefix,
        token_hash: digest(token).toString('hex'),
        read_only: input.read_only ? 1 : 0,
        created_at: time,
        expires_at: time + input.expires_in_days * 86_400,
        last_used_at: null,
        last_used_ip: '',
        revoked_at: null,
      });
      await audit.write({
        module: 'api_tokens',
        action: 'create',
        target: `${input.name} (swt_${prefix})`,
        success: true,
        detail: {
          code: input.read_only ? 'tokenExpiresReadOnly' : 'tokenExpires',
          params: { days: input.expires_in_days },
        },
        ip,
        user_id: principal.user_id,
        user_name: principal.user_name,
      });
      const row = await repo.findListed(id);
      if (!row) throw new AppError('notFound');
      return { ...toRow(row), token };
    },

    async list(principal: Principal, everyone: boolean): Promise<ApiTokenRow[]> {
      return (await repo.listLive(everyone ? null : principal.user_id, now())).map(toRow);
    },

    /** Revokes at once; another user's token only for the administrator (else it does not exist: 404). */
    async revoke(principal: Principal, id: number, isAdmin: boolean, ip: string) {
      sessionOnly(principal);
      const row = await repo.findListed(id);
      if (!row || (row.user_id !== principal.user_id && !isAdmin)) throw notFound();
      await repo.revoke(id, now());
      await audit.write({
        module: 'api_tokens',
        action: 'revoke',
        target: `${row.name} (swt_${row.prefix})`,
        success: true,
        ...(row.user_id !== principal.user_id
          ? { detail: { code: 'tokenOfUser', params: { user: row.user_name } } }
          : {}),
        ip,
        user_id: principal.user_id,
        user_name: principal.user_name,
      });
    },

    /** Resolves an API token to its user, or why it is refused; every check runs on every request. */
    async authenticate(token: string, ip: string | undefined): Promise<AuthResult> {
      const match = apiTokenPattern.exec(token);
      if (!match) return { reason: 'unknown' };
      const row = await repo.findByPrefix(match[1]!);
      // The digest is compared even for an unknown prefix, so timing says nothing of which exist.
      const presented = digest(token);
      const stored = row ? Buffer.from(row.token_hash, 'hex') : Buffer.alloc(32);
      const equal = stored.length === 32 && timingSafeEqual(presented, stored);
      if (!row || !equal) return { reason: 'unknown' };
      if (row.revoked_at !== null) return { reason: 'revoked' };
      const time = now();
      if (row.expires_at <= time) return { reason: 'unknown' };
      if (!row.enable || row.locked_at !== null) return { reason: 'disabled' };
      try {
        await policy.checkAccount(row.user_id);
      } catch {
        return { reason: 'disabled' };
      }
      // The login address rule of the security settings holds for scripts as for browsers.
      if (ip !== undefined && !ipAllowed(ip, (await config.get('LOGIN_SAFE')).allowed_ips)) {
        return { reason: 'unknown' };
      }
      if (row.last_used_at === null || time - row.last_used_at >= touchEverySeconds) {
        await repo.touch(row.id, time, (ip ?? '').slice(0, 64));
      }
      return {
        principal: {
          user_id: row.user_id,
          user_name: row.user_name,
          session_id: -row.id,
          api_token: { id: row.id, read_only: row.read_only === 1 },
        },
      };
    },

    /** Of these token ids, the ones still in force (read-only), for the push channel's sweep. */
    async liveIds(ids: number[]): Promise<Set<number>> {
      const live = new Set<number>();
      for (let i = 0; i < ids.length; i += 500) {
        for (const id of await repo.liveIds(ids.slice(i, i + 500), now())) live.add(id);
      }
      return live;
    },
  };
};

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
