import { createHash } from 'node:crypto';
import { defaultLoginSafe } from '@sitewatch/contract/auth';
import { apiTokenPattern } from '@sitewatch/contract/tokens';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Db } from '../src/db/kysely.ts';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { fakeTokens, useManualTestApp, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser, loginHeader } from './helpers/login.ts';

/** Every row of every table as text: a secret stored anywhere in clear would be in it. */
const everyRow = async (db: Db): Promise<string> => {
  const names =
    db.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public'`;
  const parts: string[] = [];
  for (const { name } of (await names.execute(db.kysely)).rows) {
    const { rows } = await sql`select * from ${sql.table(name)}`.execute(db.kysely);
    parts.push(`${name}\n${rows.map((r) => JSON.stringify(r)).join('\n')}`);
  }
  return parts.join('\n');
};

describeEachDatabase('personal API tokens', (dialect) => {
  // Every log line of the app, at the most verbose level (requests are logged at debug).
  const logLines: string[] = [];
  const t = useTestApp(dialect, { logLevel: 'trace', logStream: { write: (line) => void logLines.push(line) } });
  const sites = { north: 0, south: 0 };
  let northId = 0;
  const secrets: string[] = [];

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, bearer: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${bearer}` },
      ...(payload ? { payload } : {}),
    });
  /** Makes a token from a signed-in session (a fake session token of the suite). */
  const makeToken = async (session: string, body: object = { name: 'script', expires_in_days: 30 }) => {
    const res = await call('POST', 'user/api_tokens', session, body);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    secrets.push(data.token);
    return data as { id: number; token: string; prefix: string; expires_at: number; read_only: boolean };
  };

  beforeAll(async () => {
    const k = t.database.db.kysely;
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    sites.north = (
      await call('POST', 'setting/device_groups', 'admin-token', { name: 'North room', weight: 1 })
    ).json().data.id;
    sites.south = (
      await call('POST', 'setting/device_groups', 'admin-token', { name: 'South room', weight: 1 })
    ).json().data.id;
    // Role 7: the station page (101) and the north site only.
    await k.insertInto('roles').values({ id: 7, name: 'north only', remark: '', created_at: 0 }).execute();
    await k.insertInto('role_sites').values({ role_id: 7, site_id: sites.north }).execute();
    await k.insertInto('role_menus').values({ role_id: 7, menu_id: 101 }).execute();
    northId = await createUser(t.database.db, 'north', 'North-Pass-123', [7]);
    fakeTokens['north-session'] = { user_id: northId, user_name: 'north', session_id: 7001 };
  });

  describe('scope', () => {
    it("a token reads what its user may read, only the user's sites, and is refused what the user may not", async () => {
      const { token } = await makeToken('north-session');
      expect(token).toMatch(apiTokenPattern);

      const tree = JSON.stringify((await call('GET', 'device_groups/menu', token)).json().data);
      expect(tree).toContain('North room');
      expect(tree).not.toContain('South room');
      const list = (await call('GET', 'setting/device_groups', token)).json().data;
      expect(list.data.map((s: { name: string }) => s.name)).toEqual(['North room']);
      expect((await call('GET', `setting/device_groups/${sites.south}`, token)).statusCode).toBe(404);
      expect((await call('GET', 'user/current', token)).json().data).toMatchObject({
        user_name: 'north',
        site_ids: [sites.north],
      });

      // The user has no user page and no add function on the sites page: neither has the token.
      expect((await call('GET', 'setting/users', token)).statusCode).toBe(403);
      const before = await snapshotDigest(t.database.db);
      expect((await call('POST', 'setting/device_groups', token, { name: 'Mine', weight: 1 })).statusCode).toBe(403);
      expect(await snapshotDigest(t.database.db)).toBe(before);

      // The grants are the user's at each request: a grant given later reaches the token at once.
      await t.database.db.kysely.insertInto('role_menus').values({ role_id: 7, menu_id: 221 }).execute();
      expect((await call('GET', 'setting/users', token)).statusCode).toBe(200);
      await t.database.db.kysely.deleteFrom('role_menus').where('menu_id', '=', 221).execute();
      expect((await call('GET', 'setting/users', token)).statusCode).toBe(403);

      // The administrator's token reaches everything its user does.
      const admin = await makeToken('admin-token');
      expect((await call('GET', 'setting/users', admin.token)).statusCode).toBe(200);
      const all = (await call('GET', 'setting/device_groups', admin.token)).json().data;
      expect(all.data.map((s: { name: string }) => s.name).sort()).toEqual(['North room', 'South room']);
    });

    it('a read-only token reads (GET, and reads sent as POST) and is refused every write, even as administrator', async () => {
      const ro = await makeToken('admin-token', { name: 'dashboard', expires_in_days: 7, read_only: true });
      expect(ro.read_only).toBe(true);
      expect((await call('GET', 'setting/users', ro.token)).statusCode).toBe(200);
      const before = await snapshotDigest(t.database.db);
      const refused = await call('POST', 'setting/device_groups', ro.token, { name: 'RO', weight: 1 });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('只读令牌不能执行修改操作！');
      expect((await call('DELETE', `setting/device_groups/${sites.south}`, ro.token)).statusCode).toBe(403);
      expect(await snapshotDigest(t.database.db)).toBe(before);
      // A history query is a read sent as POST: not refused by the read-only rule.
      const history = await call('POST', 'data_historys', ro.token, {
        item_ids: [1],
        t1: 1_700_000_000,
        t2: 1_700_003_600,
      });
      expect(history.statusCode).not.toBe(403);
      expect(history.statusCode).not.toBe(401);
    });

    it('tokens are managed from a session only: a token cannot make or revoke tokens', async () => {
      const { id, token } = await makeToken('north-session');
      // First use (its last-use time is written then, at most once a minute).
      expect((await call('GET', 'user/current', token)).statusCode).toBe(200);
      const before = await snapshotDigest(t.database.db);
      expect((await call('POST', 'user/api_tokens', token, { name: 'child', expires_in_days: 365 })).statusCode).toBe(
        403,
      );
      expect((await call('DELETE', `user/api_tokens/${id}`, token)).statusCode).toBe(403);
      expect(await snapshotDigest(t.database.db)).toBe(before);
    });
  });

  describe('life', () => {
    it('an expired token answers 401', async () => {
      const { id, token, expires_at } = await makeToken('north-session', { name: 'short', expires_in_days: 1 });
      const now = Math.floor(Date.now() / 1000);
      expect(expires_at - now).toBeGreaterThan(86_300);
      expect(expires_at - now).toBeLessThanOrEqual(86_400);
      expect((await call('GET', 'user/current', token)).statusCode).toBe(200);
      await t.database.db.kysely
        .updateTable('api_tokens')
        .set({ expires_at: now - 1 })
        .where('id', '=', id)
        .execute();
      const res = await call('GET', 'user/current', token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(-2);
      // Expired tokens leave the list.
      const listed = (await call('GET', 'user/api_tokens', 'north-session')).json().data.data;
      expect(listed.map((r: { id: number }) => r.id)).not.toContain(id);
    });

    it('a revoked token answers 401 at once; the revocation is in the operation log', async () => {
      const { id, token, prefix } = await makeToken('north-session', { name: 'to revoke', expires_in_days: 30 });
      expect((await call('GET', 'user/current', token)).statusCode).toBe(200);
      expect((await call('DELETE', `user/api_tokens/${id}`, 'north-session')).statusCode).toBe(200);
      expect((await call('GET', 'user/current', token)).statusCode).toBe(401);
      const log = await t.database.db.kysely
        .selectFrom('operation_logs')
        .select(['action', 'user_name', 'target'])
        .where('module', '=', 'api_tokens')
        .where('target', 'like', `%${prefix}%`)
        .orderBy('id')
        .execute();
      expect(log).toEqual([
        { action: 'create', user_name: 'north', target: `to revoke (swt_${prefix})` },
        { action: 'revoke', user_name: 'north', target: `to revoke (swt_${prefix})` },
      ]);
    });

    it("a disabled or locked user's tokens answer 401 at once", async () => {
      const { token } = await makeToken('north-session');
      const k = t.database.db.kysely;
      expect((await call('GET', 'user/current', token)).statusCode).toBe(200);
      await k.updateTable('users').set({ enable: 0 }).where('id', '=', northId).execute();
      expect((await call('GET', 'user/current', token)).statusCode).toBe(401);
      await k.updateTable('users').set({ enable: 1, locked_at: 1 }).where('id', '=', northId).execute();
      expect((await call('GET', 'user/current', token)).statusCode).toBe(401);
      await k.updateTable('users').set({ locked_at: null }).where('id', '=', northId).execute();
      // Blocked by the security settings' block list: refused too.
      await k
        .insertInto('account_blocks')
        .values({ user_id: northId, reason: 'test', created_at: 0, expires_at: null } as never)
        .execute();
      expect((await call('GET', 'user/current', token)).statusCode).toBe(401);
      await k.deleteFrom('account_blocks').where('user_id', '=', northId).execute();
      // Enabled and unblocked again, an unrevoked, unexpired token works again (docs/api.md).
      expect((await call('GET', 'user/current', token)).statusCode).toBe(200);
    });

    it('the login address rule of the security settings holds for tokens', async () => {
      const { token } = await makeToken('north-session');
      // Set from 10.1.2.3 (a setting that would lock out its own caller is refused).
      const setIps = (allowed_ips: string[]) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/setting/gc',
          remoteAddress: '10.1.2.3',
          headers: { authorization: 'Bearer admin-token' },
          payload: { k: 'LOGIN_SAFE', v: { ...defaultLoginSafe, captcha_enabled: false, allowed_ips } },
        });
      const set = await setIps(['10.0.0.0/8']);
      expect(set.statusCode, set.body).toBe(200);
      // Requests come from 127.0.0.1: outside the allowed addresses now.
      expect((await call('GET', 'user/current', token)).statusCode).toBe(401);
      expect((await setIps(['127.0.0.0/8', '10.0.0.0/8'])).statusCode).toBe(200);
      expect((await call('GET', 'user/current', token)).statusCode).toBe(200);
      expect((await setIps(defaultLoginSafe.allowed_ips)).statusCode).toBe(200);
    });

    it("another user's token cannot be revoked by a non-administrator; the administrator can", async () => {
      const admins = await makeToken('admin-token', { name: 'admin script', expires_in_days: 30 });
      const before = await snapshotDigest(t.database.db);
      expect((await call('DELETE', `user/api_tokens/${admins.id}`, 'north-session')).statusCode).toBe(404);
      expect(await snapshotDigest(t.database.db)).toBe(before);
      expect((await call('GET', 'user/current', admins.token)).statusCode).toBe(200);
      // A non-administrator lists only their own tokens, and may not ask for everyone's.
      const own = (await call('GET', 'user/api_tokens', 'north-session')).json().data.data;
      expect(own.every((r: { user_name: string }) => r.user_name === 'north')).toBe(true);
      expect((await call('GET', 'user/api_tokens?all=1', 'north-session')).statusCode).toBe(403);

      const norths = await makeToken('north-session', { name: 'north script', expires_in_days: 30 });
      const everyone = (await call('GET', 'user/api_tokens?all=1', 'admin-token')).json().data.data;
      expect(everyone.map((r: { id: number }) => r.id)).toContain(norths.id);
      expect((await call('DELETE', `user/api_tokens/${norths.id}`, 'admin-token')).statusCode).toBe(200);
      expect((await call('GET', 'user/current', norths.token)).statusCode).toBe(401);
    });
  });

  describe('input', () => {
    it('an empty name, an expiry beyond the maximum or below one day is 400 and changes nothing', async () => {
      const before = await snapshotDigest(t.database.db);
      for (const body of [
        { name: '', expires_in_days: 30 },
        { name: '   ', expires_in_days: 30 },
        { name: 'x'.repeat(65), expires_in_days: 30 },
        { name: 'ok', expires_in_days: 366 },
        { name: 'ok', expires_in_days: 0 },
        { name: 'ok', expires_in_days: 1.5 },
        { name: 'ok', expires_in_days: 30, user_id: 1 },
      ]) {
        const res = await call('POST', 'user/api_tokens', 'north-session', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
      const res = await call('POST', 'user/api_tokens', 'north-session', { name: 'ok', expires_in_days: 366 });
      expect(res.json().message).toContain('有效期必须是1到365天之间的整数！');
      expect(await snapshotDigest(t.database.db)).toBe(before);
    });

    it('a malformed or made-up token is 401, not 500', async () => {
      for (const bad of [
        'swt_',
        'swt_short_secret',
        `swt_${'A'.repeat(12)}_${'B'.repeat(43)}`,
        `swt_${'é'.repeat(60)}`,
      ]) {
        const res = await call('GET', 'user/current', bad);
        expect(res.statusCode, bad).toBe(401);
      }
    });
  });

  describe('secrecy', () => {
    it('the secret is shown once, kept only as its SHA-256, and never in the database, the operation log or the log', async () => {
      const { id, token } = await makeToken('north-session', { name: 'secret check', expires_in_days: 30 });
      expect((await call('GET', 'user/current', token)).statusCode).toBe(200);
      expect((await call('POST', 'setting/device_groups', token, { name: 'No', weight: 1 })).statusCode).toBe(403);
      await call('GET', 'user/current', `${token}x`);

      // The list never answers a secret.
      const listed = (await call('GET', 'user/api_tokens', 'north-session')).json().data.data;
      const row = listed.find((r: { id: number }) => r.id === id);
      expect(row).toBeDefined();
      expect(row.token).toBeUndefined();
      for (const s of secrets) expect(JSON.stringify(listed)).not.toContain(s.slice(-43));

      // The database keeps the digest only.
      const stored = await t.database.db.kysely
        .selectFrom('api_tokens')
        .select('token_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      const rows = await everyRow(t.database.db);
      expect(rows).toContain(stored.token_hash);
      expect(secrets.length).toBeGreaterThan(8);
      for (const s of secrets) expect(rows).not.toContain(s.slice(-43));

      // The log saw these requests (so it was captured), never a secret.
      const log = logLines.join('');
      expect(log).toContain('/api/v1/user/api_tokens');
      expect(log).toContain('/api/v1/user/current');
      for (const s of secrets) expect(log).not.toContain(s.slice(-43));
      expect(log.toLowerCase()).not.toContain('bearer');
    });
  });
});

describeEachDatabase('API tokens on the push channel', (dialect) => {
  // Real sign-in; the channel's session sweep (every 250 ms) runs on the app's own clock, moved by
  // the test, and the sockets' close is awaited as an event.
  const t = useManualTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } },
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
  });

  /** A socket signed in with `token`; resolves once ready, with a promise of its close code. */
  const connect = async (port: number, token: string) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const ready = new Promise<string>((resolve) =>
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw));
        if (message.type === 'ready' || message.type === 'error') resolve(message.type);
      }),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'auth', token }));
    return { answer: await ready, closed };
  };

  it('a token signs in the push channel; revoking it or disabling its user closes the socket within a second', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const userId = await createUser(t.database.db, 'watcher', 'Watch-Pass-123');
    const session = await loginHeader(t.app, 'watcher', 'Watch-Pass-123');
    const make = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/user/api_tokens',
          headers: session,
          payload: { name: 'push', expires_in_days: 1 },
        })
      ).json().data as { id: number; token: string };
    /** The next sweep after `act` (250 ms of the app's clock, within the second) closes the socket. */
    const closesWithin = async (closed: Promise<number>, act: () => Promise<unknown>) => {
      await act();
      await t.clock.advance(250);
      expect(await closed).toBe(4401);
    };

    const first = await make();
    const socket = await connect(port, first.token);
    expect(socket.answer).toBe('ready');
    // Sweeps while the token is live leave the socket open.
    await t.clock.advance(1_000);
    await closesWithin(socket.closed, () =>
      t.app.inject({ method: 'DELETE', url: `/api/v1/user/api_tokens/${first.id}`, headers: session }),
    );
    // A revoked token does not sign in again.
    expect((await connect(port, first.token)).answer).toBe('error');

    const second = await make();
    const other = await connect(port, second.token);
    expect(other.answer).toBe('ready');
    await closesWithin(other.closed, () =>
      t.database.db.kysely.updateTable('users').set({ enable: 0 }).where('id', '=', userId).execute(),
    );
  });
});
