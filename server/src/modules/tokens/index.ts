import { tokensRoutes } from '@sitewatch/contract/tokens';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import type { Authenticator, Principal } from '../../http/auth.ts';
import { notLoggedIn } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import { createLoginPolicy } from '../auth/index.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { createApiTokenRepository } from './repository.ts';
import { type ApiTokenService, createApiTokenService } from './service.ts';

export { type ApiTokenService, createApiTokenService } from './service.ts';

interface Deps {
  db: Db;
  config: GlobalConfig;
  audit: AuditLog;
  clock: () => number;
}

/** The token service over the database (stateless: the routes and the authenticator may each hold one). */
export const apiTokenService = ({ db, config, audit, clock }: Deps): ApiTokenService =>
  createApiTokenService({
    repo: createApiTokenRepository(db),
    policy: createLoginPolicy(db, config, clock),
    config,
    audit,
    clock,
  });

/**
 * Accepts personal API tokens (`swt_…`) wherever `base` accepts a session token: the auth hook and
 * the push channel both use the result. Token principals carry minus the token id as session id,
 * so the push channel's re-check of live sessions covers revoked or expired tokens too.
 */
export const withApiTokens = (base: Authenticator, tokens: ApiTokenService): Authenticator => {
  const baseLive = base.liveSessions?.bind(base);
  return {
    authenticate: (token, request) =>
      tokens.isApiToken(token) ? tokens.authenticate(token, request?.ip) : base.authenticate(token, request),
    ...(baseLive
      ? {
          async liveSessions(ids: number[]) {
            const live = await baseLive(ids.filter((id) => id > 0));
            const tokenIds = ids.filter((id) => id < 0).map((id) => -id);
            if (tokenIds.length > 0) for (const id of await tokens.liveIds(tokenIds)) live.add(-id);
            return live;
          },
        }
      : {}),
  };
};

/** The routes of the user's own API tokens (docs/api.md, "API tokens"). */
export const registerApiTokens = (app: FastifyInstance, deps: Deps & { access: AccessService }) => {
  const tokens = apiTokenService(deps);
  const principalOf = (request: { principal: Principal | null }) => {
    if (!request.principal) throw notLoggedIn();
    return request.principal;
  };

  addRoute(app, tokensRoutes.list, async ({ query, request }) => {
    const principal = principalOf(request);
    const everyone = query.all === '1';
    if (everyone) await deps.access.require(request, 'admin');
    const data = await tokens.list(principal, everyone);
    return { total: data.length, data };
  });

  addRoute(app, tokensRoutes.create, async ({ body, request }) =>
    tokens.create(principalOf(request), body, request.ip),
  );

  addRoute(app, tokensRoutes.revoke, async ({ params, request }) => {
    const principal = principalOf(request);
    const isAdmin = (await deps.access.forUser(principal.user_id)).all;
    await tokens.revoke(principal, params.id, isAdmin, request.ip);
    return null;
  });
};
