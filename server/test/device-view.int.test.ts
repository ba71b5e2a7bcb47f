import { defaultLoginSafe } from '@sitewatch/contract/auth';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import type { Collector } from '../src/collector/collector.ts';
import { createDeviceStateLog } from '../src/modules/device-view/index.ts';
import { builtInDefaults } from '../src/modules/global-config/index.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin, createUser, encryptFor, loginHeader, publicKeyOf } from './helpers/login.ts';

const noCaptcha = { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } };

/** A collector that answers writes (one item refuses them) and knows no live values. */
const writes: Array<[number, number]> = [];
let refusedItem = -1;
const fakeCollector = {
  liveItem: () => undefined,
  liveDevice: () => undefined,
  reload: async () => undefined,
  write: async (itemId: number, value: number) => {
    if (itemId === refusedItem) throw new Error('register is read-only');
    writes.push([itemId, value]);
  },
} as unknown as Collector;

describeEachDatabase('device pages: overview, log and curve', (dialect) => {
  const t = useTestApp(dialect, {
    authenticator: undefined,
    globalConfigDefaults: noCaptcha,
    loginRateLimit: { max: 100_000, timeWindow: 60_000 },
    collector: fakeCollector,
  });

  it('serve one device to those granted its site, with its state changes, alarms and operations', async () => {
    const db = t.database.db;
    refusedItem = -1;
    writes.length = 0;
    const first = await createFirstAdmin(db);
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
    const admin = await loginHeader(t.app, 'admin', 'Admin-Strong-91');
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
      t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });

    const hq = (await call('POST', 'setting/device_groups', admin, { name: 'HQ', weight: 2 })).json().data;
    const north = (
      await call('POST', 'setting/device_groups', admin, { name: 'North room', weight: 1, parent_id: hq.id })
    ).json().data;
    const south = (await call('POST', 'setting/device_groups', admin, { name: 'South room', weight: 1 })).json().data;
    const device = (
      await call('POST', 'setting/devices', admin, {
        name: 'UPS-N',
        device_group_id: north.id,
        driver: 'simulator',
        code: 'ups',
        template_id: 2,
      })
    ).json().data;
    const other = (
      await call('POST', 'setting/devices', admin, {
        name: 'TH-S',
        device_group_id: south.id,
        driver: 'simulator',
        code: 'temp_hum',
        template_id: 1,
      })
    ).json().data;
    const items = (await call('GET', `setting/items?device_id=${device.id}&limit=100`, admin)).json().data.data;
    const otherItem = (await call('GET', `setting/items?device_id=${other.id}`, admin)).json().data.data[0];
    expect(items.length).toBe(17);
    const [first1, second] = items as Array<{ id: number; name: string }>;

    // Two state changes (the second repeats nothing), recorded as the collector's hook would.
    const states = createDeviceStateLog(db);
    states.record(device.id, { state: 1, reason: '', time: 1_700_000_000 });
    states.record(device.id, { state: 1, reason: '', time: 1_700_000_010 });
    states.record(device.id, { state: 4, reason: 'no answer within 3000 ms', time: 1_700_000_100 });
    await states.flush();

    // An open alarm of the first item with a raise and a confirmation in the alarm log.
    await db.kysely
      .insertInto('alarms')
      .values({
        id: 501,
        item_id: first1!.id,
        device_id: device.id,
        device_group_id: north.id,
        item_name: first1!.name,
        device_name: 'UPS-N',
        device_group_name: 'North room',
        kind: 'threshold',
        status: 2,
        level: 2,
        color: '#fa541c',
        info: 'above 250',
        value: 260,
        start_time: 1_700_000_200,
        end_time: null,
        last_check: 1_700_000_200,
        handling: 1,
        remarks: 'on it',
        confirmed_by: 'admin',
        confirmed_at: 1_700_000_300,
        notify_count: 0,
        escalated: 0,
      })
      .execute();
    const alarmLog = (time: number, action: string, detail: string, user: string) => ({
      time,
      alarm_id: 501,
      item_id: first1!.id,
      device_group_id: north.id,
      item_name: first1!.name,
      device_name: 'UPS-N',
      device_group_name: 'North room',
      state: 2,
      action,
      result: 1,
      detail,
      user_name: user,
      attempts: 1,
    });
    await db.kysely
      .insertInto('alarm_logs')
      .values([alarmLog(1_700_000_200, 'raise', 'above 250', ''), alarmLog(1_700_000_300, 'confirm', 'on it', 'admin')])
      .execute();

    // A setpoint write and an item edit reach the operation log and so the device log.
    expect(
      (await call('PUT', 'device_groups/device/item', admin, { item_id: second!.id, value: 42.5 })).statusCode,
    ).toBe(200);
    expect(writes).toContainEqual([second!.id, 42.5]);
    refusedItem = second!.id;
    expect((await call('PUT', 'device_groups/device/item', admin, { item_id: second!.id, value: 7 })).statusCode).toBe(
      409,
    );
    const item = (await call('GET', `setting/items/${first1!.id}`, admin)).json().data;
    const {
      id: _id,
      device_name: _dn,
      device_group_id: _g,
      state: _s,
      value: _v,
      last_check: _l,
      info: _i,
      ...editable
    } = item;
    expect((await call('PUT', `setting/items/${first1!.id}`, admin, { ...editable, alarm_level: 3 })).statusCode).toBe(
      200,
    );
    // Operations of another device stay out of this device's log.
    expect(
      (await call('PUT', 'device_groups/device/item', admin, { item_id: otherItem.id, value: 1 })).statusCode,
    ).toBe(200);

    // People are named by their alias (issue 38); the rows keep the login name written then.
    await db.kysely.updateTable('users').set({ alias: 'Ada Admin' }).where('user_name', '=', 'admin').execute();

    // Overview.
    const overview = (await call('GET', `device_groups/device/overview?device_id=${device.id}`, admin)).json().data;
    expect(overview).toMatchObject({
      id: device.id,
      name: 'UPS-N',
      site_path: ['HQ', 'North room'],
      driver: 'simulator',
      code: 'ups',
      template_id: 2,
      counts: { total: 17, normal: 0, abnormal: 0, alarming: 1 },
    });
    expect(overview.category_name).not.toBe('');
    expect(overview.template_name).not.toBe('');
    expect(overview.alarms).toEqual([
      expect.objectContaining({ id: 501, item_id: first1!.id, confirmed_by: 'Ada Admin' }),
    ]);
    expect(overview.writable_item_ids).toHaveLength(17);

    // Log: newest first, every kind, with who and remarks.
    const log = (q: string, headers = admin) =>
      call('GET', `device_groups/device/log?device_id=${device.id}${q}`, headers);
    const all = (await log('')).json().data;
    const summary = all.data.map((e: { kind: string; event: string }) => `${e.kind}:${e.event}`);
    expect(summary.slice(-4)).toEqual(['alarm:confirm', 'alarm:raise', 'state:state', 'state:state']);
    expect(summary.slice(0, 3).sort()).toEqual(['operation:item', 'operation:setpoint', 'operation:setpoint']);
    expect(all.total).toBe(7);
    const setpoints = all.data.filter((e: { event: string }) => e.event === 'setpoint');
    expect(
      setpoints.map((e: { detail: string; result: number; item_name: string }) => [e.result, e.item_name]),
    ).toEqual([
      [0, second!.name],
      [1, second!.name],
    ]);
    expect(setpoints[1].detail).toBe('42.5');
    expect(setpoints[0].detail).toContain('register is read-only');
    const confirm = all.data.find((e: { event: string }) => e.event === 'confirm');
    expect(confirm).toMatchObject({ user_name: 'Ada Admin', detail: 'on it', item_name: first1!.name });
    expect(all.data.find((e: { event: string }) => e.event === 'raise').user_name).toBe('');
    expect(new Set(setpoints.map((e: { user_name: string }) => e.user_name))).toEqual(new Set(['Ada Admin']));
    const unknown = all.data.find((e: { kind: string; state: number }) => e.kind === 'state' && e.state === 4);
    expect(unknown).toMatchObject({ prev_state: 1, detail: 'no answer within 3000 ms', time: 1_700_000_100 });

    // Filters and paging.
    expect((await log('&kinds=state')).json().data.total).toBe(2);
    expect((await log('&kinds=alarm,state')).json().data.total).toBe(4);
    expect((await log('&t1=1700000050&t2=1700000250&kinds=state,alarm')).json().data.data.length).toBe(2);
    const page2 = (await log('&limit=3&page=2')).json().data;
    expect(page2.total).toBe(7);
    expect(page2.data.map((e: { key: string }) => e.key)).toEqual(
      all.data.slice(3, 6).map((e: { key: string }) => e.key),
    );

    // Curves from the series store, down-sampled; a shifted read returns the earlier period.
    const store = createSeriesStore(db);
    const t0 = 1_700_000_000;
    for (let i = 0; i < 7 * 24 * 60; i++) store.append(first1!.id, (t0 + i * 60) * 1000, 200 + (i % 50));
    for (let i = 0; i < 60; i++) store.append(otherItem.id, (t0 + i * 60) * 1000, 20);
    await store.flush();
    const curve = (q: string, headers = admin) => call('GET', `device_groups/device/curve?${q}`, headers);
    const week = `t1=${t0}&t2=${t0 + 7 * 86_400}`;
    const series = (await curve(`item_ids=${first1!.id},${otherItem.id}&${week}`)).json().data;
    expect(series).toHaveLength(2);
    expect(series[0]).toMatchObject({ item_id: first1!.id, device_name: 'UPS-N', resolution: 'minute' });
    expect(series[0].points.length).toBeGreaterThan(500);
    expect(series[0].points.length).toBeLessThanOrEqual(1000);
    expect(series[1].points.length).toBeGreaterThan(0);
    const shifted = (await curve(`item_ids=${first1!.id}&t1=${t0 + 86_400}&t2=${t0 + 2 * 86_400}&shift=86400`)).json()
      .data[0];
    expect(shifted.points[0].ts).toBeLessThan(t0 + 86_400);

    // Export: an xlsx with the current and the compared period.
    const exported = await call('POST', 'device_groups/device/curve/export', admin, {
      item_ids: [first1!.id],
      t1: t0 + 86_400,
      t2: t0 + 2 * 86_400,
      shift: 86_400,
      points: 100,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBeGreaterThan(100);
    expect(sheet.getRow(2).getCell(1).value).toBe('UPS-N');
    const periods = new Set<string>();
    sheet.eachRow((row, n) => {
      if (n > 1) periods.add(String(row.getCell(3).value));
    });
    expect(periods.size).toBe(2);

    // Site scoping: a user of the south site gets 404 for the north device and its items;
    // a user without /station gets 403.
    await db.kysely.insertInto('roles').values({ id: 7, name: 'south only', remark: '', created_at: 0 }).execute();
    await db.kysely.insertInto('role_sites').values({ role_id: 7, site_id: south.id }).execute();
    await db.kysely.insertInto('role_menus').values({ role_id: 7, menu_id: 101 }).execute();
    await createUser(db, 'southman', 'South-Pass-123', [7]);
    const southman = await loginHeader(t.app, 'southman', 'South-Pass-123');
    expect((await call('GET', `device_groups/device/overview?device_id=${device.id}`, southman)).statusCode).toBe(404);
    expect((await call('GET', `device_groups/device/overview?device_id=${other.id}`, southman)).statusCode).toBe(200);
    expect((await log('', southman)).statusCode).toBe(404);
    expect((await curve(`item_ids=${first1!.id}&${week}`, southman)).statusCode).toBe(404);
    expect((await curve(`item_ids=${otherItem.id},${first1!.id}&${week}`, southman)).statusCode).toBe(404);
    expect((await curve(`item_ids=${otherItem.id}&${week}`, southman)).statusCode).toBe(200);
    const exportSouth = await call('POST', 'device_groups/device/curve/export', southman, {
      item_ids: [first1!.id],
      t1: t0,
      t2: t0 + 3600,
    });
    expect(exportSouth.statusCode).toBe(404);
    await db.kysely.insertInto('roles').values({ id: 8, name: 'no station', remark: '', created_at: 0 }).execute();
    await db.kysely.insertInto('role_sites').values({ role_id: 8, site_id: north.id }).execute();
    await createUser(db, 'nostation', 'No-Station-123', [8]);
    const nostation = await loginHeader(t.app, 'nostation', 'No-Station-123');
    expect((await call('GET', `device_groups/device/overview?device_id=${device.id}`, nostation)).statusCode).toBe(403);
    expect((await call('GET', `device_groups/device/overview?device_id=${device.id}`, {})).statusCode).toBe(401);

    // Validation: 400 with a message, never 500; unknown devices 404.
    const bad = async (url: string, method: 'GET' | 'POST' = 'GET', payload?: object) => {
      const res = await call(method, url, admin, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).not.toBe('');
      return res.json();
    };
    await bad('device_groups/device/overview?device_id=abc');
    await bad('device_groups/device/overview');
    const kinds = await bad(`device_groups/device/log?device_id=${device.id}&kinds=state,bogus`);
    expect(kinds.data.fields).toContainEqual({
      path: 'querystring.kinds',
      message: '日志类型只能是state、alarm、operation',
    });
    await bad(`device_groups/device/log?device_id=${device.id}&t1=20&t2=10`);
    await bad(`device_groups/device/log?device_id=${device.id}&limit=1000`);
    await bad(`device_groups/device/curve?item_ids=&${week}`);
    await bad(`device_groups/device/curve?item_ids=1,x&${week}`);
    await bad(`device_groups/device/curve?item_ids=${first1!.id}&t1=20&t2=10`);
    await bad(`device_groups/device/curve?item_ids=${Array.from({ length: 21 }, (_, i) => i + 1).join(',')}&${week}`);
    await bad('device_groups/device/curve/export', 'POST', { item_ids: [], t1: 0, t2: 10 });
    await bad('device_groups/device/curve/export', 'POST', { item_ids: [1], t1: 0, t2: 10, extra: 1 });
    expect((await call('GET', 'device_groups/device/overview?device_id=999999', admin)).statusCode).toBe(404);
    expect((await call('GET', 'device_groups/device/log?device_id=999999', admin)).statusCode).toBe(404);
    expect((await curve(`item_ids=999999&${week}`)).statusCode).toBe(404);
  });

  it('keeps the state log bounded per device and drops rows of deleted devices', async () => {
    const db = t.database.db;
    const site = await db.kysely
      .insertInto('device_groups')
      .values({
        name: 'Bounded',
        parent_id: 0,
        weight: 1,
        has_device: 1,
        longitude: null,
        latitude: null,
        background: '',
        scene: '',
        extend: '',
        created_at: 0,
        updated_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const device = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/devices',
        headers: await loginHeader(t.app, 'admin', 'Admin-Strong-91'),
        payload: { name: 'Flappy', device_group_id: site.id, driver: 'simulator', code: 'leak', template_id: 5 },
      })
    ).json().data;
    const log = createDeviceStateLog(db, { keepPerDevice: 10, trimEvery: 5 });
    for (let i = 0; i < 43; i++) log.record(device.id, { state: i % 2 ? 4 : 1, reason: `r${i}`, time: 1000 + i });
    await log.flush();
    const rows = await db.kysely
      .selectFrom('device_state_logs')
      .select(['reason', 'prev_state'])
      .where('device_id', '=', device.id)
      .orderBy('id')
      .execute();
    expect(rows.length).toBeLessThanOrEqual(14);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.at(-1)).toEqual({ reason: 'r42', prev_state: 4 });
    // A restart that sees the same state again records nothing.
    const restarted = createDeviceStateLog(db);
    restarted.record(device.id, { state: 1, reason: 'again', time: 5000 });
    await restarted.flush();
    expect(
      (await db.kysely.selectFrom('device_state_logs').select('id').where('device_id', '=', device.id).execute())
        .length,
    ).toBe(rows.length);
    await db.kysely.deleteFrom('items').where('device_id', '=', device.id).execute();
    await db.kysely.deleteFrom('devices').where('id', '=', device.id).execute();
    expect(await log.pruneOrphans()).toBe(rows.length);
  });
});
