import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from '../src/clock/manual.ts';
import { ControllerError, type DoorEvent } from '../src/modules/door-access/controller.ts';
import { cardDiff, pushCards, syncEvents } from '../src/modules/door-access/sync.ts';
import {
  createWgAdapter,
  startWgListener,
  type WgAdapter,
  type WgListener,
} from '../src/modules/door-access/wg/adapter.ts';
import { startWgSimulator, type WgSimulator } from '../src/modules/door-access/wg/simulator.ts';

/**
 * The conformance suite of the `DoorController` interface (docs/door-access.md): the same cases for
 * every adapter against its simulator on loopback, with the simulator's faults. Time is the manual
 * clock's: a dropped reply times out when the test advances the clock, never by sleeping. Waiting
 * for a UDP datagram to arrive is waiting for I/O (`until`), not for time.
 */

const SERIAL = 423187757;
const localOf = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** Waits (turns of the event loop, bounded) until `cond` holds: datagrams on loopback. */
const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 20_000; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never: ${what}`);
};

interface Rig {
  clock: ManualClock;
  sim: WgSimulator;
  ctrl: WgAdapter;
  listener: WgListener;
}

const rig = async (ringSize?: number): Promise<Rig> => {
  const clock = createManualClock(Date.UTC(2026, 10, 28, 1, 0, 0));
  const sim = await startWgSimulator({
    serial: SERIAL,
    timers: clock.timers,
    now: () => localOf(clock.now()),
    ...(ringSize ? { ringSize } : {}),
  });
  const listener = await startWgListener('127.0.0.1', 0);
  const ctrl = await createWgAdapter({
    serial: SERIAL,
    address: '127.0.0.1',
    port: sim.port,
    timers: clock.timers,
    timeoutMs: 1000,
    retries: 2,
    listener,
  });
  return { clock, sim, ctrl, listener };
};

const card = (n: number, doors: Record<number, boolean | number> = { 1: true }) => ({
  card: n,
  from: '2026-01-01',
  to: '2026-12-31',
  doors,
  pin: 0,
});

describe('DoorController conformance: WG / UHPPOTE UDP', () => {
  let r: Rig;
  beforeEach(async () => {
    r = await rig();
  });
  afterEach(async () => {
    await r.ctrl.close();
    await r.sim.close();
    await r.listener.close();
  });

  it('probes the controller', async () => {
    const info = await r.ctrl.probe();
    expect(info).toMatchObject({ serial: SERIAL, firmware: 'v6.62', released: '2020-01-01', doors: 4 });
  });

  it('sets and reads its clock', async () => {
    expect(await r.ctrl.setTime('2026-11-28 09:00:00')).toBe('2026-11-28 09:00:00');
    expect(await r.ctrl.getTime()).toBe(localOf(r.clock.now()));
  });

  it('opens a door, and refuses while the door is normally closed', async () => {
    expect(await r.ctrl.openDoor(1)).toBe(true);
    expect(await r.ctrl.setDoorMode(1, 'normallyClosed', 0)).toEqual({ mode: 'normallyClosed', delaySeconds: 0 });
    expect(await r.ctrl.openDoor(1)).toBe(false);
    expect(await r.ctrl.getDoorMode(1)).toEqual({ mode: 'normallyClosed', delaySeconds: 0 });
    await r.ctrl.setDoorMode(1, 'controlled', 5);
    expect(await r.ctrl.getDoorMode(1)).toEqual({ mode: 'controlled', delaySeconds: 5 });
  });

  it('puts, reads, lists and deletes cards with validity, per-door permission, time profile and PIN', async () => {
    expect(await r.ctrl.putCard({ ...card(8165538, { 1: true, 3: 29 }), pin: 4321 })).toBe(true);
    expect(await r.ctrl.putCard(card(0xfffffffe, { 2: true }))).toBe(true);
    expect(await r.ctrl.getCard(8165538)).toEqual({ ...card(8165538, { 1: true, 3: 29 }), pin: 4321 });
    expect(await r.ctrl.getCard(1)).toBeNull();
    expect((await r.ctrl.listCards()).map((c) => c.card)).toEqual([8165538, 0xfffffffe]);
    expect(await r.ctrl.deleteCard(8165538)).toBe(true);
    expect(await r.ctrl.deleteCard(8165538)).toBe(false);
    expect(await r.ctrl.deleteAllCards()).toBe(true);
    expect(await r.ctrl.listCards()).toEqual([]);
  });

  it('reports status and events by index; a swipe is granted only with permission', async () => {
    await r.ctrl.putCard(card(100, { 1: true }));
    r.sim.swipe(100, 1);
    r.sim.swipe(100, 2);
    expect(await r.ctrl.lastEventIndex()).toBe(2);
    const first = await r.ctrl.event(1);
    expect(first).toMatchObject({
      status: 'ok',
      event: { index: 1, kind: 'swipe', granted: true, card: 100, door: 1 },
    });
    expect(await r.ctrl.event(2)).toMatchObject({ status: 'ok', event: { granted: false, reason: 6 } });
    expect(await r.ctrl.event(3)).toEqual({ index: 3, status: 'missing' });
    const status = await r.ctrl.status();
    expect(status.lastEvent?.index).toBe(2);
    expect(status.time).toBe(localOf(r.clock.now()));
  });

  it('pushes events to the listener as they happen', async () => {
    const seen: DoorEvent[] = [];
    r.ctrl.subscribe((e) => seen.push(e));
    expect(await r.ctrl.setListener('127.0.0.1', r.listener.port)).toBe(true);
    r.sim.forceOpen(2);
    await until(() => seen.length === 1, 'the pushed event');
    expect(seen[0]).toMatchObject({ kind: 'alarm', door: 2, reason: 38 });
  });

  it('retries a dropped reply when its timeout comes', async () => {
    r.sim.faults.drop = 1;
    const asked = r.ctrl.lastEventIndex();
    await until(() => r.sim.faults.drop === 0, 'the dropped request');
    await r.clock.advance(1000);
    expect(await asked).toBe(0);
  });

  it('times out when the link is down, and says so', async () => {
    r.sim.linkUp = false;
    const asked = r.ctrl.probe().catch((e: unknown) => e);
    for (let i = 0; i < 3; i++) await r.clock.advance(1000);
    const err = await asked;
    expect(err).toBeInstanceOf(ControllerError);
    expect((err as ControllerError).code).toBe('timeout');
    r.sim.linkUp = true;
    expect((await r.ctrl.probe()).serial).toBe(SERIAL);
  });

  it('waits for a delayed reply', async () => {
    r.sim.faults.delayMs = 600;
    const asked = r.ctrl.getTime();
    await until(() => r.sim.answered === 1, 'the request');
    await r.clock.advance(600);
    expect(await asked).toBe(localOf(r.clock.now() - 600));
  });

  it('ignores a duplicated reply: the next request gets its own answer', async () => {
    r.sim.swipe(1, 1);
    r.sim.swipe(2, 1);
    r.sim.faults.duplicate = 5;
    const a = await r.ctrl.event(1);
    const b = await r.ctrl.event(2);
    const c = await r.ctrl.lastEventIndex();
    expect([a.status === 'ok' && a.event.card, b.status === 'ok' && b.event.card, c]).toEqual([1, 2, 2]);
    await until(() => r.ctrl.refused() >= 1, 'the duplicates');
  });

  it('refuses corrupt replies at the edge (bad magic, bad BCD, short frame) and retries', async () => {
    for (let i = 0; i < 3; i++) {
      r.sim.faults.corrupt = 1;
      const asked = r.ctrl.getTime();
      await until(() => r.ctrl.refused() === i + 1, 'the corrupt reply');
      await r.clock.advance(1000);
      expect(await asked).toBe(localOf(r.clock.now()));
    }
  });
});

describe('log sync and card push against the simulator', () => {
  let r: Rig;
  afterEach(async () => {
    await r.ctrl.close();
    await r.sim.close();
    await r.listener.close();
  });

  it('1 000 swipes while the link is down: after it returns every swipe is read exactly once', async () => {
    r = await rig();
    r.sim.swipe(7, 1);
    const log = new Map<number, DoorEvent>();
    let through = 0;
    const pass = async () => {
      const p = await syncEvents(r.ctrl, through);
      for (const e of p.events) {
        expect(log.has(e.index)).toBe(false);
        log.set(e.index, e);
      }
      through = p.through;
      return p;
    };
    await pass();
    r.sim.linkUp = false;
    for (let i = 0; i < 1000; i++) r.sim.swipe(10_000 + i, 1 + (i % 4));
    // A pass while the link is down reads nothing and loses nothing.
    const down = pass();
    for (let i = 0; i < 3; i++) {
      await until(() => r.clock.pending() > 0, 'a timeout');
      await r.clock.advance(1000);
    }
    expect((await down).error).toBeInstanceOf(ControllerError);
    expect(through).toBe(1);
    r.sim.linkUp = true;
    const p = await pass();
    expect(p.error).toBeNull();
    expect(p.gaps).toEqual([]);
    expect(log.size).toBe(1001);
    expect([...log.values()].filter((e) => e.card >= 10_000).map((e) => e.card)).toEqual(
      Array.from({ length: 1000 }, (_, i) => 10_000 + i),
    );
    // A pass with nothing new adds nothing.
    expect((await pass()).events).toEqual([]);
  });

  it('a gap the ring overwrote is reported as a gap, the rest read once', async () => {
    r = await rig(100);
    for (let i = 0; i < 5; i++) r.sim.swipe(i + 1, 1);
    const first = await syncEvents(r.ctrl, 0);
    expect(first.through).toBe(5);
    for (let i = 0; i < 250; i++) r.sim.swipe(1000 + i, 1);
    const p = await syncEvents(r.ctrl, first.through);
    expect(p.gaps).toEqual([{ from: 6, to: 155 }]);
    expect(p.events.map((e) => e.index)).toEqual(Array.from({ length: 100 }, (_, i) => 156 + i));
    expect(p.through).toBe(255);
  });

  it('permissions changed in Sitewatch reach the controller; a card removed by hand is restored', async () => {
    r = await rig();
    const desired = new Map([
      [100, card(100, { 1: true })],
      [200, card(200, { 2: 5 })],
    ]);
    await r.ctrl.putCard(card(999));
    expect(await pushCards(r.ctrl, desired)).toEqual({ put: 2, removed: 1, failed: 0 });
    expect(cardDiff(desired, await r.ctrl.listCards())).toEqual({ put: [], remove: [] });
    r.sim.cards.delete(200);
    desired.set(100, card(100, { 1: true, 2: true }));
    expect(await pushCards(r.ctrl, desired)).toEqual({ put: 2, removed: 0, failed: 0 });
    expect(r.sim.cards.get(200)?.doors).toEqual({ 2: 5 });
    expect(r.sim.cards.get(100)?.doors).toEqual({ 1: true, 2: true });
  });
});

describe('the event listener', () => {
  it('refuses a port another listener holds at once, instead of never starting', async () => {
    const first = await startWgListener('127.0.0.1', 0);
    try {
      await expect(startWgListener('127.0.0.1', first.port)).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
