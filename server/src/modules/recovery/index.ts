import { recoveryRoutes } from '@sitewatch/contract/recovery';
import type { FastifyInstance } from 'fastify';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import type { RecoveryService } from './service.ts';

export { issueRecoveryCode, recoveryFileName } from './code-file.ts';
export { createRecoveryService, type RecoveryService } from './service.ts';

/**
 * Public: the administrator is locked out and has no session. Guessing is bounded three ways: 10
 * requests a minute per address, 5 wrong codes destroy the code, and a code lives 15 minutes.
 */
export const registerRecovery = (app: FastifyInstance, recovery: RecoveryService) => {
  addRoute(app, recoveryRoutes.rootLogin, ({ body, request }) => recovery.rootLogin(body.code, { ip: request.ip }), {
    auth: false,
    messageKey: 'recovery.accepted',
    rateLimit: { max: 10, timeWindow: 60_000 },
  });
  addRoute(
    app,
    recoveryRoutes.restPassword,
    ({ body, request }) =>
      recovery.resetPassword(body.reset_token, body.new_password, requestLanguage(request), { ip: request.ip }),
    { auth: false, messageKey: 'recovery.done', rateLimit: { max: 10, timeWindow: 60_000 } },
  );
};
