import { httpsMenu, httpsRoutes } from '@sitewatch/contract/https';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AuthService } from '../auth/index.ts';
import type { HttpsService } from './service.ts';

export { createAcmeIssuer } from './acme.ts';
export { createHttpsService, type HttpsService } from './service.ts';

/**
 * The routes of 002 §7.2 `setting/https` and the ACME challenge. Reading needs the page, every
 * change its `edit` function; installing a key also the verification password (002 §5.3). The
 * shared trail logs each change (module codes `setting/https…`); the key is never in an answer.
 */
export const registerHttpsRoutes = (
  app: FastifyInstance,
  service: HttpsService,
  auth: Pick<AuthService, 'verifyOwnPassword'>,
) => {
  const view = { permission: { menu: httpsMenu } } as const;
  const edit = { permission: { menu: httpsMenu, func: 'edit' } } as const;
  addRoute(app, httpsRoutes.get, () => service.state(), view);
  addRoute(app, httpsRoutes.set, ({ body }) => service.setSettings(body), { ...edit, messageKey: 'https.saved' });
  addRoute(
    app,
    httpsRoutes.upload,
    async ({ body, request }) => {
      await auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      return service.upload(body.cert_file, body.key_file);
    },
    // Two PEM texts of up to 64 kB each, beside the password.
    { ...edit, messageKey: 'https.installed', bodyLimit: 262_144 },
  );
  addRoute(app, httpsRoutes.domain, ({ body }) => service.setDomain(body.domain), {
    ...edit,
    messageKey: 'https.saved',
  });
  addRoute(app, httpsRoutes.issue, () => service.issue(), { ...edit, messageKey: 'https.issued' });
  addRoute(
    app,
    httpsRoutes.rootCert,
    async ({ reply }) => {
      const pem = await service.rootCert();
      reply
        .type('application/x-pem-file')
        .header('content-disposition', 'attachment; filename="root-cert.pem"')
        .send(pem);
      return pem;
    },
    view,
  );
  // Public: the CA asks it; only tokens of this server's own orders in flight are answered.
  addRoute(
    app,
    httpsRoutes.challenge,
    async ({ params, reply }) => {
      const answer = service.challenges.answer(params.token);
      if (answer === undefined) throw notFound();
      reply.type('text/plain').send(answer);
      return answer;
    },
    { auth: false },
  );
};
