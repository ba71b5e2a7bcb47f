import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Db } from './db/kysely.ts';
import { type Authenticator, registerAuthHook } from './http/auth.ts';
import { registerErrorHandling } from './http/envelope.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security.ts';
import { registerWebApp } from './http/web.ts';
import { registerHealth } from './modules/health/index.ts';
import type { PushHub } from './push/hub.ts';
import { registerPushChannel } from './push/routes.ts';

export interface AppDeps {
  db: Db;
  push: PushHub;
  authenticator: Authenticator;
  /** Built web app to serve; none in API-only tests. */
  webDir?: string | undefined;
  logLevel?: string;
  bodyLimitBytes?: number;
}

/** Removes the spec client's `t` (epoch seconds) from bodies and queries: accepted and ignored. */
const dropT = (value: unknown) => {
  if (value && typeof value === 'object' && !Array.isArray(value) && 't' in value) {
    delete (value as Record<string, unknown>).t;
  }
};

/**
 * Builds the whole HTTP app: the http plugins first, then each area's `register` from a short
 * list. Tests call it with their own database and fakes.
 */
export const buildApp = async (deps: AppDeps): Promise<FastifyInstance> => {
  const app = Fastify({
    logger: { level: deps.logLevel ?? 'info' },
    bodyLimit: deps.bodyLimitBytes ?? 1_048_576,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While closing, answers in flight end their keep-alive connection, so close() need not wait
  // for the keep-alive timeout after the last answer.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('preValidation', async (request) => {
    dropT(request.body);
    dropT(request.query);
  });

  await registerSecurityHeaders(app);
  await registerOpenApi(app);
  registerMetrics(app);
  registerAuthHook(app, deps.authenticator);
  await registerPushChannel(app, deps.push, deps.authenticator);

  registerHealth(app, deps);

  await registerWebApp(app, deps.webDir);
  return app;
};
