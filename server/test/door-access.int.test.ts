import { afterAll, beforeAll, expect, it } from 'vitest';
import { localTime } from '../src/modules/door-access/service.ts';
import { startWgSimulator, type WgSimulator } from '../src/modules/door-access/wg/simulator.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { type AdminCall, addSite, type Headers, realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { encryptFor, publicKeyOf } from './helpers/login.ts';

/**
 * Door access through the API (issue 34; docs/door-access.md): controllers, doors, cards and
 * permissions held by Sitewatch, pushed to a WG simulator on loopback by log_sync, the log read
 * from the controller's event index once, remote control with the verification password, and bad
 * input refused with the spec's messages and nothing changed.
 */
describeEachDatabase('door access (002 §7.1 setting/access_control, §7.8)', (dialect) => {
  const t = useManualTestApp(dialect, realLogin, Date.UTC(2026, 10, 28, 1, 0, 0));
  let sim: WgSimulator;
  let admin: Headers = {};
  let call: AdminCall;
  let site = 0;
  let controllerId = 0;
  let doorIds: number[] = [];
  const SERIAL = 423187757;

  beforeAll(async () => {
    sim = await startWgSimulator({ serial: SERIAL, timers: t.clock.timers, now: () => localTime(t.clock.now()) });
  });
  afterAll(async () => {
    await sim.close();
  });

  const ok = async (res: { json(): { code: number; data: unknown }; body: string }) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data as Record<string, unknown>;
  };
  const controller = (patch: Record<string, unknown> = {}) => ({
    name: 'Room A controller',
    device_group_id: site,
    brand: 'UHPPOTE',
    model: 'UTO311-L04',
    serial: SERIAL,
    address: '127.0.0.1',
    port: sim.port,
    doors: [
      { number: 1, nickname: 'Front', direction: 'in' },
      { number: 2, nickname: 'Back', direction: 'both' },
    ],
    ...patch,
  });
  const card = (patch: Record<string, unknown> = {}) => ({
    number: 0x7c0a2b,
    format: 'wiegand26',
    device_group_id: site,
    holder: 'Zhang Wei',
    gender: 'male',
    department: 'Operations',
    job_number: 'A-017',
    valid_from: '2026-01-01',
    valid_to: '2026-12-31',
    pin: 2468,
    doors: [{ door_id: doorIds[0], profile: 0 }],
    ...patch,
  });

  it('adds a controller with its doors, and a card with permission over one door', async () => {
    ({ admin, call } = await signInFirstAdmin(t));
    site = await addSite(call, 'Equipment room A');
    const made = await ok(await call('POST', 'access_control/device', admin, controller()));
    controllerId = made.id as number;
    const list = (await ok(await call('GET', 'access_control/device'))).list as Array<{
      id: number;
      doors: Array<{ id: number; number: number }>;
    }>;
    doorIds = list[0]!.doors.map((d) => d.id);
    expect(list[0]!.doors.map((d) => d.number)).toEqual([1, 2]);
    await ok(await call('POST', 'access_control/card', admin, card()));
    const cards = (await ok(await call('GET', 'access_control/card'))).list as Array<Record<string, unknown>>;
    // Shown both ways: Wiegand-26 facility:card beside the raw number; the PIN never answered.
    expect(cards[0]).toMatchObject({ number: 0x7c0a2b, display: '124:2603', has_pin: true });
    expect(cards[0]).not.toHaveProperty('pin');
  });

  it('refuses bad input with its messages and changes nothing', async () => {
    const before = await snapshotDigest(t.database.db);
    const cases: Array<[string, string, Record<string, unknown>, string, string]> = [
      ['POST', 'access_control/device', controller({ name: '' }), 'Name cannot be empty', '名称不能为空'],
      ['POST', 'access_control/device', controller({ address: '300.1.1.1' }), 'IP', 'IP不能为空或格式不正确'],
      ['POST', 'access_control/device', controller({ port: 70000 }), '1 to 65535', '端口为1到65535的数字'],
      ['POST', 'access_control/device', controller({ serial: 2 ** 32 }), 'serial', '控制器序列号'],
      ['POST', 'access_control/device', controller({ serial: SERIAL }), '', '该序列号的控制器已存在'],
      ['POST', 'access_control/device', controller({ doors: [{ number: 5 }] }), 'Door numbers', '门号为1到4'],
      ['POST', 'access_control/device', controller({ device_group_id: 0 }), '', '请选择站点'],
      ['POST', 'access_control/card', card({ number: 0x1000000 }), 'Wiegand-26', '韦根26'],
      ['POST', 'access_control/card', card({ number: 0 }), 'Invalid card', '卡号不正确'],
      ['POST', 'access_control/card', card({ valid_to: '2025-12-31' }), 'valid_to', '结束时间不能早于开始时间'],
      ['POST', 'access_control/card', card({ valid_from: '2026-02-30' }), 'YYYY-MM-DD', '日期格式为YYYY-MM-DD'],
      ['POST', 'access_control/card', card({ pin: 1_000_000 }), 'PIN', '密码为0到999999的数字'],
      ['POST', 'access_control/card', card({ holder: ' ' }), 'Name cannot be empty', '名称不能为空'],
      ['POST', 'access_control/card', card({ number: 0x7c0a2b }), '', '该卡号已存在'],
      ['POST', 'access_control/card', card({ number: 5, doors: [{ door_id: 99_999 }] }), 'door', '门不存在'],
      ['POST', 'access_control/ctrl', { door_id: 1, action: 'explode', verify_password: 'x' }, '', ''],
      ['PUT', 'access_control/card/99999', card(), 'does not exist', '门禁卡不存在'],
    ];
    for (const [method, url, body, en, zh] of cases) {
      const english = await call(method as 'POST', url, { ...admin, 'accept-language': 'en_us' }, body);
      expect(english.statusCode, `${url} ${JSON.stringify(body).slice(0, 80)} ${english.body}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(english.statusCode).toBeLessThan(500);
      expect(english.json().message).toContain(en);
      const chinese = await call(method as 'POST', url, { ...admin, 'accept-language': 'zh_cn' }, body);
      expect(chinese.json().message).toContain(zh);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('log_sync pushes the cards to the controller and reads its events once', async () => {
    const sync = async () => ok(await call('POST', 'access_control/log_sync', admin, { controller_id: controllerId }));
    expect(await sync()).toMatchObject({ cards_put: 1, cards_removed: 0, online: true });
    expect(sim.cards.get(0x7c0a2b)).toEqual({
      card: 0x7c0a2b,
      from: '2026-01-01',
      to: '2026-12-31',
      doors: { 1: true },
      pin: 2468,
    });
    sim.swipe(0x7c0a2b, 1);
    sim.swipe(0x7c0a2b, 2);
    sim.forceOpen(2);
    expect(await sync()).toMatchObject({ events: 3, gaps: 0, through: 3, cards_put: 0 });
    expect(await sync()).toMatchObject({ events: 0, through: 3 });
    const logs = await ok(await call('GET', 'access_control/log?page_size=10'));
    expect(logs.total).toBe(3);
    const list = logs.list as Array<Record<string, unknown>>;
    expect(list.map((l) => [l.event_index, l.kind, l.granted, l.door])).toEqual([
      [3, 'alarm', false, 2],
      [2, 'swipe', false, 2],
      [1, 'swipe', true, 1],
    ]);
    expect(list[2]).toMatchObject({ card: '124:2603', holder: 'Zhang Wei', controller_name: 'Room A controller' });

    // Permission changed in Sitewatch reaches the controller; a card removed by hand comes back.
    const cards = (await ok(await call('GET', 'access_control/card'))).list as Array<{ id: number }>;
    await ok(
      await call(
        'PUT',
        `access_control/card/${cards[0]!.id}`,
        admin,
        card({ doors: doorIds.map((door_id) => ({ door_id })) }),
      ),
    );
    sim.cards.clear();
    expect(await sync()).toMatchObject({ cards_put: 1 });
    expect(sim.cards.get(0x7c0a2b)?.doors).toEqual({ 1: true, 2: true });
  });

  it('a controller that does not answer is marked offline, and back online when it answers', async () => {
    sim.linkUp = false;
    const pending = call('POST', 'access_control/log_sync', admin, { controller_id: controllerId });
    let answered = false;
    void pending.then(() => (answered = true));
    for (let turn = 0; turn < 50_000 && !answered; turn++) {
      await new Promise((r) => setImmediate(r));
      if (turn % 50 === 49) await t.clock.advance(2000);
    }
    expect(await ok(await pending)).toMatchObject({ online: false, events: 0 });
    const list = (await ok(await call('GET', 'access_control/device'))).list as Array<{ online: boolean }>;
    expect(list[0]!.online).toBe(false);
    sim.linkUp = true;
    expect(
      await ok(await call('POST', 'access_control/log_sync', admin, { controller_id: controllerId })),
    ).toMatchObject({
      online: true,
    });
  });

  it('opens a door remotely with the verification password, audited with its result', async () => {
    const key = await publicKeyOf(t.app);
    const wrong = await call('POST', 'access_control/ctrl', admin, {
      door_id: doorIds[0],
      action: 'open',
      verify_password: encryptFor(key, 'not-the-password'),
    });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    const before = sim.lastIndex();
    expect(
      await ok(
        await call('POST', 'access_control/ctrl', admin, {
          door_id: doorIds[0],
          action: 'open',
          verify_password: encryptFor(key, 'Admin-Strong-91'),
        }),
      ),
    ).toEqual({ done: true });
    expect(sim.lastIndex()).toBe(before + 1);
    await ok(
      await call('POST', 'access_control/ctrl', admin, {
        door_id: doorIds[1],
        action: 'normallyClosed',
        verify_password: encryptFor(key, 'Admin-Strong-91'),
      }),
    );
    expect(sim.doors.get(2)?.mode).toBe('normallyClosed');
    const refused = await call('POST', 'access_control/ctrl', admin, {
      door_id: doorIds[1],
      action: 'open',
      verify_password: encryptFor(key, 'Admin-Strong-91'),
    });
    expect(refused.statusCode).toBe(400);
    const rows = await t.database.db.kysely
      .selectFrom('operation_logs')
      .select(['module', 'action', 'result'])
      .where('module', '=', 'access_control/ctrl')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, Number(r.result)])).toEqual([
      ['open_door', 1],
      ['door_mode', 1],
      ['open_door', 0],
    ]);
  });

  it('copies permissions and removes a controller with its doors and permissions', async () => {
    const other = await ok(await call('POST', 'access_control/card', admin, card({ number: 777, doors: [], pin: 0 })));
    const cards = (await ok(await call('GET', 'access_control/card'))).list as Array<{ id: number }>;
    expect(
      await ok(
        await call('POST', 'access_control/copy', admin, { from_card_id: cards[0]!.id, to_card_ids: [other.id] }),
      ),
    ).toEqual({ copied: 1 });
    const after = (await ok(await call('GET', 'access_control/card'))).list as Array<{ id: number; doors: unknown[] }>;
    expect(after.find((c) => c.id === other.id)?.doors).toHaveLength(2);
    await ok(await call('DELETE', `access_control/device/${controllerId}`));
    const left = await t.database.db.kysely.selectFrom('door_permissions').selectAll().execute();
    expect(left).toEqual([]);
  });
});
