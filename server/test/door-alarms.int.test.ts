import { afterAll, beforeAll, expect, it } from 'vitest';
import { localTime } from '../src/modules/door-access/service.ts';
import { startWgSimulator, type WgSimulator } from '../src/modules/door-access/wg/simulator.ts';
import { areaAlarms } from './helpers/area-alarms.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { type AdminCall, addSite, type Headers, realLogin, signInFirstAdmin } from './helpers/estate.ts';

/**
 * Door access's alarms (docs/door-access.md, "Alarms"), against a WG simulator on loopback: a
 * controller that stops answering is a communication alarm of its site until it answers again; a
 * door forced open is an alarm of that door until it is used normally; removing the controller
 * recovers what it left open.
 */
describeEachDatabase('door access alarms', (dialect) => {
  const t = useManualTestApp(dialect, realLogin, Date.UTC(2026, 10, 28, 1, 0, 0));
  const SERIAL = 423187758;
  let sim: WgSimulator;
  let admin: Headers = {};
  let call: AdminCall;
  let controllerId = 0;

  beforeAll(async () => {
    sim = await startWgSimulator({ serial: SERIAL, timers: t.clock.timers, now: () => localTime(t.clock.now()) });
  });
  afterAll(async () => {
    await sim.close();
  });
  const data = async (res: { json(): { code: number; data: unknown }; body: string }) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data as Record<string, unknown>;
  };
  /** One sync pass; the controller's link waits on the test clock, which is moved until it answers. */
  const sync = async () => {
    const pending = call('POST', 'access_control/log_sync', admin, { controller_id: controllerId });
    let answered = false;
    void pending.then(() => (answered = true));
    for (let turn = 0; turn < 50_000 && !answered; turn++) {
      await new Promise((r) => setImmediate(r));
      if (turn % 50 === 49) await t.clock.advance(2000);
    }
    return data(await pending);
  };

  it('a controller that stops answering is an alarm of its site until it answers', async () => {
    ({ admin, call } = await signInFirstAdmin(t));
    const site = await addSite(call, 'Equipment room D');
    const made = await data(
      await call('POST', 'access_control/device', admin, {
        name: 'Room D controller',
        device_group_id: site,
        brand: 'UHPPOTE',
        model: 'UTO311-L04',
        serial: SERIAL,
        address: '127.0.0.1',
        port: sim.port,
        doors: [{ number: 1, nickname: 'Front', direction: 'in' }],
      }),
    );
    controllerId = made.id as number;
    expect(await sync()).toMatchObject({ online: true });
    const silent = `door-access:controller:${controllerId}`;
    expect(await areaAlarms(t, silent)).toEqual([]);
    sim.linkUp = false;
    expect(await sync()).toMatchObject({ online: false });
    // Silent again at the next pass: still the one alarm.
    expect(await sync()).toMatchObject({ online: false });
    expect(await areaAlarms(t, silent)).toEqual([
      { kind: 'communication', device_name: 'Room D controller', item_name: '', info: 'timeout', open: true },
    ]);
    sim.linkUp = true;
    expect(await sync()).toMatchObject({ online: true });
    expect((await areaAlarms(t, silent)).map((a) => a.open)).toEqual([false]);
  });

  it('a door forced open is an alarm until the door is used normally; a removed controller leaves none open', async () => {
    const forced = `door-access:door:${controllerId}:1`;
    sim.forceOpen(1);
    await sync();
    expect(await areaAlarms(t, forced)).toEqual([
      { kind: 'threshold', device_name: 'Room D controller', item_name: 'Front', info: '强行开门', open: true },
    ]);
    sim.pressButton(1);
    await sync();
    expect((await areaAlarms(t, forced)).map((a) => a.open)).toEqual([false]);

    sim.forceOpen(1);
    sim.linkUp = false;
    await sync();
    sim.linkUp = true;
    await sync();
    expect((await areaAlarms(t, forced)).map((a) => a.open)).toEqual([false, true]);
    await data(await call('DELETE', `access_control/device/${controllerId}`));
    expect((await areaAlarms(t, forced)).map((a) => a.open)).toEqual([false, false]);
  });
});
