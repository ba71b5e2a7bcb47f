import { afterAll, beforeAll, expect, it } from 'vitest';
import { localTime } from '../src/modules/door-access/service.ts';
import { startWgSimulator, type WgSimulator } from '../src/modules/door-access/wg/simulator.ts';
import { areaAlarms } from './helpers/area-alarms.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { type AdminCall, addSite, type Headers, realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { type HttpPeer, startHttpPeer } from './helpers/notify-peers.ts';

const secret = 'door-hook-secret';
type Manual = ReturnType<typeof useManualTestApp>;

/** Runs until the promise settles, moving the clock while the controller's link waits on it. */
const drive = async <T>(t: Manual, pending: Promise<T>) => {
  let done = false;
  void pending.then(
    () => (done = true),
    () => (done = true),
  );
  for (let turn = 0; turn < 50_000 && !done; turn++) {
    await new Promise((r) => setImmediate(r));
    if (turn % 50 === 49) await t.clock.advance(2000);
  }
  return pending;
};

/**
 * The source's alarms once there are `count`: a pass a timer started waits for the simulator's
 * answers (real UDP), which settled() does not count, so the alarms are read again between turns.
 */
const alarmsOnce = async (t: Manual, source: string, count: number) => {
  let got = await areaAlarms(t, source);
  for (let turn = 0; turn < 5000 && got.length < count; turn++) {
    await new Promise((r) => setImmediate(r));
    got = await areaAlarms(t, source);
  }
  return got;
};

/**
 * Door notifications and options (docs/door-access.md, "Notifications", "Options"), against a WG
 * simulator and a real webhook peer on loopback, on the app's manual clock: each kind of door event
 * notifies its contact group only while its kind is on; a door its status shows open past the
 * held-open threshold is an alarm (detected by a pass due at the threshold, moved by the clock); a
 * refused swipe is a notice only; bad input is a 4xx with its message and changes nothing.
 */
describeEachDatabase('door access notifications', (dialect) => {
  const t = useManualTestApp(dialect, { ...realLogin, notifyRetryDelayMs: 10 }, Date.UTC(2026, 10, 28, 2, 0, 0));
  const SERIAL = 423187801;
  let sim: WgSimulator;
  let http: HttpPeer;
  let admin: Headers = {};
  let call: AdminCall;
  let controllerId = 0;
  let group = 0;

  beforeAll(async () => {
    sim = await startWgSimulator({ serial: SERIAL, timers: t.clock.timers, now: () => localTime(t.clock.now()) });
    http = await startHttpPeer(secret, 'k');
  });
  afterAll(async () => {
    await sim?.close();
    await http?.close();
  });
  const data = async (res: { json(): { code: number; data: unknown }; body: string }) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data as Record<string, unknown>;
  };
  const sync = async () =>
    data(await drive(t, call('POST', 'access_control/log_sync', admin, { controller_id: controllerId })));
  const hooks = async () => {
    await t.sitewatch.settled();
    return http.accepted.filter((r) => r.path === '/webhook').map((r) => JSON.parse(r.body) as Record<string, unknown>);
  };
  const put = async (url: string, body: object, method: 'PUT' | 'POST' = 'PUT') =>
    data(await call(method, url, admin, body));

  it('sets up a contact group with a webhook channel and a controller', async () => {
    ({ admin, call } = await signInFirstAdmin(t));
    await data(
      await call('POST', 'setting/gc', admin, { k: 'OUTBOUND', v: { allow: ['127.0.0.0/8', '::1'], deny: [] } }),
    );
    const contact = await data(
      await call('POST', 'setting/contacts', admin, { name: '门卫', email: 'guard@example.com', alarm_level: 5 }),
    );
    const hook = await data(
      await call('POST', 'setting/alarm_push', admin, {
        name: 'door hook',
        kind: 'webhook',
        config: { url: `${http.url}/webhook`, secret, retries: 0, timeout_ms: 1000 },
      }),
    );
    group = (
      await data(
        await call('POST', 'setting/contact_groups', admin, {
          name: '安保组',
          contact_ids: [contact.id],
          email: false,
          channel_ids: [hook.id],
        }),
      )
    ).id as number;
    const site = await addSite(call, 'Equipment room N');
    controllerId = (
      await data(
        await call('POST', 'access_control/device', admin, {
          name: 'Room N controller',
          device_group_id: site,
          brand: 'UHPPOTE',
          model: 'UTO311-L04',
          serial: SERIAL,
          address: '127.0.0.1',
          port: sim.port,
          doors: [
            { number: 1, nickname: 'Front', direction: 'in' },
            { number: 2, nickname: 'Back', direction: 'out' },
          ],
        }),
      )
    ).id as number;
    expect(await sync()).toMatchObject({ online: true });

    // The defaults: every kind but the invalid card on, no one to tell yet.
    expect((await data(await call('GET', 'access_control/nofify/config', admin))).list).toEqual([
      { kind: 'forced', enabled: true, contact_group_id: 0, contact_group_name: '' },
      { kind: 'held', enabled: true, contact_group_id: 0, contact_group_name: '' },
      { kind: 'invalid', enabled: false, contact_group_id: 0, contact_group_name: '' },
      { kind: 'offline', enabled: true, contact_group_id: 0, contact_group_name: '' },
    ]);
    // The groups to choose from, with the channels each reaches its contacts by.
    expect((await data(await call('GET', 'access_control/contact', admin))).list).toEqual([
      { id: group, name: '安保组', contacts: 1, channels: [{ kind: 'webhook', name: 'door hook' }] },
    ]);
  });

  it('refuses bad input with its messages and changes nothing', async () => {
    const before = await snapshotDigest(t.database.db);
    const cases: Array<[string, string, Record<string, unknown>, string, string]> = [
      [
        'PUT',
        'access_control/contact',
        { kind: 'fire', contact_group_id: group },
        'Unknown kind',
        '未知的门禁事件类型',
      ],
      [
        'PUT',
        'access_control/contact',
        { kind: 'forced', contact_group_id: 99_999 },
        'contact group',
        '联系人组不存在',
      ],
      ['PUT', 'access_control/contact', { kind: 'forced', contact_group_id: -1 }, '', ''],
      ['POST', 'access_control/toggle', { kind: 'forced' }, 'on or off', '请选择开启或关闭'],
      ['POST', 'access_control/toggle', { kind: 'forced', enabled: true, extra: 1 }, '', ''],
      ['PUT', 'access_control/option', { sync_seconds: 5, held_open_seconds: 0 }, '10 to 86400', '同步间隔'],
      ['PUT', 'access_control/option', { sync_seconds: 60, held_open_seconds: 2 }, '5 to 86400', '开门超时为0'],
      ['PUT', 'access_control/option', { sync_seconds: 60 }, 'held-open', '开门超时'],
    ];
    for (const [method, url, body, en, zh] of cases) {
      const english = await call(method as 'PUT', url, { ...admin, 'accept-language': 'en_us' }, body);
      expect(english.statusCode, `${url} ${JSON.stringify(body)} ${english.body}`).toBeGreaterThanOrEqual(400);
      expect(english.statusCode).toBeLessThan(500);
      expect(english.json().message).toContain(en);
      const chinese = await call(method as 'PUT', url, { ...admin, 'accept-language': 'zh_cn' }, body);
      expect(chinese.json().message).toContain(zh);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('a forced door notifies no one while its kind is off, and the contact group once it is on', async () => {
    await put('access_control/contact', { kind: 'forced', contact_group_id: group });
    await put('access_control/toggle', { kind: 'forced', enabled: false }, 'POST');
    const forced = `door-access:door:${controllerId}:1`;
    sim.forceOpen(1);
    await sync();
    // Still an alarm (pop-up, bell), but no notice.
    expect((await areaAlarms(t, forced)).map((a) => a.open)).toEqual([true]);
    expect(await hooks()).toEqual([]);
    sim.closeDoor(1);
    await sync();
    expect((await areaAlarms(t, forced)).map((a) => a.open)).toEqual([false]);
    expect(await hooks()).toEqual([]);

    await put('access_control/toggle', { kind: 'forced', enabled: true }, 'POST');
    expect((await data(await call('GET', 'access_control/nofify/config', admin))).list).toContainEqual({
      kind: 'forced',
      enabled: true,
      contact_group_id: group,
      contact_group_name: '安保组',
    });
    sim.forceOpen(1);
    await sync();
    expect(await hooks()).toEqual([
      expect.objectContaining({ site: 'Equipment room N', device: 'Room N controller', item: 'Front' }),
    ]);
    expect(JSON.stringify((await hooks())[0])).toContain('强行开门');
    sim.closeDoor(1);
    await sync();
    expect((await areaAlarms(t, forced)).map((a) => a.open)).toEqual([false, false]);
  });

  it('a door held open past the threshold is an alarm that notifies, found by a pass due then', async () => {
    await put('access_control/option', { sync_seconds: 0, held_open_seconds: 30 });
    expect(await data(await call('GET', 'access_control/option', admin))).toEqual({
      sync_seconds: 0,
      held_open_seconds: 30,
      listener: '',
    });
    await put('access_control/contact', { kind: 'held', contact_group_id: group });
    const before = (await hooks()).length;
    const held = `door-access:held:${controllerId}:2`;
    // Opened by a granted exit and never shut: the sensor says open.
    sim.pressButton(2);
    sim.doors.get(2)!.open = true;
    await sync();
    expect(await areaAlarms(t, held)).toEqual([]);
    // The pass due at the threshold runs on the clock's timer, with no request.
    await t.clock.advance(31_000);
    expect(await alarmsOnce(t, held, 1)).toEqual([
      { kind: 'threshold', device_name: 'Room N controller', item_name: 'Back', info: '开门超时', open: true },
    ]);
    const got = await hooks();
    expect(got.slice(before)).toEqual([expect.objectContaining({ item: 'Back' })]);
    sim.closeDoor(2);
    await sync();
    expect((await areaAlarms(t, held)).map((a) => a.open)).toEqual([false]);

    // Held open again; the threshold switched off: the status is no longer read and the alarm recovers.
    sim.doors.get(2)!.open = true;
    await sync();
    await t.clock.advance(31_000);
    expect((await alarmsOnce(t, held, 2)).map((a) => a.open)).toEqual([false, true]);
    await put('access_control/option', { sync_seconds: 60, held_open_seconds: 0 });
    await sync();
    expect((await areaAlarms(t, held)).map((a) => a.open)).toEqual([false, false]);
    sim.doors.get(2)!.open = false;
  });

  it('a refused swipe notifies only while the invalid card kind is on; an offline controller as its kind says', async () => {
    await put('access_control/contact', { kind: 'invalid', contact_group_id: group });
    const before = (await hooks()).length;
    sim.swipe(9_999_001, 1);
    await sync();
    expect((await hooks()).length).toBe(before);
    await put('access_control/toggle', { kind: 'invalid', enabled: true }, 'POST');
    sim.swipe(9_999_001, 1);
    sim.swipe(9_999_002, 1);
    await sync();
    const invalid = (await hooks()).slice(before);
    expect(invalid).toEqual([expect.objectContaining({ device: 'Room N controller', item: 'Front' })]);
    expect(JSON.stringify(invalid[0])).toContain('无效卡 ×2');

    // Offline, with its group but switched off: the alarm, no notice.
    await put('access_control/contact', { kind: 'offline', contact_group_id: group });
    await put('access_control/toggle', { kind: 'offline', enabled: false }, 'POST');
    sim.linkUp = false;
    expect(await sync()).toMatchObject({ online: false });
    expect((await areaAlarms(t, `door-access:controller:${controllerId}`)).map((a) => a.open)).toEqual([true]);
    expect((await hooks()).length).toBe(before + 1);
    sim.linkUp = true;
    expect(await sync()).toMatchObject({ online: true });
  });
});
