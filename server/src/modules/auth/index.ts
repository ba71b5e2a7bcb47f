import { authRoutes } from '@sitewatch/contract/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestLanguage } from '../../http/envelope.ts';
import { notFound, notLoggedIn } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import type { GlobalConfig } from '../global-config/index.ts';
import type { LoginKey } from './login-key.ts';
import type { AuthService, RequestMeta } from './service.ts';

export { createLoginKey, generateLoginKeyPem, type LoginKey, loadOrCreateLoginKey } from './login-key.ts';
export { createLoginPolicy, ipAllowed, type LoginPolicy, terminalRefusal } from './login-policy.ts';
export { createAuthRepository, newUserDefaults } from './repository.ts';
export {
  type AuthService,
  createAuthService,
  ensureAdmin,
  type PasswordChecker,
  type RequestMeta,
} from './service.ts';

/**
 * Requests a minute from one address on each login route: an outer limit only; password guesses
 * are met by the brute-force budget of every password check (throttle.ts).
 */
export const loginRateLimit = { max: 60, timeWindow: 60_000 };

export const requestMeta = (request: FastifyRequest): RequestMeta => {
  const reported = Number(request.headers['x-last-activity']);
  return {
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
    lastActivity: Number.isFinite(reported) && reported > 0 ? Math.floor(reported) : undefined,
  };
};

const principalOf = (request: FastifyRequest) => {
  if (!request.principal) throw notLoggedIn();
  return request.principal;
};

export const registerAuth = (
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    loginKey: LoginKey;
    config: GlobalConfig;
    access: AccessService;
    rateLimit: { max: number; timeWindow: number };
  },
) => {
  const { auth, loginKey, config, access } = deps;
  const limited = { auth: false, rateLimit: deps.rateLimit } as const;

  addRoute(app, authRoutes.captchaId, async () => ({ captcha_id: await auth.newCaptcha() }), limited);

  app.get(
    '/api/v1/pub/login/captcha',
    {
      config: { auth: false, rateLimit: deps.rateLimit },
      schema: {
        summary:
          'The captcha image (PNG) of a captcha id: drawn at the first request, the same bytes on every later one',
        tags: ['auth'],
        querystring: z.object({ id: z.string().min(1).max(64) }),
      },
    },
    async (request, reply) => {
      const image = await auth.captchaImage((request.query as { id: string }).id);
      if (image === null) throw notFound();
      return reply.type('image/png').header('cache-control', 'no-store').send(image);
    },
  );

  addRoute(
    app,
    authRoutes.loginParams,
    async () => ({
      public_key: loginKey.publicKey,
      algorithm: 'RSA-OAEP-256' as const,
      captcha_enabled: (await config.get('LOGIN_SAFE')).captcha_enabled,
      ldap_enabled: (await config.get('LDAP')).enabled,
    }),
    { auth: false },
  );

  addRoute(app, authRoutes.login, ({ body, request }) => auth.login(body, requestMeta(request)), {
    ...limited,
    messageKey: 'auth.loginSuccess',
  });

  addRoute(app, authRoutes.autoLogin, ({ body, request }) => auth.autoLogin(body.device_token, requestMeta(request)), {
    ...limited,
    messageKey: 'auth.loginSuccess',
  });

  addRoute(
    app,
    authRoutes.exit,
    async ({ body, request }) => {
      await auth.exit(principalOf(request), body?.device_token, requestMeta(request));
      return null;
    },
    { messageKey: 'auth.logoutSuccess' },
  );

  addRoute(
    app,
    authRoutes.passwordChange,
    async ({ body, request }) => {
      await auth.changePassword(
        principalOf(request),
        body.old_password,
        body.new_password,
        requestLanguage(request),
        requestMeta(request),
      );
      return null;
    },
    { messageKey: 'auth.passwordChanged' },
  );

  addRoute(
    app,
    authRoutes.passwordChangeWithoutLogin,
    async ({ body, request }) => {
      await auth.changePasswordWithoutLogin(body, requestLanguage(request), requestMeta(request));
      return null;
    },
    { ...limited, messageKey: 'auth.passwordChanged' },
  );

  addRoute(app, authRoutes.menuLanguage, async ({ body, request }) => {
    await auth.setLanguage(principalOf(request), body.language);
    return null;
  });

  addRoute(app, authRoutes.serverTime, () => ({ server_time: Math.floor(Date.now() / 1000) }));

  addRoute(app, authRoutes.myDeviceTokens, async ({ query, request }) => {
    const principal = principalOf(request);
    const everyone = query.all === '1';
    if (everyone) await access.require(request, 'admin');
    const data = await auth.listDeviceTokens(principal, everyone);
    return { total: data.length, data };
  });

  addRoute(app, authRoutes.revokeDeviceToken, async ({ params, request }) => {
    const principal = principalOf(request);
    const isAdmin = (await access.forUser(principal.user_id)).all;
    await auth.revokeDeviceToken(principal, params.id, isAdmin);
    return null;
  });
};
