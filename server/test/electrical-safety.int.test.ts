import { electricalSafetyMenus as menus } from '@sitewatch/contract/electrical-safety';
import { encodeOperationLogDetail } from '@sitewatch/contract/operation-log';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { modbusTcpDriver } from '../src/collector/drivers/modbus-tcp.ts';
import { unbalance } from '../src/modules/energy/quality.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { modbusPeer } from './conformance/peers.ts';
import { fakeTokens, testLoginKey, useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser, encryptFor } from './helpers/login.ts';

const password = 'Switch-Pass-61';
const enc = (text: string) => encryptFor(testLoginKey.publicKey, text);

/**
 * Electrical quality and safety (docs/electrical-safety.md) through the API on both databases: the
 * item mapping (read from cell names, stored, validated), live figures judged by the limits, the
 * analysis from the series store, the settings with the hashed verification password, the
 * distribution diagram, and a switch operation that reaches a Modbus peer's coil only with the
 * right password, the control function and the site.
 */
describeEachDatabase('electrical safety: quality, settings, distribution and switch operation', (dialect) => {
  // Polls run on the app's own clock, moved by the test; the Modbus peer answers in real time and
  // settled() waits for its answers.
  const t = useManualTestApp(dialect, { drivers: { 'modbus-tcp': modbusTcpDriver } });
  let peer: Awaited<ReturnType<typeof modbusPeer>>;
  const ids = { north: 0, south: 0, meter: 0, switchDevice: 0, modbus: 0, southMeter: 0, coil: 0 };
  const items = new Map<string, number>();
  const admin = { authorization: 'Bearer admin-token' };
  const operator = { authorization: 'Bearer es-operator' };
  const outsider = { authorization: 'Bearer es-outsider' };
  const viewer = { authorization: 'Bearer es-viewer' };

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = admin, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) => {
    const res = await call(method, url, headers, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  /** A refused call: its status and its message (zh_cn, the default language). */
  const refused = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    status: number,
    payload?: object,
    headers = admin,
  ) => {
    const res = await call(method, url, headers, payload);
    expect(res.statusCode, res.body).toBe(status);
    return res.json().message as string;
  };
  const setItem = (name: string, value: number) =>
    t.database.db.kysely
      .updateTable('items')
      .set({ value, state: 1, last_check: Math.floor(Date.now() / 1000) })
      .where('id', '=', items.get(name)!)
      .execute();

  beforeAll(async () => {
    peer = await modbusPeer();
    await peer.start();
    ids.north = (await ok('POST', 'setting/device_groups', { name: 'North room', weight: 1 })).id;
    ids.south = (await ok('POST', 'setting/device_groups', { name: 'South room', weight: 2 })).id;
    const device = async (name: string, site: number, over: object) =>
      (await ok('POST', 'setting/devices', { name, device_group_id: site, check_interval: 1, ...over })).id as number;
    // Simulated devices are not polled (disabled): the test sets their values in the rows.
    const simulated = { driver: 'simulator', enable: false };
    ids.meter = await device('PM-N1', ids.north, { ...simulated, code: 'power_meter', template_id: 4 });
    ids.switchDevice = await device('SW-N1', ids.north, { ...simulated, code: 'switch', template_id: 8 });
    const modbus = { driver: 'modbus-tcp', ip: '127.0.0.1', port: peer.port, protocol_id: 1 };
    ids.modbus = await device('PM-N2', ids.north, { ...modbus, code: 'power_meter', template_id: 21 });
    ids.southMeter = await device('PM-S1', ids.south, { ...modbus, code: 'power_meter', template_id: 21 });
    for (const [deviceId, prefix] of [
      [ids.meter, 'm'],
      [ids.switchDevice, 'sw'],
      [ids.modbus, 'mb'],
      [ids.southMeter, 's'],
    ] as const) {
      for (const i of (await ok('GET', `setting/items?device_id=${deviceId}&limit=100`)).data)
        items.set(`${prefix}.${i.item_cell_name}`, i.id);
    }
    ids.coil = items.get('mb.SW1')!;

    // An operator of the north room with switch control, a viewer without it, and an outsider of the south room.
    const k = t.database.db.kysely;
    const role = async (id: number, site: number, functions: Array<[number, string]>) => {
      await k
        .insertInto('roles')
        .values({ id, name: `es-${id}`, remark: '', created_at: 0 })
        .execute();
      await k.insertInto('role_sites').values({ role_id: id, site_id: site }).execute();
      for (const menu of Object.values(menus))
        await k.insertInto('role_menus').values({ role_id: id, menu_id: menu }).execute();
      for (const [menu, code] of functions) {
        const f = await k
          .selectFrom('functions')
          .select('id')
          .where('menu_id', '=', menu)
          .where('code', '=', code)
          .executeTakeFirstOrThrow();
        await k.insertInto('role_functions').values({ role_id: id, function_id: f.id }).execute();
      }
    };
    await role(71, ids.north, [
      [menus.switchOpt, 'control'],
      [menus.monitor, 'edit'],
    ]);
    await role(72, ids.north, []);
    await role(73, ids.south, [[menus.switchOpt, 'control']]);
    const user = async (token: string, name: string, roleId: number) => {
      const id = await createUser(t.database.db, name, 'Some-Pass-123', [roleId]);
      fakeTokens[token] = { user_id: id, user_name: name, session_id: 7100 + roleId };
    };
    // User 1 is never restricted: the administrator takes that id first.
    await createUser(t.database.db, 'admin', 'Some-Pass-123', [1]);
    await user('es-operator', 'es-operator', 71);
    await user('es-viewer', 'es-viewer', 72);
    await user('es-outsider', 'es-outsider', 73);
    await t.sitewatch.start();
  });
  afterAll(async () => {
    for (const token of ['es-operator', 'es-viewer', 'es-outsider']) delete fakeTokens[token];
    await peer?.stop();
  });

  it('reads the mapping from cell names, stores a valid one and refuses bad ones', async () => {
    const meters = await ok('GET', `electricity_safe/meters?device_group_id=${ids.north}`);
    const pm = meters.find((m: { device_id: number }) => m.device_id === ids.meter);
    expect(pm).toMatchObject({ source: 'auto', code: 'power_meter', device_group_name: 'North room' });
    expect(pm.points).toMatchObject({
      ua: items.get('m.Ua'),
      ic: items.get('m.Ic'),
      p: items.get('m.P'),
      q: items.get('m.Q'),
      pf: items.get('m.PF'),
      f: items.get('m.F'),
      thd_u: items.get('m.UTHD'),
      s: null,
    });
    const sw = meters.find((m: { device_id: number }) => m.device_id === ids.switchDevice);
    expect(sw.switches.map((s: { item_id: number }) => s.item_id)).toEqual(
      ['SW1', 'SW2', 'SW3', 'SW4'].map((c) => items.get(`sw.${c}`)),
    );
    // The south room is not the operator's: its meter is not listed, and its site is not found.
    const mine = await ok('GET', 'electricity_safe/meters', undefined, operator);
    expect(mine.map((m: { device_group_id: number }) => m.device_group_id)).not.toContain(ids.south);
    expect(await refused('GET', `electricity_safe/meters?device_group_id=${ids.south}`, 404, undefined, operator)).toBe(
      '站点不存在',
    );

    const url = `electricity_safe/meters/${ids.meter}`;
    const foreign = { points: { ua: items.get('sw.SW1') } };
    expect(await refused('PUT', url, 400, foreign)).toBe('监控项不属于该设备');
    const twice = { points: { ua: items.get('m.Ua'), ub: items.get('m.Ua') } };
    expect(await refused('PUT', url, 400, twice)).toBe('同一监控项只能用于一个用途');
    expect(await refused('PUT', url, 400, { points: { voltage: items.get('m.Ua') } })).toContain('请求参数有误');
    expect(await refused('GET', 'electricity_safe/meters?device_group_id=abc', 400)).toContain('device_group_id');
    expect(
      await refused('PUT', url, 400, { switches: [{ item_id: items.get('m.P'), name: 'x'.repeat(51) }] }),
    ).toContain('内容过长');
    expect(await refused('PUT', url, 403, { points: {} }, viewer)).toBe('当前用户无权限访问此页面！');
    expect(await refused('DELETE', url, 403, undefined, viewer)).toBe('当前用户无权限访问此页面！');
    expect(await refused('DELETE', `electricity_safe/meters/${ids.southMeter}`, 404, undefined, operator)).toBe(
      '设备不存在',
    );
    expect(await refused('PUT', `electricity_safe/meters/${ids.southMeter}`, 404, { points: {} }, operator)).toBe(
      '设备不存在',
    );
    // Nothing was stored by the refusals.
    expect(await t.database.db.kysely.selectFrom('electrical_meters').selectAll().execute()).toHaveLength(0);

    const stored = await ok('PUT', url, {
      points: { ua: items.get('m.Ua'), ub: items.get('m.Ub'), uc: items.get('m.Uc'), p: items.get('m.P') },
      switches: [{ item_id: items.get('m.EP'), name: 'Main' }],
    });
    expect(stored).toMatchObject({ source: 'stored', switches: [{ item_id: items.get('m.EP'), name: 'Main' }] });
    expect(stored.points).toMatchObject({ ua: items.get('m.Ua'), ia: null, pf: null });
    const reset = await ok('DELETE', url);
    expect(reset.source).toBe('auto');
    expect(reset.points.pf).toBe(items.get('m.PF'));
  });

  it('judges live figures by the limits and keeps them per meter', async () => {
    for (const [cell, v] of [
      ['Ua', 230],
      ['Ub', 220],
      ['Uc', 210],
      ['Ia', 30],
      ['Ib', 30],
      ['Ic', 30],
      ['P', 8],
      ['Q', 6],
      ['PF', 0.8],
      ['F', 50.1],
      ['UTHD', 6],
    ] as const)
      await setItem(`m.${cell}`, v);
    const answer = await ok('GET', `energy/elect_monitor?device_id=${ids.meter}`);
    expect(answer.limits).toMatchObject({ voltage_unbalance_max: 2, pf_min: 0.9, thd_u_max: 5 });
    const [row] = answer.data;
    expect(row.readings).toMatchObject({ ua: 230, ub: 220, uc: 210, pf: 0.8 });
    // NEMA: the largest deviation (10 V) over the mean (220 V).
    expect(row.figures.voltage_unbalance).toBeCloseTo(unbalance(230, 220, 210)!, 3);
    expect(row.figures.voltage_unbalance).toBeCloseTo(4.545, 3);
    expect(row.figures).toMatchObject({ current_unbalance: 0, pf: 0.8, pf_source: 'item', thd_u: 6, frequency: 50.1 });
    expect(row.figures.voltage_deviation).toBeCloseTo(4.545, 3);
    expect(row.issues).toEqual(['voltage_unbalance', 'thd_u', 'pf']);
    expect(await refused('GET', `energy/elect_monitor?device_group_id=${ids.south}`, 404, undefined, operator)).toBe(
      '站点不存在',
    );
    expect(await refused('GET', 'energy/elect_monitor?device_id=abc', 400)).toContain('device_id');
  });

  it('analyses a meter over time from the series store', async () => {
    const store = createSeriesStore(t.database.db);
    const base = Date.UTC(2026, 0, 5, 8) / 1000;
    for (let m = 0; m < 3; m++) {
      const ts = (base + m * 60) * 1000;
      store.append(items.get('m.Ua')!, ts, 220 + m * 10);
      store.append(items.get('m.Ub')!, ts, 220);
      store.append(items.get('m.Uc')!, ts, 220 - m * 10);
      store.append(items.get('m.PF')!, ts, 0.95 - m * 0.1);
    }
    await store.flush();
    const a = await ok('GET', `energy/elect_analysis?device_id=${ids.meter}&t1=${base}&t2=${base + 3600}`);
    expect(a.resolution).toBe('minute');
    expect(a.points).toHaveLength(3);
    expect(a.points.map((p: { voltage_unbalance: number }) => p.voltage_unbalance)).toEqual([0, 4.545, 9.091]);
    expect(a.points[1].phases).toMatchObject({ ua: 230, ub: 220, uc: 210 });
    expect(a.summary.voltage_unbalance).toMatchObject({ max: 9.091, min: 0, over_pct: 66.67, limit: 2 });
    expect(a.summary.pf).toMatchObject({ over_pct: 66.67, limit: 0.9 });
    const year = await ok('GET', `energy/elect_analysis?device_id=${ids.meter}&t1=${base}&t2=${base + 30 * 86_400}`);
    expect(year.resolution).toBe('hour');
    expect(year.points).toHaveLength(1);
    const quarter = await ok('GET', `energy/elect_analysis?device_id=${ids.meter}&t1=${base}&t2=${base + 90 * 86_400}`);
    expect(quarter.resolution).toBe('day');
    expect(quarter.points).toHaveLength(1);
    expect(quarter.points[0].voltage_unbalance).toBeCloseTo(unbalance(230, 220, 210)!, 3);

    expect(
      await refused('GET', `energy/elect_analysis?device_id=${ids.meter}&t1=${base}&t2=${base - 1}`, 400),
    ).toContain('结束时间不能早于开始时间');
    expect(await refused('GET', `energy/elect_analysis?device_id=${ids.meter}&t1=0&t2=${400 * 86_400}`, 400)).toContain(
      '时间范围不能超过一年',
    );
    expect(
      await refused('GET', `energy/elect_analysis?device_id=${ids.southMeter}&t1=0&t2=60`, 404, undefined, operator),
    ).toBe('该设备没有电量监控项');
  });

  it('stores the settings, the verification password only as a hash', async () => {
    expect(await ok('GET', 'setting/power_safety_settings')).toMatchObject({
      control_enabled: false,
      password_set: false,
      limits: { voltage_unbalance_max: 2, frequency_band: 0.2 },
    });
    const limits = (await ok('GET', 'setting/power_safety_settings')).limits;
    const save = (body: object, headers = admin) => call('PUT', 'setting/power_safety_settings', headers, body);
    const message = async (body: object, status = 400, headers = admin) => {
      const res = await save(body, headers);
      expect(res.statusCode, res.body).toBe(status);
      return res.json().message;
    };
    expect(await message({ control_enabled: true, limits })).toBe('启用开关操作前须先设置验证密码');
    expect(await message({ control_enabled: false, limits: { ...limits, thd_u_max: 0 } })).toContain(
      '百分比须在 0.1 到 100 之间',
    );
    expect(await message({ control_enabled: false, limits: { ...limits, pf_min: 2 } })).toContain(
      '功率因数下限须在 0 到 1 之间',
    );
    expect(await message({ control_enabled: false, limits: { ...limits, frequency_nominal: 55 } })).toContain(
      '额定频率须为 50 Hz 或 60 Hz',
    );
    expect(await message({ control_enabled: true, limits, new_password: enc('abc') })).toBe('验证密码至少 6 位');
    // The operator may operate switches but not change their settings.
    expect(await message({ control_enabled: false, limits }, 403, operator)).toBe('当前用户无权限访问此页面！');
    expect(
      await t.database.db.kysely.selectFrom('module_settings').selectAll().where('k', '=', 'power_safety').execute(),
    ).toHaveLength(0);

    const saved = await ok('PUT', 'setting/power_safety_settings', {
      control_enabled: true,
      limits,
      new_password: enc(password),
    });
    expect(saved).toMatchObject({ control_enabled: true, password_set: true });
    const row = await t.database.db.kysely
      .selectFrom('module_settings')
      .select('v')
      .where('k', '=', 'power_safety')
      .executeTakeFirstOrThrow();
    expect(row.v).toContain('$argon2id$');
    expect(row.v).not.toContain(password);
    // Replacing it needs the one in force.
    expect(await message({ control_enabled: true, limits, new_password: enc('Other-Pass-77') })).toBe('密码不能为空！');
    expect(
      await message({
        control_enabled: true,
        limits,
        new_password: enc('Other-Pass-77'),
        old_password: enc('nope-nope'),
      }),
    ).toBe('原验证密码错误');
    expect(
      (
        await t.database.db.kysely
          .selectFrom('module_settings')
          .select('v')
          .where('k', '=', 'power_safety')
          .executeTakeFirstOrThrow()
      ).v,
    ).toBe(row.v);
  });

  it('shows the distribution diagram with switch states', async () => {
    await setItem('sw.SW1', 1);
    await setItem('sw.SW2', 0);
    const d = await ok('GET', `electricity_safe/distribution_power?device_group_id=${ids.north}`);
    expect(d).toMatchObject({ control_enabled: true, password_set: true });
    expect(d.data).toHaveLength(1);
    const sw = d.data[0].devices.find((x: { device_id: number }) => x.device_id === ids.switchDevice);
    expect(sw.switches.slice(0, 2)).toMatchObject([
      { item_id: items.get('sw.SW1'), switch_state: 'on', writable: true },
      { item_id: items.get('sw.SW2'), switch_state: 'off' },
    ]);
    const mb = d.data[0].devices.find((x: { device_id: number }) => x.device_id === ids.modbus);
    expect(mb.switches).toMatchObject([{ item_id: ids.coil, writable: true }]);
    expect(
      await refused(
        'GET',
        `electricity_safe/distribution_power?device_group_id=${ids.south}`,
        404,
        undefined,
        operator,
      ),
    ).toBe('站点不存在');
    expect(await refused('GET', 'electricity_safe/distribution_power?device_group_id=0', 400)).toContain(
      'device_group_id',
    );
  });

  it('operates a switch on the device only with the password, the control function and the site', async () => {
    const op = (body: object, headers = operator) => call('POST', 'electricity_safe/switch_opt', headers, body);
    const close = { item_id: ids.coil, value: 1 };
    const logRows = () =>
      t.database.db.kysely
        .selectFrom('operation_logs')
        .select(['result', 'detail', 'user_name'])
        .where('action', '=', 'switch_opt')
        .orderBy('id')
        .execute();

    // Wrong password: refused, logged as a failed attempt, and the coil never written.
    const wrong = await op({ ...close, password: enc('Wrong-Pass-00') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('密码错误，请重新输入！');
    const empty = await op({ ...close, password: '' });
    expect(empty.json().message).toBe('密码不能为空！');
    expect((await op({ ...close, value: 2, password: enc(password) })).statusCode).toBe(400);
    // Without the control function (403), or outside the caller's sites (404): nothing reaches the device.
    expect((await op({ ...close, password: enc(password) }, viewer)).statusCode).toBe(403);
    const foreign = await op({ ...close, password: enc(password) }, outsider);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('开关不存在');
    // An item that is no switch is not operated either.
    expect((await op({ item_id: items.get('mb.P'), value: 1, password: enc(password) })).statusCode).toBe(404);
    await t.sitewatch.settled();
    expect(peer.coils[0]).toBe(false);
    expect(await logRows()).toEqual([
      {
        result: 0,
        detail: encodeOperationLogDetail({ code: 'switchWrongPassword', params: { value: '1' } }),
        user_name: 'es-operator',
      },
    ]);

    const done = await op({ ...close, password: enc(password) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toEqual({ item_id: ids.coil, value: 1 });
    expect(peer.coils[0]).toBe(true);
    expect((await logRows()).at(-1)).toEqual({ result: 1, detail: '1', user_name: 'es-operator' });

    // The log names the operator by their alias (issue 38); the row keeps the login name.
    const k = t.database.db.kysely;
    await k.updateTable('users').set({ alias: '配电值班员' }).where('user_name', '=', 'es-operator').execute();
    const log = await ok('GET', 'electricity_safe/switch_opt?page=1&limit=10', undefined, operator);
    expect(log.total).toBe(2);
    expect(log.data[0]).toMatchObject({
      item_id: ids.coil,
      device_name: 'PM-N2',
      device_group_name: 'North room',
      value: 1,
      result: 1,
      user_name: '配电值班员',
    });
    await k.updateTable('users').set({ alias: '' }).where('user_name', '=', 'es-operator').execute();
    expect((await ok('GET', 'electricity_safe/switch_opt?limit=1', undefined, operator)).data[0].user_name).toBe(
      'es-operator',
    );
    expect((await ok('GET', 'electricity_safe/switch_opt', undefined, outsider)).total).toBe(0);
    expect(await refused('GET', 'electricity_safe/switch_opt?limit=0', 400)).toContain('limit');

    // With switch control turned off, even the right password operates nothing.
    const limits = (await ok('GET', 'setting/power_safety_settings')).limits;
    await ok('PUT', 'setting/power_safety_settings', { control_enabled: false, limits });
    const off = await op({ item_id: ids.coil, value: 0, password: enc(password) });
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toBe('开关操作未启用');
    expect(peer.coils[0]).toBe(true);

    // Five wrong passwords within the window (one above, four here) stop even the right one.
    await ok('PUT', 'setting/power_safety_settings', { control_enabled: true, limits });
    for (let i = 0; i < 4; i++)
      expect((await op({ item_id: ids.coil, value: 0, password: enc(`Guess-${i}-pass`) })).statusCode).toBe(400);
    const blocked = await op({ item_id: ids.coil, value: 0, password: enc(password) });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe('验证密码错误次数过多，请 15 分钟后再试');
    await t.sitewatch.settled();
    expect(peer.coils[0]).toBe(true);
  });

  it('sums up the sites for the overview and the home panel', async () => {
    // The coil closed by the operation is read back from the device by the next poll.
    const coilState = async () => {
      const d = await ok('GET', `electricity_safe/distribution_power?device_group_id=${ids.north}`);
      const mb = d.data[0].devices.find((x: { device_id: number }) => x.device_id === ids.modbus);
      return mb.switches[0].switch_state;
    };
    await t.clock.advance(1_000);
    expect(await coilState()).toBe('on');
    const o = await ok('GET', 'overview/electrical_safety');
    const north = o.sites.find((s: { device_group_id: number }) => s.device_group_id === ids.north);
    expect(north).toMatchObject({
      meters: 2,
      meters_with_issues: 1,
      switches: 5,
      switches_on: 2,
      switches_off: 1,
      switches_unknown: 2,
    });
    expect(o.issues.map((i: { issue: string }) => i.issue)).toEqual(['voltage_unbalance', 'thd_u', 'pf']);
    expect(o.worst.voltage_unbalance).toBeCloseTo(4.545, 3);
    // The site's power follows energy's site-total rule (docs/energy.md "A site's total"): once PM-N2
    // is the north room's incoming meter and PM-N1 an IT meter beneath it, PM-N1's 8 kW are in PM-N2's.
    const energyMeter = async (name: string, item: number, category: string) =>
      ok('POST', 'setting/energy', { name, item_id: item, kind: 'power', category, device_group_id: ids.north });
    const incoming = await energyMeter('Incoming', (items.get('mb.P') ?? items.get('mb.SW1'))!, 'total');
    const racks = await energyMeter('Racks', items.get('m.P')!, 'it');
    const after = (await ok('GET', 'overview/electrical_safety')).sites.find(
      (s: { device_group_id: number }) => s.device_group_id === ids.north,
    );
    expect(after.power_kw ?? 0).toBeCloseTo((north.power_kw ?? 0) - 8, 2);
    await ok('DELETE', `setting/energy/${racks.id}`);
    await ok('DELETE', `setting/energy/${incoming.id}`);
    const mine = await ok('GET', 'overview/electrical_safety', undefined, outsider);
    expect(mine.sites.map((s: { device_group_id: number }) => s.device_group_id)).toEqual([ids.south]);
    expect((await call('GET', 'overview/electrical_safety', { authorization: 'Bearer nobody' })).statusCode).toBe(401);
  });
});
