import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, notLoggedIn } from './errors.ts';

/** Who is calling: resolved from the bearer token by the sessions area. */
export interface Principal {
  user_id: number;
  user_name: string;
  /**
   * The session; for a personal API token, minus the token's id, so that revocation checks by
   * session id (the push channel's sweep) cover tokens too.
   */
  session_id: number;
  /** Set when the caller came with a personal API token rather than a session (docs/api.md). */
  api_token?: { id: number; read_only: boolean };
}

/** Why a token was not accepted: unknown, or revoked for a reason the user is told. */
export type RejectReason = 'unknown' | 'logout' | 'idle' | 'replaced' | 'password_changed' | 'disabled' | 'revoked';

export type AuthResult = { principal: Principal } | { reason: RejectReason };

/** Turns a bearer token into a principal, or the reason it is not accepted. */
export interface Authenticator {
  authenticate(token: string, request?: FastifyRequest): Promise<AuthResult>;
  /** Of these session ids, the ones still in force (read-only): the push channel's re-check. */
  liveSessions?(sessionIds: number[]): Promise<Set<number>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export const bearerToken = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S{1,512})$/i.exec(header);
  return match?.[1] ?? null;
};

/**
 * Every API route needs a signed-in user unless it says `config: { auth: false }`: a missing,
 * expired or revoked token is HTTP 401 with code -2 (DESIGN.md conventions).
 */
export const registerAuthHook = (app: FastifyInstance, authenticator: Authenticator) => {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    let reason: RejectReason = 'unknown';
    if (token) {
      const result = await authenticator.authenticate(token, request);
      if ('principal' in result) request.principal = result.principal;
      else reason = result.reason;
    }
    // Unmatched URLs (404 handler) pass; API routes need a principal unless they say otherwise;
    // the docs, metrics and web files are public.
    const url = request.routeOptions.url;
    if (!url) return;
    const needsAuth = request.routeOptions.config.auth ?? url.startsWith('/api/v1/');
    // A revoked session says why (logout, idle, another terminal…), so the login page can tell.
    if (needsAuth && !request.principal) throw notLoggedIn(reason === 'unknown' ? undefined : `auth.revoked.${reason}`);
    // A read-only API token reads (GET, or a read sent as POST): anything else is refused first.
    const reads = readMethods.has(request.method) || request.routeOptions.config.reads === true;
    if (needsAuth && request.principal?.api_token?.read_only && !reads) throw forbidden('tokens.readOnly');
  });
};
