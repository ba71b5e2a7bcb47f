import { expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

/**
 * "Send a work order" as an action kind the work-orders area contributes (docs/automation.md,
 * "Action kinds"; docs/work-orders.md): an action saved with it checks its people, a dry run sends
 * nothing, a run sends an order of the action's site to its handler, made by the system as an
 * automatic dispatch is.
 */
describeEachDatabase('the work-order action kind', (dialect) => {
  const t = useTestApp(dialect);
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, status = 200) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token', 'accept-language': 'zh-CN' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };

  it('is offered, checks its people, dry-runs sending nothing and runs sending an order of the site', async () => {
    const kinds = (await call('GET', 'setting/action_kinds')).data as Array<{ kind: string; fields: unknown[] }>;
    expect(kinds.find((k) => k.kind === 'work_order.create')?.fields).toHaveLength(5);
    const handler = await createUser(t.database.db, 'wo-action-handler', 'Work-Pass-123');
    const reviewer = await createUser(t.database.db, 'wo-action-reviewer', 'Work-Pass-123');
    const site = (await call('POST', 'setting/device_groups', { name: '工单机房', weight: 1 })).data.id as number;
    const command = (patch: Record<string, unknown> = {}) => ({
      kind: 'work_order.create',
      params: {
        description: '巡检UPS电池',
        priority: 3,
        handler_id: handler,
        reviewer_id: reviewer,
        deadline_hours: 4,
        ...patch,
      },
    });
    const body = { name: '派发巡检工单', device_group_id: site, commands: [command()] };
    const refused = await call(
      'POST',
      'setting/actions',
      { ...body, commands: [command({ handler_id: 99_999 })] },
      400,
    );
    expect(refused.message).toBeTruthy();
    await call('POST', 'setting/actions', { ...body, commands: [command({ priority: 9 })] }, 400);
    const action = (await call('POST', 'setting/actions', body)).data;
    expect(action.commands[0].description).toContain('wo-action-handler');

    const orders = () =>
      t.database.db.kysely
        .selectFrom('work_orders')
        .select(['description', 'priority', 'handler_id', 'reviewer_id', 'device_group_id', 'creator_id', 'dispatch'])
        .execute();
    const dry = (await call('POST', 'pub/remote_control', { action_id: action.id, dry_run: true })).data;
    expect(dry.results[0]).toMatchObject({ kind: 'work_order.create', ok: true });
    expect(await orders()).toEqual([]);
    const run = (await call('POST', 'pub/remote_control', { action_id: action.id })).data;
    expect(run.results[0]).toMatchObject({ ok: true });
    expect(await orders()).toEqual([
      {
        description: '巡检UPS电池',
        priority: 3,
        handler_id: handler,
        reviewer_id: reviewer,
        device_group_id: site,
        creator_id: 0,
        dispatch: 'auto',
      },
    ]);

    // The handler disabled since: the run says so and sends nothing.
    await t.database.db.kysely.updateTable('users').set({ enable: 0 }).where('id', '=', handler).execute();
    const later = (await call('POST', 'pub/remote_control', { action_id: action.id })).data;
    expect(later.results[0].ok).toBe(false);
    expect(JSON.parse(later.results[0].detail)).toEqual({
      code: 'refused',
      params: { key: 'workOrders.handlerNotFound', id: handler },
    });
    expect(await orders()).toHaveLength(1);
    await t.database.db.kysely.updateTable('users').set({ enable: 1 }).where('id', '=', handler).execute();

    // An item's overrun action: the order is linked to the alarm, its priority at least the level's.
    const device = (
      await call('POST', 'setting/devices', {
        name: 'UPS-1',
        device_group_id: site,
        driver: 'simulator',
        code: 'temp_hum',
        check_interval: 60,
      })
    ).data.id as number;
    const item = (
      await call('POST', 'setting/items', {
        device_id: device,
        name: '电池温度',
        value_type: 1,
        threshold_min: 0,
        threshold_max: 40,
        overrun_point: 0,
        recovery_point: 1,
        repetitions: 1,
        alarm_level: 1,
        overrun_action_id: action.id,
        source: { kind: 'simulator', model: 'analog', base: 20, spread: 0, noise: 0 },
      })
    ).data.id as number;
    await t.sitewatch.alarms.start();
    t.sitewatch.alarms.onSample(item, 55, Date.now());
    await t.sitewatch.settled();
    const alarm = await t.database.db.kysely
      .selectFrom('alarms')
      .select('id')
      .where('item_id', '=', item)
      .executeTakeFirstOrThrow();
    const linked = await t.database.db.kysely
      .selectFrom('work_orders')
      .select(['priority', 'alarm_id', 'alarm_level', 'description'])
      .where('alarm_id', '=', alarm.id)
      .execute();
    expect(linked).toEqual([{ priority: 5, alarm_id: alarm.id, alarm_level: 1, description: expect.any(String) }]);
    expect(linked[0]!.description).toMatch(/^巡检UPS电池\n.*UPS-1.*电池温度/s);
  });
});
