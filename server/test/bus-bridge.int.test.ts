import type { BusEvent } from '@sitewatch/contract/events';
import { busEvents, crossProcessEvents, localEvents } from '@sitewatch/contract/events';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSitewatch, type Sitewatch } from '../src/app.ts';
import { type BusBridge, createBusBridge } from '../src/bus/bridge.ts';
import { createEventBus, type EventBus } from '../src/bus/bus.ts';
import { realTimers } from '../src/clock/timers.ts';
import type { Db } from '../src/db/kysely.ts';
import { fakeAuthenticator, testLoginKey } from './helpers/build-app.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase, testDialects } from './helpers/databases.ts';

/** Resolves with the first event of `name` on `bus` that `match` accepts (rejects after `ms`). */
const nextEvent = <N extends 'config.changed' | 'grants.changed' | 'item.state'>(
  bus: EventBus,
  name: N,
  match: (event: BusEvent<N>) => boolean,
  ms = 10_000,
): Promise<BusEvent<N>> =>
  new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      off();
      reject(new Error(`no ${name} within ${ms} ms`));
    }, ms);
    const off = bus.subscribe(
      name,
      (event) => {
        if (!match(event)) return;
        clearTimeout(timeout);
        off();
        resolve(event);
      },
      { remote: true },
    );
  });

/**
 * Publishes 1 000 `item.state` events on `a` (item ids from `base`), yielding a turn every 50, with
 * `midway` run after the 400th; resolves with the item ids `busB` heard, in order, once all came
 * (or after 20 s, with what came).
 */
const thousandAcross = async (a: BusBridge, busB: EventBus, base: number, midway: () => Promise<void>) => {
  const total = 1000;
  const got: number[] = [];
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const off = busB.subscribe(
    'item.state',
    (e) => {
      got.push(e.item_id);
      if (got.length === total) done();
    },
    { remote: true },
  );
  for (let i = 0; i < total; i++) {
    a.bus.publish('item.state', { item_id: base + i, state: 1, info: '', alarm: false, ts_ms: i });
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    if (i === 400) await midway();
  }
  const timeout = setTimeout(() => done(), 20_000);
  await all;
  clearTimeout(timeout);
  off();
  return got;
};

describe('where events travel', () => {
  it('every event is either local or crosses processes, never both', () => {
    const local = new Set<string>(localEvents);
    const crossing = new Set<string>(crossProcessEvents);
    expect([...local].filter((name) => crossing.has(name))).toEqual([]);
    expect(Object.keys(busEvents).sort()).toEqual([...local, ...crossing].sort());
    expect([...local].sort()).toEqual(['sample', 'samples']);
  });

  it("another process's event reaches the subscribers that ask for it; an invalidation reaches every one", () => {
    const bus = createEventBus();
    const heard: string[] = [];
    bus.subscribe('alarm.raised', () => heard.push('acts'));
    bus.subscribe('alarm.raised', () => heard.push('shows'), { remote: true });
    bus.subscribe('config.changed', () => heard.push('cache'));
    bus.subscribe('config.changed', () => heard.push('not a cache'), { remote: false });
    const alarm = {} as BusEvent<'alarm.raised'>['alarm'];
    bus.publish('alarm.raised', { alarm }, { remote: true });
    bus.publish('config.changed', { area: 'sites', ids: null }, { remote: true });
    expect(heard).toEqual(['shows', 'cache']);
    heard.length = 0;
    bus.publish('alarm.raised', { alarm });
    bus.publish('config.changed', { area: 'sites', ids: null });
    expect(heard).toEqual(['acts', 'shows', 'cache', 'not a cache']);
  });
});

/**
 * Domain events cross processes on PostgreSQL (issue 35, step 0; docs/scale.md): two bridges in one
 * test process, each with its own bus, its own pool and its own LISTEN connection on one database,
 * stand in for two processes. The safety poll is set to a minute, so what arrives came by a NOTIFY
 * wake-up or a reconnect's catch-up.
 */
describe.skipIf(!testDialects.includes('postgres'))('the bus bridge on PostgreSQL', () => {
  let database: TestDatabase;
  let secondDb: Db;
  let admin: pg.Client;
  const buses: EventBus[] = [];
  const bridges: BusBridge[] = [];
  const warnings: string[] = [];
  const make = (db: Db) => {
    const bus = createEventBus();
    const n = bridges.length;
    const log = { warn: (_obj: object, msg: string) => warnings.push(`${'AB'[n] ?? n}: ${msg}`) };
    const bridge = createBusBridge({ db, bus, timers: realTimers, pollMs: 60_000, log });
    buses.push(bus);
    bridges.push(bridge);
    return bridge;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    secondDb = database.connect();
    admin = new pg.Client({ connectionString: database.db.url });
    await admin.connect();
    for (const db of [database.db, secondDb]) await make(db).start();
  });
  afterAll(async () => {
    for (const bridge of bridges) await bridge.stop();
    await admin?.end();
    await secondDb?.close();
    await database?.destroy();
  });

  it('an event published on A reaches a subscriber on B within 1 s, once, and not again on A', async () => {
    const [a, b] = bridges as [BusBridge, BusBridge];
    const [busA, busB] = buses as [EventBus, EventBus];
    const onA: number[] = [];
    const offA = busA.subscribe('config.changed', (e) => onA.push(e.ids?.[0] ?? -1));
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const arrived = nextEvent(busB, 'config.changed', (e) => e.ids?.[0] === i);
      const sent = performance.now();
      a.bus.publish('config.changed', { area: 'items', ids: [i] });
      // Delivered on A synchronously, as without the bridge.
      expect(onA).toHaveLength(i + 1);
      await arrived;
      latencies.push(performance.now() - sent);
    }
    offA();
    latencies.sort((x, y) => x - y);
    console.log(
      `bus bridge latency A→B over 20 events: median ${latencies[10]!.toFixed(1)} ms, max ${latencies[19]!.toFixed(1)} ms`,
    );
    expect(latencies[19]).toBeLessThan(1000);
    // A's own rows were never handed back to its bus; B delivered each once.
    await Promise.all(bridges.map((x) => x.settled()));
    expect(onA).toEqual([...Array(20).keys()]);
    expect(a.counts().delivered).toBe(0);
    expect(b.counts().delivered).toBe(20);
    expect(a.lastSeen()).toBeGreaterThanOrEqual(b.lastSeen());
  });

  it('a process reading its own rows back (another wrote in between) skips them', async () => {
    const [a] = bridges as [BusBridge, BusBridge];
    const [busA] = buses as [EventBus, EventBus];
    const seen: string[] = [];
    const off = busA.subscribe('grants.changed', (e) => seen.push(String(e.user_ids?.[0])));
    const skippedBefore = a.counts().skippedOwn;
    // A third writer's row with no wake-up: A cannot pass over its own next batch without reading.
    await sql`insert into event_outbox (origin, seq, name, payload) values ('elsewhere', 1, 'grants.changed', '{"user_ids":[7]}')`.execute(
      database.db.kysely,
    );
    const foreign = nextEvent(busA, 'grants.changed', (e) => e.user_ids?.[0] === 7);
    a.bus.publish('grants.changed', { user_ids: [8] });
    await foreign;
    await a.settled();
    off();
    expect(seen).toEqual(['8', '7']);
    expect(a.counts().skippedOwn).toBe(skippedBefore + 1);
  });

  it('1 000 events from A reach B in order, none lost and none doubled, across a forced reconnect of B', async () => {
    const [a, b] = bridges as [BusBridge, BusBridge];
    const pidBefore = b.listenerPid();
    expect(pidBefore).not.toBeNull();
    const reconnectsBefore = b.counts().reconnects;
    const got = await thousandAcross(a, buses[1]!, 0, async () => {
      // B's listener dies while A goes on publishing.
      const { rows } = await admin.query('select pg_terminate_backend($1) as ok', [pidBefore]);
      expect(rows[0].ok).toBe(true);
    });
    await Promise.all(bridges.map((x) => x.settled()));
    expect(b.counts().reconnects).toBe(reconnectsBefore + 1);
    expect(b.listenerPid()).not.toBe(pidBefore);
    expect(got).toEqual([...Array(1000).keys()]);
  });

  it('1 000 events from A reach B once each when every connection to the database is terminated midway', async () => {
    const [a, b] = bridges as [BusBridge, BusBridge];
    const reconnectsBefore = b.counts().reconnects;
    const got = await thousandAcross(a, buses[1]!, 10_000, async () => {
      // A's pool (its writes in flight), B's pool (its reads) and B's listener, all at once.
      const { rows } = await admin.query(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      expect(rows[0].n).toBeGreaterThanOrEqual(2);
    });
    await Promise.all(bridges.map((x) => x.settled()));
    expect(b.counts().reconnects).toBe(reconnectsBefore + 1);
    console.log(`while every connection was terminated: ${[...new Set(warnings)].join('; ')}`);
    expect(got).toEqual([...Array(1000).keys()].map((i) => 10_000 + i));
    // Each event is one row: a batch written again skipped what had been committed.
    const { rows } = await sql<{ n: number; distinct: number }>`
      select count(*)::int as n, count(distinct seq)::int as distinct from event_outbox
       where origin = ${a.origin} and name = 'item.state' and payload like '%"item_id":1____,%'`.execute(
      database.db.kysely,
    );
    expect(rows[0]).toEqual({ n: 1000, distinct: 1000 });
  });

  it('samples are never written to the outbox and never reach another process', async () => {
    const [a] = bridges as [BusBridge, BusBridge];
    const [, busB] = buses as [EventBus, EventBus];
    const onB: number[] = [];
    const offSample = busB.subscribe('sample', (e) => onB.push(e.item_id));
    const offSamples = busB.subscribe('samples', (e) => onB.push(e.to - e.from));
    a.bus.publish('sample', { item_id: 1, value: 20, ts_ms: 1 });
    a.bus.publish('samples', { ids: [1, 2], values: new Float64Array([1, 2]), from: 0, to: 2, ts_ms: 2 });
    const marker = nextEvent(busB, 'config.changed', (e) => e.ids?.[0] === 4242);
    a.bus.publish('config.changed', { area: 'devices', ids: [4242] });
    await marker;
    offSample();
    offSamples();
    expect(onB).toEqual([]);
    const { rows } = await sql<{ name: string; n: number }>`
      select name, count(*)::int as n from event_outbox group by name order by name`.execute(database.db.kysely);
    expect(rows.map((r) => r.name).filter((name) => (localEvents as readonly string[]).includes(name))).toEqual([]);
    expect(rows.map((r) => r.name)).toEqual(['config.changed', 'grants.changed', 'item.state']);
  });

  it("a stopping process's last events are written; after its stop they stay in it", async () => {
    const [, busB] = buses as [EventBus, EventBus];
    const bus = createEventBus();
    const leaving = createBusBridge({ db: database.db, bus, timers: realTimers, pollMs: 60_000 });
    bridges.push(leaving);
    await leaving.start();
    const heard: number[] = [];
    const off = busB.subscribe('config.changed', (e) => heard.push(e.ids?.[0] ?? -1));
    const last = nextEvent(busB, 'config.changed', (e) => e.ids?.[0] === 9002);
    leaving.bus.publish('config.changed', { area: 'sites', ids: [9001] });
    leaving.bus.publish('config.changed', { area: 'sites', ids: [9002] });
    await leaving.stop();
    const local: number[] = [];
    bus.subscribe('config.changed', (e) => local.push(e.ids?.[0] ?? -1));
    leaving.bus.publish('config.changed', { area: 'sites', ids: [9003] });
    expect(local).toEqual([9003]);
    await last;
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from event_outbox where origin = ${leaving.origin}`.execute(database.db.kysely);
    off();
    expect(rows[0]!.n).toBe(2);
    expect(heard).toEqual([9001, 9002]);
  });

  it('a process that was cut off longer than rows are kept reloads every cache, once', async () => {
    const [a] = bridges as [BusBridge, BusBridge];
    const bus = createEventBus();
    const late = createBusBridge({ db: secondDb, bus, timers: realTimers, pollMs: 60_000 });
    bridges.push(late);
    await late.start();
    // Its first read (once connected) is done: the gap below comes after it.
    await late.settled();
    expect(late.counts().fellBehind).toBe(0);
    // An event it never heard of (no wake-up), then pruned with everything before it.
    await sql`insert into event_outbox (origin, seq, name, payload) values ('elsewhere', 2, 'grants.changed', '{"user_ids":[99]}')`.execute(
      database.db.kysely,
    );
    await sql`delete from event_outbox`.execute(database.db.kysely);
    const sites = nextEvent(bus, 'config.changed', (e) => e.area === 'sites' && e.ids === null);
    const grants = nextEvent(bus, 'grants.changed', (e) => e.user_ids === null);
    await admin.query('select pg_terminate_backend($1)', [late.listenerPid()]);
    await Promise.all([sites, grants]);
    expect(late.counts().fellBehind).toBe(1);
    // Reading on as usual, without reloading again.
    const next = nextEvent(bus, 'config.changed', (e) => e.ids?.[0] === 31337);
    a.bus.publish('config.changed', { area: 'items', ids: [31337] });
    await next;
    await admin.query('select pg_terminate_backend($1)', [late.listenerPid()]);
    const again = nextEvent(bus, 'config.changed', (e) => e.ids?.[0] === 31338);
    a.bus.publish('config.changed', { area: 'items', ids: [31338] });
    await again;
    await late.settled();
    expect(late.counts()).toMatchObject({ fellBehind: 1, reconnects: 2 });
  });

  it('old rows are pruned', async () => {
    const bus = createEventBus();
    const pruner = createBusBridge({
      db: database.db,
      bus,
      timers: realTimers,
      pollMs: 60_000,
      pruneMs: 20,
      keepMs: 0,
    });
    bridges.push(pruner);
    const emptied = (async () => {
      for (;;) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from event_outbox`.execute(
          database.db.kysely,
        );
        if (rows[0]!.n === 0) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await pruner.start();
    await emptied;
    await pruner.stop();
  });
});

/**
 * The composition root bridges the bus on PostgreSQL only (app.ts): two servers on one database
 * hear each other's domain events; one server alone delivers its own once, synchronously, as on
 * SQLite, where nothing of the bridge is made.
 */
describeEachDatabase('the composition root and the bridge', (dialect) => {
  let database: TestDatabase;
  let secondDb: Db | undefined;
  const servers: Sitewatch[] = [];
  const make = (db: Db) =>
    createSitewatch({ db, authenticator: fakeAuthenticator, loginKey: testLoginKey, logLevel: 'silent' });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    servers.push(await make(database.db));
    if (dialect === 'postgres') {
      secondDb = database.connect();
      servers.push(await make(secondDb));
    }
    for (const s of servers) await s.start();
  });
  afterAll(async () => {
    for (const s of servers) await s.app.close();
    await secondDb?.close();
    await database?.destroy();
  });

  it('is made on PostgreSQL only', () => {
    expect(servers[0]!.areas.some((a) => a.name === 'bus-bridge')).toBe(dialect === 'postgres');
  });

  it('a server delivers its own events once, synchronously', async () => {
    const s = servers[0]!;
    const heard: number[] = [];
    const off = s.bus.subscribe('grants.changed', (e) => heard.push(e.user_ids?.[0] ?? 0));
    s.bus.publish('grants.changed', { user_ids: [5] });
    expect(heard).toEqual([5]);
    await s.settled();
    if (dialect === 'postgres') {
      // Written for the others, and passed over here: a later read finds nothing of its own to deliver.
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from event_outbox where name = 'grants.changed'`.execute(database.db.kysely);
      expect(rows[0]!.n).toBe(1);
      const other = nextEvent(servers[1]!.bus, 'grants.changed', (e) => e.user_ids?.[0] === 6);
      servers[1]!.bus.publish('grants.changed', { user_ids: [6] });
      await other;
      await nextEvent(s.bus, 'grants.changed', (e) => e.user_ids?.[0] === 6);
    }
    off();
    expect(heard).toEqual(dialect === 'postgres' ? [5, 6] : [5]);
  });

  it.skipIf(dialect !== 'postgres')("a change made through one server's API reaches the other's bus", async () => {
    const [a, b] = servers as [Sitewatch, Sitewatch];
    const heard = nextEvent(b.bus, 'config.changed', (e) => e.area === 'sites');
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/v1/setting/device_groups',
      headers: { authorization: 'Bearer admin-token' },
      payload: { name: '机房B', weight: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const event = await heard;
    expect(event.ids).toEqual([res.json().data.id]);
    // /metrics tells what crossed.
    const metric = async (s: Sitewatch, name: string) => {
      const text = (await s.app.inject({ method: 'GET', url: '/metrics' })).body;
      return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    };
    expect(await metric(a, 'sitewatch_bus_bridge_written_total')).toBeGreaterThanOrEqual(1);
    expect(await metric(b, 'sitewatch_bus_bridge_delivered_total')).toBeGreaterThanOrEqual(1);
    expect(await metric(b, 'sitewatch_bus_bridge_queued')).toBe(0);
  });
});

/**
 * Who hears whose events (issue 35, step 1; docs/scale.md): two servers on one PostgreSQL with
 * their device state logs (an acting subscriber: it writes a row per change). A state another
 * server published reaches the subscribers here that show it, and not those that act on it, or each
 * change would be written once per server.
 */
describe.skipIf(!testDialects.includes('postgres'))('two servers on one database', () => {
  let database: TestDatabase;
  let secondDb: Db;
  const servers: Sitewatch[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    secondDb = database.connect();
    for (const db of [database.db, secondDb])
      servers.push(
        await createSitewatch({
          db,
          authenticator: fakeAuthenticator,
          loginKey: testLoginKey,
          logLevel: 'silent',
          drivers: {},
          collectorThread: 'main',
        }),
      );
    for (const s of servers) await s.start();
  });
  afterAll(async () => {
    for (const s of servers) await s.app.close();
    await secondDb?.close();
    await database?.destroy();
  });

  it("another server's device state is shown here, not acted on again", async () => {
    const [a, b] = servers as [Sitewatch, Sitewatch];
    const post = async (url: string, payload: object) => {
      const res = await a.app.inject({
        method: 'POST',
        url: `/api/v1/${url}`,
        headers: { authorization: 'Bearer admin-token' },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { id: number };
    };
    const site = await post('setting/device_groups', { name: '机房C', weight: 1 });
    const device = await post('setting/devices', {
      name: 'TH-C',
      device_group_id: site.id,
      driver: 'simulator',
      code: 'temp_hum',
    });
    const acting: number[] = [];
    const showing: number[] = [];
    const offActing = b.bus.subscribe('device.state', (e) => {
      acting.push(e.device_id);
    });
    const shown = new Promise<void>((resolve) => {
      const off = b.bus.subscribe(
        'device.state',
        (e) => {
          showing.push(e.device_id);
          if (e.device_id === device.id) {
            off();
            resolve();
          }
        },
        { remote: true },
      );
    });
    a.bus.publish('device.state', { device_id: device.id, state: 4, reason: 'no answer', since: 1_700_000_000 });
    await shown;
    await a.settled();
    await b.settled();
    expect(acting).toEqual([]);
    expect(showing).toEqual([device.id]);
    // A's log wrote the change; B's, which acts on its own process's changes only, did not again.
    const logged = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from device_state_logs where device_id = ${device.id}`.execute(database.db.kysely)
      ).rows[0]!.n;
    expect(await logged()).toBe(1);
    // Its own process's state every subscriber hears, as before.
    b.bus.publish('device.state', { device_id: device.id, state: 1, reason: '', since: 1_700_000_060 });
    expect(acting).toEqual([device.id]);
    offActing();
    await b.settled();
    expect(await logged()).toBe(2);
  });
});
