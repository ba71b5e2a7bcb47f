import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AlarmRow } from '@sitewatch/contract/alarms';
import { type WorkOrderAction, workOrderMachine } from '@sitewatch/contract/work-orders';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

type Role = 'creator' | 'handler' | 'reviewer' | 'outsider';
const roles: Role[] = ['creator', 'handler', 'reviewer', 'outsider'];
const actions: WorkOrderAction[] = ['edit', 'receive', 'transfer', 'refuse', 'complete', 'pass', 'delete'];

/**
 * The allowed transitions, written out by hand (docs/work-orders.md): state, action, role → next
 * state (null: deleted). Everything else must be refused with nothing changed.
 */
const allowed: [number, WorkOrderAction, Role, number | null][] = [
  [1, 'edit', 'creator', 1],
  [1, 'receive', 'handler', 2],
  [1, 'transfer', 'handler', 1],
  [1, 'refuse', 'handler', 5],
  [1, 'delete', 'creator', null],
  [2, 'edit', 'creator', 2],
  [2, 'transfer', 'handler', 1],
  [2, 'complete', 'handler', 3],
  [3, 'pass', 'reviewer', 4],
  [3, 'refuse', 'reviewer', 2],
  [5, 'edit', 'creator', 1],
  [5, 'delete', 'creator', null],
];

/**
 * Work orders (issue 16; docs/work-orders.md): every state × action × role on both databases, a
 * refused one changing nothing; automatic dispatch from a raised alarm, pushed to its handler;
 * closing as fixed waits for the alarm's recovery; attachments checked by content and size.
 */
describeEachDatabase('work orders', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-work-orders-'));
  const t = useTestApp(dialect, { dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const ids: Record<Role | 'handler2', number> = { creator: 0, handler: 0, reviewer: 0, outsider: 0, handler2: 0 };
  const token = (who: Role | 'handler2') => `wo-${who}-${dialect}`;

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who: Role | 'handler2',
    payload?: object,
  ) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token(who)}`, 'accept-language': 'zh-CN' },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who: Role | 'handler2',
    payload?: object,
  ) => {
    const res = await call(method, url, who, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const k = () => t.database.db.kysely;
  const snapshot = async (id: number) => ({
    order: await k().selectFrom('work_orders').selectAll().where('id', '=', id).execute(),
    history: await k().selectFrom('work_order_history').selectAll().where('order_id', '=', id).execute(),
  });

  const orderBody = () => ({
    description: '机房 A 空调漏水',
    priority: 3,
    handler_id: ids.handler,
    reviewer_id: ids.reviewer,
    deadline_hours: 4,
  });
  const bodyOf = (action: WorkOrderAction) => {
    switch (action) {
      case 'edit':
        return { action, ...orderBody(), priority: 5 };
      case 'transfer':
        return { action, handler_id: ids.handler2, comment: '交给夜班' };
      case 'refuse':
        return { action, comment: '不是我的站点' };
      case 'complete':
        return { action, processing_method: '更换水泵', resolution: 'other' };
      default:
        return { action };
    }
  };
  const run = (id: number, action: WorkOrderAction, who: Role | 'handler2') =>
    action === 'delete'
      ? call('DELETE', `work_order/${id}`, who)
      : call('PUT', `work_order/${id}`, who, bodyOf(action));
  /** A fresh order brought to `state` by allowed steps. */
  const orderIn = async (state: number) => {
    const { id } = await ok('POST', 'work_order', 'creator', orderBody());
    const step = async (action: WorkOrderAction, who: Role) => expect((await run(id, action, who)).status).toBe(200);
    if (state >= 2 && state <= 4) await step('receive', 'handler');
    if (state >= 3 && state <= 4) await step('complete', 'handler');
    if (state === 4) await step('pass', 'reviewer');
    if (state === 5) await step('refuse', 'handler');
    return id as number;
  };

  beforeAll(async () => {
    const db = t.database.db;
    await k().insertInto('roles').values({ id: 91, name: 'work orders', remark: '', created_at: 0 }).execute();
    for (const menu of [741, 742]) await k().insertInto('role_menus').values({ role_id: 91, menu_id: menu }).execute();
    for (const fn of await k().selectFrom('functions').select('id').where('menu_id', 'in', [741, 742]).execute())
      await k().insertInto('role_functions').values({ role_id: 91, function_id: fn.id }).execute();
    for (const who of [...roles, 'handler2'] as const) {
      ids[who] = await createUser(db, `wo-${who}`, 'Work-Pass-123', [91]);
      fakeTokens[token(who)] = { user_id: ids[who], user_name: `wo-${who}`, session_id: 1 };
    }
  });

  it('the contract table is exactly the hand-written one', () => {
    const fromTable = Object.entries(workOrderMachine).flatMap(([state, row]) =>
      Object.entries(row).flatMap(([action, tr]) =>
        tr.roles.map((role) => [Number(state), action, role, tr.to === 'same' ? Number(state) : tr.to]),
      ),
    );
    expect(new Set(fromTable.map((r) => JSON.stringify(r)))).toEqual(new Set(allowed.map((r) => JSON.stringify(r))));
  });

  it('walks every allowed transition and refuses every other state × action × role, changing nothing', async () => {
    for (const state of [1, 2, 3, 4, 5]) {
      const shared = await orderIn(state);
      for (const action of actions)
        for (const role of roles) {
          const rule = allowed.find(([s, a, r]) => s === state && a === action && r === role);
          if (rule) {
            const id = await orderIn(state);
            const res = await run(id, action, role);
            expect(res.status, `${state} ${action} ${role}: ${JSON.stringify(res.body)}`).toBe(200);
            const after = await snapshot(id);
            if (rule[3] === null) expect(after.order).toHaveLength(0);
            else expect(Number(after.order[0]?.state)).toBe(rule[3]);
            // Every step leaves its history row, naming who and from which state.
            expect(after.history.at(-1)).toMatchObject({ action, from_state: state, user_id: ids[role] });
            continue;
          }
          const before = await snapshot(shared);
          const res = await run(shared, action, role);
          const wrongState = !allowed.some(([s, a]) => s === state && a === action);
          expect(res.status, `${state} ${action} ${role}`).toBe(wrongState ? 409 : 403);
          expect(res.body.message).toBe(wrongState ? '工单当前状态不能执行此操作' : '您在该工单中的角色不能执行此操作');
          expect(await snapshot(shared)).toEqual(before);
        }
    }
  });

  it('a transfer hands the order over: the new handler receives it, the old one no longer can', async () => {
    const id = await orderIn(2);
    await ok('PUT', `work_order/${id}`, 'handler', bodyOf('transfer'));
    expect((await run(id, 'receive', 'handler')).status).toBe(403);
    const row = await ok('PUT', `work_order/${id}`, 'handler2', { action: 'receive' });
    expect(row).toMatchObject({ state: 2, handler_id: ids.handler2, comment: '交给夜班' });
    expect(row.actions).toEqual(['transfer', 'complete']);
    // Refused inputs: an empty comment, the same handler, a handler who does not exist.
    for (const body of [
      { action: 'transfer', handler_id: ids.handler, comment: ' ' },
      { action: 'transfer', handler_id: ids.handler2, comment: 'x' },
      { action: 'transfer', handler_id: 999_999, comment: 'x' },
    ]) {
      const before = await snapshot(id);
      expect((await call('PUT', `work_order/${id}`, 'handler2', body)).status).toBe(400);
      expect(await snapshot(id)).toEqual(before);
    }
  });

  it('self-dispatch, the tabs, the bell summary and statistics', async () => {
    const self = await ok('POST', 'work_order', 'handler', { ...orderBody(), description: '自派' });
    expect(self).toMatchObject({ dispatch: 'self', state: 1, creator_id: ids.handler, handler_id: ids.handler });
    expect(self.actions).toEqual(expect.arrayContaining(['edit', 'receive', 'delete']));
    const bell = await ok('GET', 'work_order?index=0&state=1&limit=10&page=1', 'handler');
    expect(
      bell.data.every((o: { state: number; handler_id: number }) => o.state === 1 && o.handler_id === ids.handler),
    ).toBe(true);
    const summary = await ok('GET', 'work_order/not_received', 'handler');
    expect(summary.count).toBe(bell.total);
    expect(summary.creation_time).toBeGreaterThan(0);
    // The outsider takes part in none: its tabs are empty and the detail is not found.
    expect((await ok('GET', 'work_order?index=0', 'outsider')).total).toBe(0);
    expect((await call('GET', `work_order_info?id=${self.id}`, 'outsider')).status).toBe(404);
    const stats = await ok('GET', 'work_order_main_page', 'creator');
    expect(stats.total).toBeGreaterThan(0);
    expect(stats.by_state.find((s: { key: number }) => s.key === 4).count).toBeGreaterThan(0);
    expect(stats.avg_complete_seconds).not.toBeNull();
    const months = await ok('GET', `work_order_main_page/month?year=${new Date().getUTCFullYear()}`, 'creator');
    expect(months).toHaveLength(12);
    expect(months.reduce((a: number, m: { created: number }) => a + m.created, 0)).toBe(stats.total);
  });

  const alarmRow = (id: number, level: number, site: number): AlarmRow => ({
    status_id: id,
    item_id: 1,
    device_id: 1,
    device_group_id: site,
    device_group_name: 'Site A',
    device_name: 'AC-1',
    item_name: '漏水',
    kind: 'threshold',
    status: 2,
    status_label: '异常',
    level,
    color: '',
    info: '漏水告警',
    value: 1,
    start_time: 1_700_000_000,
    end_time: null,
    last_check: 1_700_000_000,
    handling: 0,
    remarks: '',
    confirmed_by: '',
    jitter: 0,
    roles: '[]',
    users: '[]',
    videos: '[]',
  });
  const insertAlarm = (id: number, level: number) =>
    k()
      .insertInto('alarms')
      .values({
        id,
        item_id: 1,
        device_id: 1,
        device_group_id: 1,
        item_name: '漏水',
        device_name: 'AC-1',
        device_group_name: 'Site A',
        kind: 'threshold',
        status: 2,
        level,
        color: '',
        info: '',
        value: 1,
        start_time: 1_700_000_000,
        end_time: null,
        last_check: 1_700_000_000,
        handling: 0,
        remarks: '',
        confirmed_by: '',
        confirmed_at: null,
        notify_count: 0,
        escalated: 0,
      })
      .execute();

  it('a raised alarm dispatches an order by the rules, pushed to its handler at once; fixed waits for recovery', async () => {
    const rule = {
      name: '严重告警',
      enable: true,
      levels: [1, 2],
      device_group_ids: [],
      handler_id: ids.handler,
      reviewer_id: ids.reviewer,
      priority: 5,
      deadline_hours: 2,
      require_recovered: true,
    };
    const set = await ok('PUT', 'work_order_set/1', 'creator', rule);
    expect(set).toMatchObject({ id: 1, levels: [1, 2], require_recovered: true });
    const pushed: string[] = [];
    const remove = t.push.add({
      principal: { user_id: ids.handler, user_name: 'h', session_id: 1 },
      send: (m) => pushed.push(m),
    });
    try {
      await insertAlarm(7001, 3);
      t.sitewatch.bus.publish('alarm.raised', { alarm: alarmRow(7001, 3, 1) });
      await insertAlarm(7002, 1);
      t.sitewatch.bus.publish('alarm.raised', { alarm: alarmRow(7002, 1, 1) });
      // Dispatch and its push run behind the bus: settled() waits for them.
      await t.sitewatch.settled();
      const list = await ok('GET', 'work_order?index=0&alarm_id=7002', 'handler');
      expect(list.total).toBe(1);
      const order = list.data[0];
      expect(order).toMatchObject({ dispatch: 'auto', creator_id: 0, priority: 5, alarm_level: 1, state: 1 });
      expect(order.deadline - order.creation_time).toBe(7200);
      expect(pushed.map((m) => JSON.parse(m))).toContainEqual({
        type: 'work_order',
        id: order.id,
        state: 1,
        handler_id: ids.handler,
      });
      // Level 3 is not in the rule; the same alarm raised again makes no second order.
      expect((await ok('GET', 'work_order?index=0&alarm_id=7001', 'handler')).total).toBe(0);
      t.sitewatch.bus.publish('alarm.raised', { alarm: alarmRow(7002, 1, 1) });
      await t.sitewatch.settled();
      expect((await ok('GET', 'work_order?index=0&alarm_id=7002', 'handler')).total).toBe(1);

      await ok('PUT', `work_order/${order.id}`, 'handler', { action: 'receive' });
      const fixed = { action: 'complete', processing_method: '已修复', resolution: 'fixed' };
      const before = await snapshot(order.id);
      const refused = await call('PUT', `work_order/${order.id}`, 'handler', fixed);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('关联告警尚未恢复，不能以"已修复"关闭工单');
      expect(await snapshot(order.id)).toEqual(before);
      await k().updateTable('alarms').set({ end_time: 1_700_000_100 }).where('id', '=', 7002).execute();
      await ok('PUT', `work_order/${order.id}`, 'handler', fixed);
      expect(await ok('PUT', `work_order/${order.id}`, 'reviewer', { action: 'pass' })).toMatchObject({ state: 4 });

      // The rules are read once and again after each change: a disabled rule dispatches nothing, and
      // enabled again it dispatches the next alarm.
      await ok('PUT', 'work_order_set/1', 'creator', { ...rule, enable: false });
      await ok('PUT', 'work_order_set/2', 'creator', { ...rule, name: 'marker', levels: [4] });
      await insertAlarm(7003, 1);
      await insertAlarm(7005, 4);
      t.sitewatch.bus.publish('alarm.raised', { alarm: alarmRow(7003, 1, 1) });
      t.sitewatch.bus.publish('alarm.raised', { alarm: alarmRow(7005, 4, 1) });
      await t.sitewatch.settled();
      expect((await ok('GET', 'work_order?index=0&alarm_id=7005', 'handler')).total).toBe(1);
      expect((await ok('GET', 'work_order?index=0&alarm_id=7003', 'handler')).total).toBe(0);
      await ok('PUT', 'work_order_set/1', 'creator', rule);
      await insertAlarm(7004, 1);
      t.sitewatch.bus.publish('alarm.raised', { alarm: alarmRow(7004, 1, 1) });
      await t.sitewatch.settled();
      expect((await ok('GET', 'work_order?index=0&alarm_id=7004', 'handler')).total).toBe(1);
      expect((await ok('GET', 'work_order?index=0&alarm_id=7003', 'handler')).total).toBe(0);
    } finally {
      remove();
      await ok('PUT', 'work_order_set/1', 'creator', { ...rule, enable: false });
      await ok('PUT', 'work_order_set/2', 'creator', { ...rule, name: 'marker', levels: [4], enable: false });
    }
  });

  const png = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010800000000376ef9240000000a49444154789c6360000000020001e221bc330000000049454e44ae426082',
    'hex',
  );
  const upload = (orderId: number, filename: string, content: Buffer, who: Role = 'handler') => {
    const boundary = '----sitewatch-wo-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n${orderId}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/work_order/file',
      headers: {
        authorization: `Bearer ${token(who)}`,
        'accept-language': 'zh-CN',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
  };

  it('attachments: jpg and png by content, at most 1 MB, by the handler of a received order', async () => {
    const id = await orderIn(2);
    const good = await upload(id, 'photo.png', png);
    expect(good.statusCode, good.body).toBe(200);
    const jpg = await upload(id, 'photo.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)]));
    expect(jpg.statusCode, jpg.body).toBe(200);
    const refusals: [string, Buffer, Role, number, string][] = [
      ['report.png', Buffer.from('%PDF-1.4 not an image'), 'handler', 400, '工单附件只能是 jpg 或 png 格式的图片！'],
      ['anim.gif', Buffer.from('GIF89a\x01\x00\x01\x00'), 'handler', 400, '工单附件只能是 jpg 或 png 格式的图片！'],
      ['icon.png', Buffer.from('<svg viewBox="0 0 1 1"/>'), 'handler', 400, '工单附件只能是 jpg 或 png 格式的图片！'],
      ['big.png', Buffer.concat([png, Buffer.alloc(1024 * 1024)]), 'handler', 400, '上传文件大小不能超过 1MB！'],
      ['photo.png', png, 'reviewer', 403, '您在该工单中的角色不能执行此操作'],
    ];
    for (const [name, content, who, status, message] of refusals) {
      const res = await upload(id, name, content, who);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const info = await ok('GET', `work_order_info?id=${id}`, 'reviewer');
    expect(info.files.map((f: { content_type: string }) => f.content_type)).toEqual(['image/png', 'image/jpeg']);
    const served = await t.app.inject({ method: 'GET', url: info.files[0].url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    // Not in a received state: no attachments.
    expect((await upload(await orderIn(3), 'photo.png', png)).statusCode).toBe(409);
  });
});
