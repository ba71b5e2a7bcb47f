import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notLoggedIn } from './errors.ts';

/** Who is calling: resolved from the bearer token by the sessions area. */
export interface Principal {
  user_id: number;
  user_name: string;
  session_id: number;
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
  });
};
