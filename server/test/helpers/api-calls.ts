import { expect } from 'vitest';
import type { TestApp } from './build-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A suite's calls of the API with a bearer token (the administrator's unless told), messages in
 * Chinese: `call` answers the status and the body, `ok` expects 200 and answers the data.
 */
export const apiCalls = (t: TestApp) => {
  const call = async (method: Method, url: string, payload?: unknown, token = 'admin-token') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'zh-CN' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (method: Method, url: string, payload?: unknown, token?: string) => {
    const res = await call(method, url, payload, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  return { call, ok };
};
