import { monitorState } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Principal } from '../src/http/auth.ts';
import { fakeTokens, useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { type HttpPeer, type SmtpPeer, startHttpPeer, startSmtpPeer } from './helpers/notify-peers.ts';

const secret = 'SEC-alarm-test';

interface Pushed {
  type: string;
  event?: string;
  alarm?: {
    status_id: number;
    item_id: number;
    handling: number;
    status: number;
    status_label: string;
    device_group_id: number;
  };
}

describeEachDatabase('alarm engine, operations, push and notifications', (dialect) => {
  let http: HttpPeer;
  let smtp: SmtpPeer;
  beforeAll(async () => {
    http = await startHttpPeer(secret, 'k');
    smtp = await startSmtpPeer('alarm@example.com', 'mail-pass');
  });
  afterAll(async () => {
    await http?.close();
    await smtp?.close();
  });
  // The engine, the notifier and their timers run on the app's own clock, moved by the test; the
  // mail and HTTP peers are real, and settled() waits for their answers.
  const t = useManualTestApp(dialect, { notifyRetryDelayMs: 10 });
  const sample = (itemId: number, value: number) => t.sitewatch.alarms.onSample(itemId, value, t.clock.now());
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    token = 'admin-token',
  ) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  beforeAll(async () => {
    // The peers listen on loopback: the administrator allows it, as the outbound guard refuses it by default.
    const r = await call('POST', 'setting/gc', { k: 'OUTBOUND', v: { allow: ['127.0.0.0/8', '::1'], deny: [] } });
    expect(r.status).toBe(200);
  });
  const inbox = (principal: Principal) => {
    const got: Pushed[] = [];
    t.push.add({ principal, send: (text) => got.push(JSON.parse(text)) });
    return got;
  };
  const alarmsOf = (box: Pushed[], event?: string) =>
    box.filter((m) => m.type === 'alarm' && (!event || m.event === event));

  const ids = { siteA: 0, siteB: 0, deviceA: 0, itemA: 0, itemFlap: 0, itemB: 0, group: 0 };
  const admin = { user_id: 1, user_name: 'admin', session_id: 1 };
  const siteBUser = { user_id: 0, user_name: 'operator-b', session_id: 2 };
  let adminBox: Pushed[];
  let siteBBox: Pushed[];

  it('sets up two sites, a contact group with e-mail, webhook, robot and a failing channel', async () => {
    const ok = (r: { status: number; body: { data: { id: number } } }) => {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.id;
    };
    const mkSite = async (name: string) => ok(await call('POST', 'setting/device_groups', { name, weight: 1 }));
    ids.siteA = await mkSite('机房A');
    ids.siteB = await mkSite('机房B');
    const mkDevice = async (site: number, name: string) =>
      ok(await call('POST', 'setting/devices', { name, device_group_id: site, driver: 'simulator', code: 'temp_hum' }));
    ids.deviceA = await mkDevice(ids.siteA, 'TH-1');
    const deviceB = await mkDevice(ids.siteB, 'TH-2');

    expect(
      (
        await call('PUT', 'setting/email_service', {
          host: '127.0.0.1',
          port: smtp.port,
          security: 'none',
          user: 'alarm@example.com',
          password: 'mail-pass',
          from: 'alarm@example.com',
          enable: true,
        })
      ).status,
    ).toBe(200);
    const mail = await call('GET', 'setting/email_service');
    expect(mail.body.data).toMatchObject({ password: '', has_password: true });
    const contact = await call('POST', 'setting/contacts', { name: '张三', email: 'duty@example.com', alarm_level: 5 });
    expect(contact.status).toBe(200);
    const ch = async (name: string, kind: string, path: string, extra = {}) =>
      (
        await call('POST', 'setting/alarm_push', {
          name,
          kind,
          config: { url: `${http.url}${path}`, secret, retries: 2, timeout_ms: 1000, ...extra },
        })
      ).body.data;
    const hook = await ch('hook', 'webhook', '/webhook');
    expect(hook.config.secret).toBe('');
    expect(hook.has_secret).toBe(true);
    const ding = await ch('ding', 'dingtalk', '/dingtalk?access_token=x');
    const broken = await ch('broken', 'webhook', '/fail');
    const group = await call('POST', 'setting/contact_groups', {
      name: '值班组',
      contact_ids: [contact.body.data.id],
      email: true,
      channel_ids: [hook.id, ding.id, broken.id],
    });
    expect(group.status).toBe(200);
    ids.group = group.body.data.id;

    const item = async (device: number, name: string, extra = {}) =>
      ok(
        await call('POST', 'setting/items', {
          device_id: device,
          name,
          unit: '℃',
          value_type: 1,
          threshold_min: 10,
          threshold_max: 30,
          overrun_point: 0,
          recovery_point: 1,
          repetitions: 2,
          notification_interval: 1,
          contact_group_id: ids.group,
          source: { kind: 'simulator', model: 'analog', base: 20 },
          ...extra,
        }),
      );
    ids.itemA = await item(ids.deviceA, '温度');
    ids.itemFlap = await item(ids.deviceA, '湿度', { repetitions: 1, notification_interval: 0 });
    ids.itemB = await item(deviceB, '温度');
    expect(ids.itemA && ids.itemFlap && ids.itemB).toBeTruthy();

    // A role that sees only site B, with the alarm page and its confirm function.
    const k = t.database.db.kysely;
    // Role 1 is the administrator: the restricted role gets an id of its own.
    const roleId = 42;
    await k.insertInto('roles').values({ id: roleId, name: 'site B', remark: '', created_at: 0 }).execute();
    const now = Math.floor(Date.now() / 1000);
    // User 1 is never restricted: the operator gets an id of its own too.
    const userId = 77;
    await k
      .insertInto('users')
      .values({
        id: userId,
        user_name: 'operator-b',
        alias: '',
        password_hash: 'x',
        password_changed_at: now,
        must_change_password: 0,
        pwd_always_valid: 1,
        email: '',
        phone: '',
        enable: 1,
        login_type: 1,
        language: 'zh_cn',
        locked_at: null,
        lock_reason: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await k.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
    await k.insertInto('role_sites').values({ role_id: roleId, site_id: ids.siteB }).execute();
    await k.insertInto('role_menus').values({ role_id: roleId, menu_id: 104 }).execute();
    const fn = await k
      .selectFrom('functions')
      .select('id')
      .where('menu_id', '=', 104)
      .where('code', '=', 'confirm')
      .executeTakeFirstOrThrow();
    await k.insertInto('role_functions').values({ role_id: roleId, function_id: fn.id }).execute();
    siteBUser.user_id = userId;
    fakeTokens['site-b-token'] = siteBUser;

    await t.sitewatch.alarms.start();
    sample(ids.itemA, 20);
    adminBox = inbox(admin);
    siteBBox = inbox(siteBUser);
  });

  it('raises after the repetitions, pushes at once to the allowed users only, and notifies every channel', async () => {
    sample(ids.itemA, 35);
    await t.sitewatch.settled();
    expect(alarmsOf(adminBox)).toHaveLength(0); // one bad check of two
    sample(ids.itemA, 35.5);
    // At once: pushed with no time passing on the app's clock.
    await t.sitewatch.settled();
    expect(alarmsOf(adminBox, 'raise')).toHaveLength(1);
    const raised = alarmsOf(adminBox, 'raise')[0]!.alarm!;
    expect(raised).toMatchObject({
      item_id: ids.itemA,
      status: monitorState.abnormal,
      status_label: 'abnormal',
      handling: 0,
    });
    expect(alarmsOf(siteBBox)).toHaveLength(0);

    // The site-B user neither lists nor operates it.
    expect((await call('GET', 'review', undefined, 'site-b-token')).body.data.total).toBe(0);
    const foreign = await call(
      'POST',
      'warning_operation',
      { alarm_action: 0, remarks: 'x', item_id: ids.itemA, status_id: raised.status_id },
      'site-b-token',
    );
    expect(foreign.status).toBe(404);
    const list = await call('GET', 'review');
    expect(list.body.data.data[0]).toMatchObject({
      status_id: raised.status_id,
      item_name: '温度',
      device_group_name: '机房A',
      value: 35.5,
    });

    expect(smtp.messages).toHaveLength(1);
    expect(http.accepted.map((r) => r.path).sort()).toEqual(['/dingtalk', '/webhook']);
    const hook = JSON.parse(http.accepted.find((r) => r.path === '/webhook')!.body);
    expect(hook).toMatchObject({ site: '机房A', device: 'TH-1', item: '温度', value: 35.5, unit: '℃' });
    expect(smtp.messages[0]!.to).toEqual(['duty@example.com']);
    // The others are logged as sent (settled() waited for each channel's answer and its log row).
    const logged = async (result: number) =>
      (await call('GET', `notification_log?limit=100&result=${result}`)).body.data.data as {
        attempts: number;
        target: string;
        channel: string;
      }[];
    expect((await logged(1)).map((r) => r.channel).sort()).toEqual(['dingtalk', 'email', 'webhook']);
    // The failing channel waits 10 ms, then 20 ms, between its three tries, and is logged after the last.
    expect(await logged(0)).toEqual([]);
    await t.clock.advance(29);
    expect(await logged(0)).toEqual([]);
    await t.clock.advance(1);
    expect(await logged(0)).toMatchObject([{ attempts: 3, target: expect.stringMatching(/^broken/) }]);
  });

  it('repeats notices at the interval until confirmed, and again after the confirmation is removed', async () => {
    const hooks = () => http.accepted.filter((r) => r.path === '/webhook').length;
    const before = hooks();
    // The item's interval is 1 s: the engine's next tick sends the notice again.
    await t.clock.advance(1_000);
    expect(hooks()).toBe(before + 1);
    const alarm = (await call('GET', 'review')).body.data.data[0];

    // People are named by their alias (issue 38); the alarm keeps the login name written then.
    const k = t.database.db.kysely;
    const now = Math.floor(Date.now() / 1000);
    await k
      .insertInto('users')
      .values({
        user_name: 'admin',
        alias: '值班长',
        password_hash: 'x',
        password_changed_at: now,
        must_change_password: 0,
        pwd_always_valid: 1,
        email: '',
        phone: '',
        enable: 1,
        login_type: 1,
        language: 'zh_cn',
        locked_at: null,
        lock_reason: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/warning_operation',
      headers: { authorization: 'Bearer admin-token' },
      payload: { alarm_action: 0, remarks: '  ', item_id: alarm.item_id, status_id: alarm.status_id },
    });
    expect(bad.statusCode).toBe(400);
    const confirm = await call('POST', 'warning_operation', {
      alarm_action: 0,
      remarks: '已到场处理',
      item_id: alarm.item_id,
      status_id: alarm.status_id,
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.data).toMatchObject({ handling: 1, confirmed_by: '值班长', remarks: '已到场处理' });
    const listed = (await call('GET', 'review')).body.data.data;
    expect(listed.find((a: { status_id: number }) => a.status_id === alarm.status_id).confirmed_by).toBe('值班长');
    const stored = await k
      .selectFrom('alarms')
      .select('confirmed_by')
      .where('id', '=', alarm.status_id)
      .executeTakeFirstOrThrow();
    expect(stored.confirmed_by).toBe('admin');
    await t.sitewatch.settled();
    expect(alarmsOf(adminBox, 'operation')).toHaveLength(1);
    const afterConfirm = hooks();
    await t.clock.advance(3_000);
    expect(hooks()).toBe(afterConfirm);

    const undo = await call('POST', 'warning_operation', {
      alarm_action: 1,
      remarks: '误确认',
      item_id: alarm.item_id,
      status_id: alarm.status_id,
    });
    expect(undo.body.data.handling).toBe(0);
    await t.clock.advance(1_000);
    expect(hooks()).toBe(afterConfirm + 1);

    const log = await call('GET', 'alarm_log?limit=50');
    const actions = log.body.data.data.map((r: { action: string }) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['raise', 'confirm', 'unconfirm']));
    expect(log.body.data.data.find((r: { action: string }) => r.action === 'confirm')).toMatchObject({
      user_name: '值班长',
      detail: '已到场处理',
    });
    // Without an alias, the login name.
    await k.updateTable('users').set({ alias: '' }).where('user_name', '=', 'admin').execute();
    const again = await call('GET', 'alarm_log?limit=50&action=confirm');
    expect(again.body.data.data[0].user_name).toBe('admin');
  });

  it('clears only at the recovery point, closes the alarm and sends one recovery notice', async () => {
    const mails = smtp.messages.length;
    sample(ids.itemA, 29.5);
    sample(ids.itemA, 29.5);
    await t.sitewatch.settled();
    expect(alarmsOf(adminBox, 'recover')).toHaveLength(0); // inside max but above max − recovery
    sample(ids.itemA, 25);
    sample(ids.itemA, 25);
    await t.sitewatch.settled();
    expect(alarmsOf(adminBox, 'recover')).toHaveLength(1);
    expect(alarmsOf(adminBox, 'recover')[0]!.alarm).toMatchObject({
      status: 1000,
      status_label: 'recovered',
      handling: 3,
    });
    expect((await call('GET', 'review')).body.data.total).toBe(0);
    expect((await call('GET', 'review?scope=all')).body.data.total).toBe(1);
    expect(smtp.messages).toHaveLength(mails + 1);
    expect(smtp.messages.at(-1)!.data).toContain('Subject: =?UTF-8?');
  });

  it('holds notices while an item jitters, logs start and stop, and sends one recovery notice when it stops', async () => {
    const hooks = () =>
      http.accepted
        .filter((r) => r.path === '/webhook')
        .map((r) => JSON.parse(r.body) as { action: string; item: string });
    const commons = (await call('GET', 'setting/alarm_commons')).body.data;
    expect((await call('PUT', 'setting/alarm_commons', { ...commons, jitter_start: 45, jitter_stop: 25 })).status).toBe(
      200,
    );
    await t.sitewatch.settled();
    const start = hooks().length;
    // Flap 20 times. Changes 1–9 notify (5 problems, 4 recoveries); the 10th (a recovery) makes 50 % > 45 %:
    // jitter starts, that recovery is held, and so is everything after it.
    for (let i = 0; i < 21; i++) sample(ids.itemFlap, i % 2 ? 50 : 20);
    expect(t.sitewatch.alarms.jitterOf(ids.itemFlap)).toBe(100);
    // The nine notices, and then nothing more, a second later too: the rest is held. (The failing
    // channel's retries, 10 and 20 ms apart, hold delivery slots meanwhile: time lets them out.)
    await t.clock.advance(1_000);
    expect(hooks().length - start).toBe(9);
    await t.clock.advance(1_000);
    expect(hooks().length - start).toBe(9);
    // Steady normal: the percent falls below 25 % and exactly one recovery notice follows.
    for (let i = 0; i < 21; i++) sample(ids.itemFlap, 20);
    await t.clock.advance(1_000);
    expect(hooks().length).toBe(start + 10);
    await t.clock.advance(1_000);
    expect(hooks().length).toBe(start + 10);
    expect(hooks().at(-1)).toMatchObject({ action: 'recovery', item: '湿度' });
    const log = await call('GET', 'alarm_log?limit=200&action=jitter_start');
    expect(log.body.data.total).toBe(1);
    expect((await call('GET', 'alarm_log?limit=200&action=jitter_stop')).body.data.total).toBe(1);
    await call('PUT', 'setting/alarm_commons', commons);
  });

  it('disables and enables an item alarm, confirms all with remarks only, and refuses bad input without changes', async () => {
    sample(ids.itemB, 99);
    sample(ids.itemB, 99);
    await t.sitewatch.settled();
    expect(alarmsOf(siteBBox, 'raise')).toHaveLength(1);
    const alarm = alarmsOf(siteBBox, 'raise')[0]!.alarm!;
    expect(alarm.item_id).toBe(ids.itemB);
    // The site-B user may confirm but not disable (no disable function).
    expect(
      (
        await call(
          'POST',
          'warning_operation',
          { alarm_action: 2, remarks: 'r', item_id: alarm.item_id, status_id: alarm.status_id },
          'site-b-token',
        )
      ).status,
    ).toBe(403);
    const dis = await call('POST', 'warning_operation', {
      alarm_action: 2,
      remarks: '检修中',
      item_id: alarm.item_id,
      status_id: alarm.status_id,
    });
    expect(dis.body.data.handling).toBe(2);
    const en = await call('POST', 'warning_operation', {
      alarm_action: 3,
      remarks: '检修完成',
      item_id: alarm.item_id,
      status_id: alarm.status_id,
    });
    expect(en.body.data.handling).toBe(0);

    const all = await call('PUT', 'warning_operation', { remarks: '批量确认' }, 'site-b-token');
    expect(all.body.data.confirmed).toBe(1);
    const again = await call('PUT', 'warning_operation', { remarks: '批量确认' }, 'site-b-token');
    expect(again.status).toBe(400);

    // Every alarm is now confirmed or closed, and what was queued is written: nothing changes after.
    await t.sitewatch.settled();
    const before = await snapshotDigest(t.database.db);
    for (const body of [{ remarks: '' }, { remarks: 'x', extra: 1 }, {}]) {
      expect((await call('PUT', 'warning_operation', body)).status).toBe(400);
    }
    for (const body of [
      { alarm_action: 4, remarks: 'x', item_id: 1, status_id: 1 },
      { alarm_action: 0, remarks: 'x', item_id: 1, status_id: 0 },
      { alarm_action: 0, remarks: '', item_id: 1, status_id: 1 },
    ]) {
      expect((await call('POST', 'warning_operation', body)).status).toBe(400);
    }
    expect(
      (await call('POST', 'warning_operation', { alarm_action: 0, remarks: 'x', item_id: 0, status_id: 999999 }))
        .status,
    ).toBe(404);
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('raises a communication alarm for a device without data and clears it when data returns', async () => {
    t.sitewatch.alarms.onDeviceState(ids.deviceA, monitorState.unknown);
    await t.sitewatch.settled();
    expect(alarmsOf(adminBox, 'raise').filter((m) => m.alarm?.status_label === 'unknown')).toHaveLength(1);
    const open = await call('GET', 'review');
    expect(open.body.data.data.some((a: { kind: string }) => a.kind === 'communication')).toBe(true);
    t.sitewatch.alarms.onDeviceState(ids.deviceA, monitorState.normal);
    await t.sitewatch.settled();
    expect(alarmsOf(adminBox, 'recover').filter((m) => m.alarm?.item_id === 0)).toHaveLength(1);
  });

  it('serves levels, common parameters, alarm params and templates, validating every change', async () => {
    const levels = await call('GET', 'setting/alarm_levels');
    expect(levels.body.data.data.map((l: { level: number }) => l.level)).toEqual([1, 2, 3, 4, 5]);
    expect((await call('POST', 'setting/alarm_levels', { name: 'x', level: 6, color: '#ffffff' })).status).toBe(400);
    const commons = (await call('GET', 'setting/alarm_commons')).body.data;
    expect(commons).toMatchObject({ jitter_type: 'standard', jitter_start: 50, jitter_stop: 25 });
    expect((await call('PUT', 'setting/alarm_commons', { ...commons, jitter_stop: 60 })).status).toBe(400);
    const off = await call('PUT', 'setting/alarm_commons', {
      ...commons,
      voice_enable: false,
      jitter_type: 'weighted',
    });
    expect(off.status).toBe(200);
    expect((await call('GET', 'alarm_params')).body.data).toEqual({
      popup_enable: true,
      voice_enable: false,
      video_enable: true,
    });
    expect((await call('PUT', 'setting/notice_tpl', { subject: '', body: 'x' })).status).toBe(400);
    expect(
      (await call('PUT', 'setting/recover_tpl', { subject: '恢复 {item}', body: '{site} {device} {item} {value}' }))
        .status,
    ).toBe(200);
    expect((await call('GET', 'setting/alarm_commons', undefined, 'site-b-token')).status).toBe(403);
  });
});
