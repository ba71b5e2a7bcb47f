import type { AlarmRow } from '@sitewatch/contract/alarms';
import { priorityForLevel, priorityOfLevel } from '@sitewatch/contract/work-orders';
import { beforeAll, expect, it } from 'vitest';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

type Who = 'creator' | 'handler' | 'reviewer';

/**
 * An alarm becomes a work order (issue 38 item 4; docs/work-orders.md, "Priority from the alarm
 * level"): by hand ("转工单") linked as automatic dispatch links it, one order per alarm; the
 * priority from the alarm's level by the one table, which a dispatch rule uses unless it sets its
 * own; and the order's history names people by their alias, not their login name.
 */
describeEachDatabase('work orders from alarms', (dialect) => {
  const t = useTestApp(dialect);
  const ids: Record<Who, number> = { creator: 0, handler: 0, reviewer: 0 };
  const token = (who: Who) => `woa-${who}-${dialect}`;
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, who: Who, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token(who)}`, 'accept-language': 'zh-CN' },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, who: Who, payload?: object) => {
    const res = await call(method, url, who, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const k = () => t.database.db.kysely;
  const alarm = (id: number, level: number) => ({
    id,
    item_id: 1,
    device_id: 1,
    device_group_id: 1,
    item_name: '温度',
    device_name: '空调 2',
    device_group_name: '一号机房',
    kind: 'threshold',
    status: 2,
    level,
    color: '',
    info: '温度过高',
    value: 31,
    start_time: 1_700_000_000,
    end_time: null,
    last_check: 1_700_000_000,
  });
  const insertAlarm = (id: number, level: number) =>
    k()
      .insertInto('alarms')
      .values({
        ...alarm(id, level),
        handling: 0,
        remarks: '',
        confirmed_by: '',
        confirmed_at: null,
        notify_count: 0,
        escalated: 0,
      })
      .execute();
  const raised = (id: number, level: number): AlarmRow => ({
    ...alarm(id, level),
    kind: 'threshold',
    status_id: id,
    status_label: 'abnormal',
    handling: 0,
    remarks: '',
    confirmed_by: '',
    jitter: 0,
    roles: '[]',
    users: '[]',
    videos: '[]',
  });
  const orderOf = async (alarmId: number) =>
    (await ok('GET', `work_order?index=3&alarm_id=${alarmId}`, 'creator')).data;

  beforeAll(async () => {
    await k().insertInto('roles').values({ id: 92, name: 'orders from alarms', remark: '', created_at: 0 }).execute();
    for (const menu of [741]) await k().insertInto('role_menus').values({ role_id: 92, menu_id: menu }).execute();
    for (const fn of await k().selectFrom('functions').select('id').where('menu_id', '=', 741).execute())
      await k().insertInto('role_functions').values({ role_id: 92, function_id: fn.id }).execute();
    for (const who of ['creator', 'handler', 'reviewer'] as const) {
      ids[who] = await createUser(t.database.db, `woa-${who}`, 'Work-Pass-123', [92]);
      fakeTokens[token(who)] = { user_id: ids[who], user_name: `woa-${who}`, session_id: 1 };
    }
    // People have a login name and an alias; pages name them by the alias.
    await k().updateTable('users').set({ alias: '张三' }).where('id', '=', ids.creator).execute();
    await k().updateTable('users').set({ alias: '李四' }).where('id', '=', ids.handler).execute();
    await k().updateTable('users').set({ alias: '' }).where('id', '=', ids.reviewer).execute();
  });

  it('maps every alarm level to one priority, the most severe to the most urgent', () => {
    expect([1, 2, 3, 4, 5].map(priorityForLevel)).toEqual([5, 4, 3, 2, 1]);
    expect(priorityOfLevel).toEqual({ 1: 5, 2: 4, 3: 3, 4: 2, 5: 1 });
    // Levels outside 1–5 are clamped, as the alarm engine clamps them.
    expect([0, 9].map(priorityForLevel)).toEqual([5, 1]);
  });

  it('a dispatch rule without its own priority takes the alarm level’s; with one, its own', async () => {
    const rule = {
      name: '按等级',
      enable: true,
      levels: [2, 1],
      device_group_ids: [],
      handler_id: ids.handler,
      reviewer_id: ids.reviewer,
      deadline_hours: 2,
      require_recovered: false,
    };
    // Levels are kept sorted (the list shows them in order), priority absent: null, from the level.
    expect(await ok('PUT', 'work_order_set/1', 'creator', rule)).toMatchObject({ levels: [1, 2], priority: null });
    expect((await ok('GET', 'work_order_set', 'creator'))[0]).toMatchObject({ priority: null });
    await insertAlarm(8101, 1);
    await insertAlarm(8102, 2);
    t.sitewatch.bus.publish('alarm.raised', { alarm: raised(8101, 1) });
    t.sitewatch.bus.publish('alarm.raised', { alarm: raised(8102, 2) });
    await t.sitewatch.settled();
    // A 紧急 alarm is a 紧急 order (priority 5), a 严重 one a 严重 order (4).
    expect(await orderOf(8101)).toMatchObject([{ priority: 5, alarm_id: 8101, alarm_level: 1, dispatch: 'auto' }]);
    expect(await orderOf(8102)).toMatchObject([{ priority: 4, alarm_id: 8102, alarm_level: 2 }]);
    expect((await orderOf(8101))[0].description).toBe('一号机房 / 空调 2 / 温度: 温度过高');

    await ok('PUT', 'work_order_set/1', 'creator', { ...rule, priority: 2 });
    await insertAlarm(8103, 1);
    t.sitewatch.bus.publish('alarm.raised', { alarm: raised(8103, 1) });
    await t.sitewatch.settled();
    expect(await orderOf(8103)).toMatchObject([{ priority: 2, alarm_level: 1 }]);
    await ok('PUT', 'work_order_set/1', 'creator', { ...rule, enable: false });
  });

  it('an order made from an alarm by hand is linked as dispatch links it, one per alarm', async () => {
    await insertAlarm(8201, 3);
    const body = {
      description: '一号机房 / 空调 2 / 温度: 温度过高',
      priority: priorityForLevel(3),
      handler_id: ids.handler,
      reviewer_id: ids.reviewer,
      deadline_hours: 4,
      device_group_id: 1,
      alarm_id: 8201,
    };
    const made = await ok('POST', 'work_order', 'creator', body);
    expect(made).toMatchObject({ alarm_id: 8201, alarm_level: 3, priority: 3, device_group_id: 1, dispatch: 'manual' });
    expect(await ok('GET', 'work_order/of_alarms?alarm_ids=8201', 'creator')).toEqual([
      { alarm_id: 8201, id: made.id, number: made.number, state: 1 },
    ]);
    // A second order for the same alarm is refused and nothing is written.
    const count = async () => (await k().selectFrom('work_orders').select('id').execute()).length;
    const before = await count();
    const again = await call('POST', 'work_order', 'creator', body);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`该告警已有工单 ${made.number}`);
    expect(await count()).toBe(before);
    // An alarm that does not exist is refused as before.
    expect((await call('POST', 'work_order', 'creator', { ...body, alarm_id: 8299 })).status).toBe(400);
  });

  it('names people by their alias (display name), by their login name only without one', async () => {
    await insertAlarm(8301, 4);
    const made = await ok('POST', 'work_order', 'creator', {
      description: '巡检发现',
      priority: 2,
      handler_id: ids.handler,
      reviewer_id: ids.reviewer,
      deadline_hours: 1,
      alarm_id: 8301,
    });
    expect(made).toMatchObject({ creator: '张三', handler: '李四', reviewer: 'woa-reviewer' });
    await ok('PUT', `work_order/${made.id}`, 'handler', { action: 'receive' });
    const info = await ok('GET', `work_order_info?id=${made.id}`, 'creator');
    expect(info.history.map((h: { user_name: string }) => h.user_name)).toEqual(['张三', '李四']);
  });
});
