import type { AlarmRow } from '@sitewatch/contract/alarms';
import { workOrderState } from '@sitewatch/contract/work-orders';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertUser, useServiceKit } from '../../../test/helpers/service-kit.ts';
import { createWorkOrderRepository } from './repository.ts';
import { createWorkOrderService } from './service.ts';

/**
 * Work orders' rules over their real repository (SQLite) and a clock the test moves: deadlines,
 * overdue counts and handling times follow the clock; a returned order sent again starts its
 * deadline anew; dispatch asks who is on duty at that moment and makes one order per alarm.
 */
const hour = 3600;
const start = Date.UTC(2026, 2, 2, 8, 0, 0);

describe('work order service', () => {
  const kit = useServiceKit(start);
  const told: Array<{ id: number; state: number; users: number[] }> = [];
  let onDutyAt: number[] = [];
  const people = {
    creator: { id: 0, name: 'creator' },
    handler: { id: 0, name: 'handler' },
    reviewer: { id: 0, name: 'r' },
  };
  const service = () =>
    createWorkOrderService({
      repo: createWorkOrderRepository(kit.db),
      clock: kit.clock.now,
      notify: (o, users) => told.push({ id: o.id, state: o.state, users }),
      duty: {
        onDutyPeople: async (at) => {
          onDutyAt.push(at);
          return [{ name: '乙', user_id: people.handler.id }];
        },
      },
    });
  const now = () => Math.floor(kit.clock.now() / 1000);
  const order = (over: object = {}) => ({
    description: 'UPS 电池告警',
    priority: 3,
    handler_id: people.handler.id,
    reviewer_id: people.reviewer.id,
    deadline_hours: 2,
    device_group_id: null,
    alarm_id: null,
    t: undefined,
    ...over,
  });

  beforeAll(async () => {
    for (const role of ['creator', 'handler', 'reviewer'] as const) {
      people[role] = { id: await insertUser(kit.db, role), name: role };
    }
  });

  it('counts the deadline from creation, and an order past it as overdue until it is completed', async () => {
    const s = service();
    const created = await s.create(order(), people.creator, null);
    expect(created).toMatchObject({ state: workOrderState.waitingReceive, dispatch: 'manual', on_duty: '乙' });
    expect(created.creation_time).toBe(now());
    expect(created.deadline).toBe(now() + 2 * hour);
    expect(told.at(-1)).toEqual({
      id: created.id,
      state: workOrderState.waitingReceive,
      users: [people.handler.id, people.creator.id, people.reviewer.id],
    });

    await kit.clock.advance(30 * 60_000);
    expect((await s.act(created.id, { action: 'receive' }, people.handler)).received_at).toBe(now());
    expect((await s.statistics({}, people.creator, null)).overdue).toBe(0);
    // Two hours after creation the order is due; a second later it is overdue.
    await kit.clock.advance(90 * 60_000);
    expect((await s.statistics({}, people.creator, null)).overdue).toBe(0);
    await kit.clock.advance(1_000);
    expect((await s.statistics({}, people.creator, null)).overdue).toBe(1);

    await s.act(created.id, { action: 'complete', processing_method: '更换电池', resolution: 'fixed' }, people.handler);
    const passed = await s.act(created.id, { action: 'pass', comment: '' }, people.reviewer);
    expect(passed.state).toBe(workOrderState.passed);
    expect(passed.completed_at).toBe(now());
    // Completed late: it stays overdue, whatever the clock says later.
    await kit.clock.advance(24 * hour * 1000);
    const stats = await s.statistics({}, people.creator, null);
    expect(stats).toMatchObject({
      total: 1,
      overdue: 1,
      avg_receive_seconds: 30 * 60,
      avg_complete_seconds: 2 * hour + 1,
    });
    const info = await s.info(created.id, people.creator, null);
    expect(info.history.map((h) => [h.action, h.time - created.creation_time])).toEqual([
      ['create', 0],
      ['receive', 30 * 60],
      ['complete', 2 * hour + 1],
      ['pass', 2 * hour + 1],
    ]);
  });

  it('starts the deadline anew when a returned order is sent again, not when it is edited before', async () => {
    const s = service();
    const created = await s.create(order({ deadline_hours: 1 }), people.creator, null);
    await kit.clock.advance(10 * 60_000);
    const edited = await s.act(created.id, { action: 'edit', ...order({ deadline_hours: 3 }) }, people.creator);
    expect(edited.deadline).toBe(created.creation_time + 3 * hour);
    await s.act(created.id, { action: 'refuse', comment: '不在我的站点' }, people.handler);
    await kit.clock.advance(hour * 1000);
    const again = await s.act(created.id, { action: 'edit', ...order({ deadline_hours: 3 }) }, people.creator);
    expect(again.state).toBe(workOrderState.waitingReceive);
    expect(again.deadline).toBe(now() + 3 * hour);
  });

  it('dispatches one order per alarm to whoever is on duty at that moment', async () => {
    const s = service();
    await s.putSet(
      1,
      {
        name: '当班派单',
        enable: true,
        levels: [1],
        device_group_ids: [],
        handler_id: people.creator.id,
        reviewer_id: people.reviewer.id,
        priority: 5,
        deadline_hours: 1,
        require_recovered: false,
        handler_on_duty: true,
        t: undefined,
      },
      { sites: null, everySite: true },
    );
    onDutyAt = [];
    const alarm = { status_id: 901, level: 1, device_group_id: 1, device_group_name: '机房', device_name: 'UPS' };
    const made = await s.dispatchAlarm({ ...alarm, item_name: '电池', info: '', value: 12 } as AlarmRow);
    expect(onDutyAt).toEqual([now()]);
    expect(made).toMatchObject({ dispatch: 'auto', handler_id: people.handler.id, on_duty: '乙', alarm_id: 901 });
    expect(made!.description).toBe('机房 / UPS / 电池: 12');
    await kit.clock.advance(60_000);
    expect(await s.dispatchAlarm({ ...alarm, item_name: '电池', info: '', value: 12 } as AlarmRow)).toBeNull();
    // A level no rule takes makes none.
    expect(await s.dispatchAlarm({ ...alarm, status_id: 902, level: 4 } as AlarmRow)).toBeNull();
    expect((await s.notReceived(people.handler)).creation_time).toBe(made!.creation_time);
  });

  it('buckets the last 30 days up to now by UTC day', async () => {
    const days = await service().time({}, people.creator, null);
    // From the day 30 days ago (the clock is not at midnight) through today.
    expect(days).toHaveLength(31);
    const today = new Date(kit.clock.now()).toISOString().slice(0, 10);
    expect(days.at(-1)).toMatchObject({ label: today });
    expect(days.reduce((n, d) => n + d.created, 0)).toBe(3);
  });
});
