import type { AlarmRow } from '@sitewatch/contract/alarms';
import { defaultLoginSafe } from '@sitewatch/contract/auth';
import { expect, it } from 'vitest';
import WebSocket from 'ws';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin, createUser, encryptFor, loginHeader, publicKeyOf } from './helpers/login.ts';

// Single-terminal on for the suite: each case signs in its own user, so only the single-terminal case
// signs in twice.
const defaults = {
  ...builtInDefaults,
  LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false, single_terminal: true },
};

const alarmAt = (siteId: number, id: number): AlarmRow => ({
  status_id: id,
  item_id: 1,
  device_id: 1,
  device_group_id: siteId,
  device_group_name: 'site',
  device_name: 'device',
  item_name: 'item',
  kind: 'threshold',
  status: 2,
  status_label: 'abnormal',
  level: 1,
  color: '#f00',
  info: '',
  value: 1,
  start_time: 0,
  end_time: null,
  last_check: 0,
  handling: 0,
  remarks: '',
  confirmed_by: '',
  jitter: 0,
  roles: '[]',
  users: '[]',
  videos: '[]',
});

describeEachDatabase('push channel follows revocation and grants', (dialect) => {
  // The session sweep runs on the app's own clock, moved by the test; the sockets are real, and what
  // reaches them is awaited as an event.
  const t = useManualTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: defaults,
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
  });
  const state = {} as {
    port: number;
    admin: Record<string, string>;
    north: number;
    south: number;
    functionId: number;
    nextAlarm: number;
  };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });

  /** A signed-in socket that records every alarm it receives, and tells when one arrives or it closes. */
  const connect = async (authorization: string) => {
    const ws = new WebSocket(`ws://127.0.0.1:${state.port}/api/v1/ws`);
    const alarms: number[] = [];
    const waiting = new Map<number, () => void>();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const ready = new Promise<void>((resolve) =>
      ws.on('message', (raw) => {
        const message = JSON.parse(String(raw));
        if (message.type === 'ready') resolve();
        if (message.type === 'alarm') {
          alarms.push(message.alarm.status_id);
          waiting.get(message.alarm.status_id)?.();
        }
      }),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'auth', token: authorization.replace(/^Bearer /, '') }));
    await ready;
    /** Resolves when the alarm has arrived (the socket is real: its messages take real time). */
    const arrived = (alarm: number) =>
      alarms.includes(alarm) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(alarm, resolve));
    return { ws, alarms, closed, arrived };
  };
  const raise = (siteId: number) => {
    state.nextAlarm += 1;
    t.sitewatch.bus.publish('alarm.raised', { alarm: alarmAt(siteId, state.nextAlarm) });
    return state.nextAlarm;
  };
  let users = 0;
  /** A user of role 7 (north and south), signed in. */
  const newUser = async () => {
    users += 1;
    const name = `watcher${users}`;
    const id = await createUser(t.database.db, name, 'Watch-Pass-123', [7]);
    return { id, name, header: await loginHeader(t.app, name, 'Watch-Pass-123') };
  };
  /**
   * Revokes, then checks the next session sweep closes the socket (one sweep: 250 ms of the app's
   * clock, within the second the spec allows) and that nothing is pushed to it after.
   */
  const expectClosedWithinASecond = async (
    socket: Awaited<ReturnType<typeof connect>>,
    revoke: () => Promise<unknown>,
  ) => {
    const before = raise(state.north);
    await socket.arrived(before);
    await revoke();
    await t.clock.advance(250);
    expect(await socket.closed).toBe(4401);
    const after = raise(state.north);
    await t.sitewatch.settled();
    expect(socket.alarms).not.toContain(after);
  };

  it('sets up an administrator, two sites and a role over both', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    state.port = (t.app.server.address() as { port: number }).port;
    state.nextAlarm = 0;
    const first = await createFirstAdmin(t.database.db);
    const key = await publicKeyOf(t.app);
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/password_without_login',
      payload: {
        user_name: 'admin',
        old_password: encryptFor(key, first),
        new_password: encryptFor(key, 'Admin-Strong-91'),
      },
    });
    state.admin = await loginHeader(t.app, 'admin', 'Admin-Strong-91');
    state.north = (
      await call('POST', 'setting/device_groups', state.admin, { name: 'North', weight: 1 })
    ).json().data.id;
    state.south = (
      await call('POST', 'setting/device_groups', state.admin, { name: 'South', weight: 1 })
    ).json().data.id;
    state.functionId = (await call('GET', 'setting/func', state.admin)).json().data.list[0].id;
    const k = t.database.db.kysely;
    await k.insertInto('roles').values({ id: 7, name: 'both rooms', remark: '', created_at: 0 }).execute();
    await k
      .insertInto('role_sites')
      .values([
        { role_id: 7, site_id: state.north },
        { role_id: 7, site_id: state.south },
      ])
      .execute();
    await k.insertInto('role_menus').values({ role_id: 7, menu_id: 101 }).execute();
  });

  it('logout closes the socket within a second', async () => {
    const user = await newUser();
    const socket = await connect(user.header.authorization);
    await expectClosedWithinASecond(socket, async () => {
      const res = await call('POST', 'pub/login/exit', user.header, {});
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  it('disabling the user closes the socket within a second', async () => {
    const user = await newUser();
    const socket = await connect(user.header.authorization);
    // What the user form's disable writes (enable 0); the session itself stays unrevoked.
    await expectClosedWithinASecond(socket, () =>
      t.database.db.kysely.updateTable('users').set({ enable: 0 }).where('id', '=', user.id).execute(),
    );
  });

  it('a password change closes the socket within a second', async () => {
    const user = await newUser();
    const socket = await connect(user.header.authorization);
    const key = await publicKeyOf(t.app);
    await expectClosedWithinASecond(socket, async () => {
      const res = await call('PUT', 'user/password', user.header, {
        old_password: encryptFor(key, 'Watch-Pass-123'),
        new_password: encryptFor(key, 'Watch-Pass-456!'),
      });
      expect(res.statusCode).toBe(200);
    });
  });

  it('blocking the user closes the socket within a second', async () => {
    const user = await newUser();
    const socket = await connect(user.header.authorization);
    await expectClosedWithinASecond(socket, async () => {
      const res = await call('POST', 'setting/account_blocks', state.admin, {
        user_ids: [user.id],
        reason: 'probe',
        days: 1,
      });
      expect(res.statusCode).toBe(200);
    });
  });

  it('signing in on another terminal closes the first socket within a second', async () => {
    const user = await newUser();
    const socket = await connect(user.header.authorization);
    await expectClosedWithinASecond(socket, () => loginHeader(t.app, user.name, 'Watch-Pass-123'));
  });

  it('a role narrowed to one site narrows what an open socket receives', async () => {
    const user = await newUser();
    const socket = await connect(user.header.authorization);
    const south = raise(state.south);
    await socket.arrived(south);
    const res = await call('PUT', 'setting/roles/7', state.admin, {
      name: 'both rooms',
      site_ids: [state.north],
      menu_ids: [101],
      function_ids: [state.functionId],
    });
    expect(res.statusCode).toBe(200);
    const southAfter = raise(state.south);
    const northAfter = raise(state.north);
    // Pushes leave in order: once the later north alarm is in, the south one was held back.
    await socket.arrived(northAfter);
    expect(socket.alarms).not.toContain(southAfter);
    socket.ws.close();
  });
});
