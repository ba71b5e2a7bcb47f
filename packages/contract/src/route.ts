import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * One endpoint of the API, declared once: the server registers it, the web calls it, both
 * validate with the same schemas. `path` is relative to `/api/v1/` unless it starts with `/`.
 */
export interface RouteSpec {
  method: HttpMethod;
  path: string;
  summary: string;
  tags?: string[];
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Schema of the `data` field of a successful answer. */
  response: z.ZodType;
  /** A read sent as POST (a query too large for a URL): a read-only API token may call it. */
  reads?: true;
}

export const defineRoute = <const R extends RouteSpec>(route: R): R => route;

/** Full URL path of a route, under `/api/v1/` unless it is absolute. */
export const routeUrl = (route: Pick<RouteSpec, 'path'>): string =>
  route.path.startsWith('/') ? route.path : `/api/v1/${route.path}`;

export type RouteData<R extends RouteSpec> = z.infer<R['response']>;
export type RouteBody<R extends RouteSpec> = R['body'] extends z.ZodType ? z.input<R['body']> : never;
export type RouteQuery<R extends RouteSpec> = R['query'] extends z.ZodType ? z.input<R['query']> : never;
