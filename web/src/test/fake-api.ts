import type { RouteSpec } from '@sitewatch/contract';
import type { z } from 'zod';

type Input = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
type Handler = (input: Input) => unknown;

const key = (route: Pick<RouteSpec, 'method' | 'path'>) => `${route.method} ${route.path}`;
const handlers = new Map<string, Handler>();
/** The calls the page made, in order, as the contract parsed them (what the server would see). */
export const requests: { route: string; params: unknown; query: unknown; body: unknown }[] = [];

/**
 * The answer of one route for the test; it is parsed by the route's response schema, so it cannot
 * drift from the contract. A promise answers when it settles (a slow server).
 */
export const answer = <R extends RouteSpec>(
  route: R,
  handler: (input: Input) => z.input<R['response']> | Promise<z.input<R['response']>>,
) => {
  handlers.set(key(route), handler as Handler);
};

export const resetApi = () => {
  handlers.clear();
  requests.length = 0;
};

export const requestsTo = (route: Pick<RouteSpec, 'method' | 'path'>) => requests.filter((r) => r.route === key(route));

/**
 * `api.call` as the server meets it: params, query and body must pass the route's schemas (a request
 * the server would refuse fails the test), and the answer must pass its response schema.
 */
export const fakeCall = async (route: RouteSpec, input: Input = {}) => {
  const params = route.params?.parse(input.params ?? {});
  const query = route.query?.parse(input.query ?? {});
  const body = route.body?.parse(input.body);
  requests.push({ route: key(route), params, query, body });
  const handler = handlers.get(key(route));
  if (!handler) throw new Error(`no answer for ${key(route)}`);
  return route.response.parse(await handler(input));
};
