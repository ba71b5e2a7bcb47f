import { type RouteSpec, routeUrl } from '@sitewatch/contract';
import type { z } from 'zod';
import { currentLanguage, i18n } from '../i18n/index.ts';
import { clearTokens, lastActivityKey, readToken, signOutReasonKey, tokenIsInSession } from './tokens.ts';

/** Request timeouts (000 §7, §9). */
export const requestTimeoutMs = 300_000;
export const downloadTimeoutMs = 600_000;
/** Delay before leaving for the login page on HTTP 401 (000 §8). */
export const signOutDelayMs = 300;

/** An answer that is not a success, with the text to show in the current language. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ClientEnv {
  fetch: typeof fetch;
  token: () => string | null;
  tokenInSession: () => boolean;
  clearTokens: () => void;
  /** Current path name, to apply the login and site-map editor exceptions. */
  pathname: () => string;
  goToLogin: () => void;
  text: (key: 'http.network' | 'http.notFound' | 'http.parseFailed' | 'http.timeout') => string;
  language: () => string;
  now: () => number;
  /** Epoch ms of the user's last activity, reported to the server for its idle rule. */
  lastActivity?: () => number | null;
  /** Keeps the server's reason when a session ends, for the login page. */
  rememberSignOutReason?: (message: string) => void;
}

export interface RequestOptions {
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  /** A file download: longer timeout, answer returned as a Blob. */
  download?: boolean;
  signal?: AbortSignal;
}

const isPage = (pathname: string, page: string) => pathname.replace(/\/+$/, '').replace(/\.html$/, '') === `/${page}`;

/** One part of a call's input: required when its schema requires a field, absent when the route has none. */
type CallField<K extends string, S> = S extends z.ZodType
  ? Record<string, never> extends z.input<S>
    ? { [P in K]?: z.input<S> }
    : { [P in K]: z.input<S> }
  : { [P in K]?: never };
export type CallInput<R extends RouteSpec> = CallField<'params', R['params']> &
  CallField<'query', R['query']> &
  CallField<'body', R['body']>;
type CallArgs<R extends RouteSpec> =
  Record<string, never> extends CallInput<R>
    ? [input?: CallInput<R>, options?: Omit<RequestOptions, 'query' | 'body'>]
    : [input: CallInput<R>, options?: Omit<RequestOptions, 'query' | 'body'>];

/**
 * The request client of 000 §7 and §8: bearer token, `t` on every call, timeouts, the envelope
 * (`code` or `Code`, 0 success, -2 to login) and the HTTP error texts.
 */
export const createApiClient = (env: ClientEnv) => {
  let leaving = false;
  const leaveForLogin = (delayMs: number, reason?: string) => {
    if (reason) env.rememberSignOutReason?.(reason);
    if (leaving) return;
    leaving = true;
    setTimeout(() => {
      env.clearTokens();
      env.goToLogin();
      leaving = false;
    }, delayMs);
  };

  const send = async (method: string, url: string, options: RequestOptions = {}): Promise<unknown> => {
    const t = Math.floor(env.now() / 1000);
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const one of Array.isArray(value) ? value : [value]) search.append(key, String(one));
    }
    const headers: Record<string, string> = { 'accept-language': env.language() };
    const token = env.token();
    if (token) headers.authorization = `Bearer ${token}`;
    const activity = env.lastActivity?.();
    if (activity) headers['x-last-activity'] = String(Math.floor(activity / 1000));
    let body: BodyInit | undefined;
    if (method === 'GET' || (method === 'DELETE' && options.body === undefined)) {
      search.set('t', String(t));
    } else if (options.body instanceof FormData) {
      options.body.set('t', String(t));
      body = options.body;
    } else {
      headers['content-type'] = 'application/json';
      const payload = options.body && typeof options.body === 'object' ? options.body : {};
      body = JSON.stringify(Array.isArray(payload) ? payload : { ...payload, t });
    }
    const timeout = AbortSignal.timeout(options.download ? downloadTimeoutMs : requestTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const query = search.toString();

    let response: Response;
    try {
      response = await env.fetch(query ? `${url}?${query}` : url, { method, headers, body, signal });
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
      throw new ApiError(env.text(timedOut ? 'http.timeout' : 'http.network'), 0, null);
    }
    const pathname = env.pathname();
    if (response.status === 401 && !isPage(pathname, 'login')) {
      // The site-map editor keeps working on a token held for its session (000 §8).
      if (!(env.tokenInSession() && isPage(pathname, 'groupmap_edit'))) {
        const reason = await response
          .clone()
          .json()
          .then((body: { message?: string }) => body.message)
          .catch(() => undefined);
        leaveForLogin(signOutDelayMs, reason);
      }
    }
    if (response.status >= 500) throw new ApiError(env.text('http.network'), response.status, null);
    if (response.status === 404) {
      const payload = await response.json().catch(() => null);
      throw new ApiError(env.text('http.notFound'), 404, payload?.code ?? null);
    }
    if (options.download && response.ok && !response.headers.get('content-type')?.includes('application/json')) {
      return response.blob();
    }
    let payload: { code?: number; Code?: number; message?: string; msg?: string; data?: unknown; Data?: unknown };
    try {
      payload = await response.json();
    } catch {
      if (!response.ok) throw new ApiError(response.statusText || env.text('http.network'), response.status, null);
      throw new ApiError(env.text('http.parseFailed'), response.status, null);
    }
    const code = payload.code ?? payload.Code ?? null;
    const message = payload.message ?? payload.msg ?? '';
    if (!response.ok) throw new ApiError(message || response.statusText, response.status, code, payload.data);
    if (code === 0) return 'Data' in payload && !('data' in payload) ? payload.Data : payload.data;
    if (code === -2 && !isPage(pathname, 'login') && !isPage(pathname, 'groupmap_edit')) leaveForLogin(0);
    throw new ApiError(message, response.status, code, payload.data);
  };

  /**
   * Calls a contract route: params, query and body are typed by the route's schemas (what the
   * server validates), and the answer's data is parsed with its response schema.
   */
  const call = async <R extends RouteSpec>(
    route: R,
    ...[input = {} as CallInput<R>, options = {}]: CallArgs<R>
  ): Promise<z.infer<R['response']>> => {
    const params = (input as { params?: Record<string, unknown> }).params;
    const url = routeUrl(route).replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent(String(params?.[name] ?? '')),
    );
    const data = await send(route.method, url, {
      ...options,
      query: (input as { query?: Record<string, unknown> }).query,
      body: (input as { body?: unknown }).body,
    });
    return route.response.parse(data) as z.infer<R['response']>;
  };

  return { send, call };
};

export const api = createApiClient({
  fetch: (...args) => fetch(...args),
  token: readToken,
  tokenInSession: tokenIsInSession,
  clearTokens,
  pathname: () => window.location.pathname,
  goToLogin: () => window.location.assign('/login'),
  text: (key) => i18n.t(key),
  language: currentLanguage,
  now: () => Date.now(),
  lastActivity: () => Number(localStorage.getItem(lastActivityKey)) || null,
  rememberSignOutReason: (message) => sessionStorage.setItem(signOutReasonKey, message),
});
