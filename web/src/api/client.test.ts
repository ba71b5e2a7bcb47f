import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ClientEnv, createApiClient } from './client.ts';

const texts = {
  'http.network': '由于网络波动，请稍后重试！',
  'http.notFound': '找不到数据或api不存在！',
  'http.parseFailed': '解析失败',
  'http.timeout': 'timeout',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const setup = (answer: Response | (() => Promise<Response>), overrides: Partial<ClientEnv> = {}) => {
  const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) =>
    typeof answer === 'function' ? answer() : answer.clone(),
  );
  const env: ClientEnv = {
    fetch: fetch as unknown as typeof globalThis.fetch,
    token: () => 'tok',
    tokenInSession: () => false,
    clearTokens: vi.fn(),
    pathname: () => '/home',
    goToLogin: vi.fn(),
    text: (key) => texts[key],
    language: () => 'zh_cn',
    now: () => 1_700_000_000_500,
    ...overrides,
  };
  return { client: createApiClient(env), fetch, env };
};

describe('request client (000 §7, §8)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the bearer token, the language and t on GET queries and POST bodies', async () => {
    const { client, fetch } = setup(json(200, { code: 0, message: 'ok', data: { a: 1 } }));
    expect(await client.send('GET', '/api/v1/x', { query: { page: 1 } })).toEqual({ a: 1 });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/x?page=1&t=1700000000');
    const headers = init?.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok');
    expect(headers['accept-language']).toBe('zh_cn');
    await client.send('POST', '/api/v1/y', { body: { name: 'n' } });
    expect(JSON.parse(String(fetch.mock.calls[1]?.[1]?.body))).toEqual({ name: 'n', t: 1700000000 });
  });

  it('reads Code as well as code, and Data', async () => {
    const { client } = setup(json(200, { Code: 0, Data: { Records: [] } }));
    expect(await client.send('GET', '/x')).toEqual({ Records: [] });
  });

  it('throws the server message on a non-zero code', async () => {
    const { client } = setup(json(200, { code: 7, message: '名称重复', data: null }));
    await expect(client.send('GET', '/x')).rejects.toMatchObject({ message: '名称重复', code: 7 });
  });

  it('code -2 goes to login, except on the login page', async () => {
    const first = setup(json(200, { code: -2, message: 'x' }));
    await expect(first.client.send('GET', '/x')).rejects.toBeInstanceOf(ApiError);
    await vi.runAllTimersAsync();
    expect(first.env.goToLogin).toHaveBeenCalledOnce();
    const onLogin = setup(json(200, { code: -2, message: 'x' }), { pathname: () => '/login' });
    await expect(onLogin.client.send('GET', '/x')).rejects.toBeInstanceOf(ApiError);
    await vi.runAllTimersAsync();
    expect(onLogin.env.goToLogin).not.toHaveBeenCalled();
  });

  it('HTTP 401 clears the tokens and goes to login after 300 ms', async () => {
    const { client, env } = setup(json(401, { code: -2, message: 'expired' }));
    await expect(client.send('GET', '/x')).rejects.toMatchObject({ status: 401 });
    await vi.advanceTimersByTimeAsync(299);
    expect(env.goToLogin).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(env.clearTokens).toHaveBeenCalledOnce();
    expect(env.goToLogin).toHaveBeenCalledOnce();
  });

  it('HTTP 401 on the site-map editor with a session token stays', async () => {
    const { client, env } = setup(json(401, { code: -2, message: 'expired' }), {
      pathname: () => '/groupmap_edit',
      tokenInSession: () => true,
    });
    await expect(client.send('GET', '/x')).rejects.toMatchObject({ status: 401 });
    await vi.runAllTimersAsync();
    expect(env.goToLogin).not.toHaveBeenCalled();
  });

  it('maps 5xx, 404 and other statuses to the catalogue texts', async () => {
    await expect(setup(json(502, {})).client.send('GET', '/x')).rejects.toMatchObject({
      message: texts['http.network'],
    });
    await expect(setup(json(404, { code: 40400 })).client.send('GET', '/x')).rejects.toMatchObject({
      message: texts['http.notFound'],
    });
    await expect(setup(json(403, { code: 40300, message: '无权限' })).client.send('GET', '/x')).rejects.toMatchObject({
      message: '无权限',
      status: 403,
    });
  });

  it('a network failure gives the network text', async () => {
    const { client } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.send('GET', '/x')).rejects.toMatchObject({ message: texts['http.network'], status: 0 });
  });
});
