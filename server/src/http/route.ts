import { envelope, errorEnvelope, type RouteSpec, routeUrl, sharedText } from '@sitewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { requestLanguage } from './envelope.ts';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface RouteInput<R extends RouteSpec> {
  params: Infer<R['params']>;
  query: Infer<R['query']>;
  body: Infer<R['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteOptions {
  /** Text of a successful answer's `message`, a key of the shared locale files. */
  messageKey?: string;
  /** Whether the route needs a signed-in user (default true; public routes say false). */
  auth?: boolean;
  /**
   * The page (menu id) and function the caller must hold, or 'admin' (user 1 or role 1 only).
   * Checked before validation of the body, so a refused call learns nothing about its input.
   */
  permission?: { menu: number; func?: string } | 'admin';
  /** Requests a minute per address (@fastify/rate-limit), for routes open to guessing. */
  rateLimit?: { max: number; timeWindow: number };
  /** Largest body in bytes, for the few routes whose input is larger than the app's default (1 MB). */
  bodyLimit?: number;
}

/** What a route requires: a page (and function), the administrator, any signed-in user (null), or nobody ('public'). */
export type RouteRequirement = RouteOptions['permission'] | null | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: boolean;
    /** A read sent as POST: a read-only API token may call it (http/auth.ts). */
    reads?: boolean;
    /**
     * What the route requires, recorded per app by the composition root (`Sitewatch.routes`): the
     * authorization matrices read it, so that no route escapes them. Routes made without `addRoute`
     * set it themselves.
     */
    requirement?: RouteRequirement;
  }
}

/** The requirement a route's config records (a route without one: public when it skips sign-in). */
export const requirementOf = (config: { auth?: boolean; requirement?: RouteRequirement } | undefined) =>
  config?.requirement !== undefined ? config.requirement : config?.auth === false ? 'public' : null;

/**
 * Registers one contract route: validation of params, query and body by the contract's
 * schemas, the envelope around the handler's result, and the schemas in the OpenAPI document.
 * Handlers stay thin: validate (done here), call one service function, return its data.
 */
export const addRoute = <R extends RouteSpec>(
  app: FastifyInstance,
  spec: R,
  handler: (input: RouteInput<R>) => Promise<z.infer<R['response']>> | z.infer<R['response']>,
  options: RouteOptions = {},
) => {
  app.route({
    method: spec.method,
    url: routeUrl(spec),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    config: {
      auth: options.auth ?? true,
      requirement: options.auth === false ? 'public' : (options.permission ?? null),
      ...(spec.reads ? { reads: true } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    },
    ...(options.permission
      ? {
          preValidation: async (request: FastifyRequest) => {
            await request.server.access.require(request, options.permission!);
          },
        }
      : {}),
    schema: {
      summary: spec.summary,
      tags: spec.tags,
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response: { 200: envelope(spec.response), '4xx': errorEnvelope },
    },
    handler: async (request, reply) => {
      const data = await handler({
        params: request.params as Infer<R['params']>,
        query: request.query as Infer<R['query']>,
        body: request.body as Infer<R['body']>,
        request,
        reply,
      });
      if (reply.sent) return reply;
      return {
        code: 0,
        message: sharedText(requestLanguage(request), options.messageKey ?? 'errors.ok'),
        data,
      };
    },
  });
};
