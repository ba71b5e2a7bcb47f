import { randomUUID } from 'node:crypto';
import {
  type BusEventName,
  type CrossProcessEventName,
  configArea,
  crossProcessEvents,
} from '@sitewatch/contract/events';
import { sql } from 'kysely';
import type PgModule from 'pg';
import { type AnyArea, defineArea } from '../area.ts';
import { createPending, type Pending, type Timer, type Timers } from '../clock/timers.ts';
import { type Db, loadPg } from '../db/kysely.ts';
import type { EventBus } from './bus.ts';

/** The `NOTIFY` channel the outbox's writers wake the readers on. */
export const eventChannel = 'sitewatch_events';
/** The advisory lock a writer holds while it numbers and commits its rows ("SWEV"). */
const outboxLock = 0x53574556;

export interface BusBridgeOptions {
  /** A PostgreSQL database (`db.url` opens the listening connection). */
  db: Db;
  /** The process's own bus: local delivery stays as it is; the bridge re-publishes others' events on it. */
  bus: EventBus;
  /** The kernel's timers: the safety poll, the pruning and the reconnect back-off run on them. */
  timers: Timers;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void } | undefined;
  /** This process's id in the outbox (a random one by default). */
  origin?: string;
  /** Read the outbox even without a wake-up this often (10 s by default). */
  pollMs?: number;
  /** Prune rows older than `keepMs` (5 minutes by default) this often (1 minute by default). */
  pruneMs?: number;
  keepMs?: number;
  /** Events kept for the outbox while the database refuses them (250 000 by default; the oldest go first). */
  maxQueued?: number;
}

/** What the bridge did so far (tests and logs read it). */
export interface BridgeCounts {
  /** Events written to the outbox. */
  written: number;
  /** Other processes' events re-published on the local bus. */
  delivered: number;
  /** Own events read back and skipped (a read raced the write's own advance, or a gap below it). */
  skippedOwn: number;
  /** Events dropped because the outbox was unreachable and the queue full. */
  dropped: number;
  /** Times the listening connection was lost and opened again. */
  reconnects: number;
  /** Times rows were pruned before this process read them (it reloaded every cache instead). */
  fellBehind: number;
  /** Events waiting to be written now. */
  queued: number;
}

export interface BusBridge {
  /** The bus the kernel hands every part: publishes locally, then queues a domain event for the outbox. */
  bus: EventBus;
  origin: string;
  /** Listens and reads from the end of the outbox on; the poll and the pruning start. */
  start(): Promise<void>;
  /** Writes what is queued, stops listening and its timers; later events stay local. */
  stop(): Promise<void>;
  /** Resolves when no write, read or reconnect is in flight; true when it waited. */
  settled(): Promise<boolean>;
  counts(): BridgeCounts;
  /** The listening connection's backend pid (null while it is down): a test terminates it. */
  listenerPid(): number | null;
  /** The highest outbox id this process has seen. */
  lastSeen(): number;
}

const crossing = new Set<BusEventName>(crossProcessEvents);

/** An event waiting for the outbox: its number in this process's queue, its name, its JSON. */
interface Queued {
  seq: number;
  name: string;
  payload: string;
}
const batchRows = 1000;

/** The sequence's last id given (null before the first). */
const sequenceLast = sql`pg_sequence_last_value(pg_get_serial_sequence('event_outbox', 'id')::regclass)`;

/**
 * One reading of the outbox under the writers' lock (no batch is then numbered but uncommitted):
 * `top`, the highest id given and committed (the newest row, else, all pruned, the sequence's
 * last); `floor`, the lowest id a reader can still read (the oldest row, else the one after `top`).
 * A floor above `last + 1` means rows were pruned before this process read them (it was cut off for
 * longer than `keepMs`); rolled-back ids can look the same, and a needless reload is the price.
 */
const outboxBounds = (db: Db): Promise<{ top: number; floor: number }> =>
  db.kysely.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${outboxLock})`.execute(trx);
    const { rows } = await sql<{ top: number | null; floor: number | null; given: number | null }>`
      select max(id) as top, min(id) as floor, ${sequenceLast} as given from event_outbox`.execute(trx);
    const top = Number(rows[0]?.top ?? rows[0]?.given ?? 0);
    return { top, floor: Number(rows[0]?.floor ?? top + 1) };
  });

/**
 * The bus bridge (issue 35, step 0; docs/scale.md): on PostgreSQL, domain events cross processes.
 * The local bus keeps delivering everything synchronously in the process that publishes it; the
 * domain events (`crossProcessEvents` in the contract: never samples) are also queued and written
 * to `event_outbox` in batches by one writer, each batch in a transaction that takes the outbox's
 * advisory lock first, so ids are numbered in commit order across processes (a reader that saw id
 * n has seen every row below it), and that NOTIFYs `sitewatch_events` with the batch's last id.
 * Each process LISTENs on a connection of its own and, on a wake-up, after a reconnect and on a
 * safety poll, reads the rows after the last id it saw, skips its own origin and re-publishes the
 * others' on its local bus, in id order. A re-published event is published on the local bus, not
 * on the bridged one: it is never written again. A process alone on the database writes its events
 * and, when nothing came in between, moves past them without reading them back.
 */
export const createBusBridge = (options: BusBridgeOptions): BusBridge => {
  const { db, timers, log } = options;
  const local = options.bus;
  if (db.dialect !== 'postgres' || !db.url) throw new Error('the bus bridge needs a PostgreSQL database');
  const url = db.url;
  const origin = options.origin ?? randomUUID();
  const pollMs = options.pollMs ?? 10_000;
  const pruneMs = options.pruneMs ?? 60_000;
  const keepMs = options.keepMs ?? 300_000;
  const maxQueued = options.maxQueued ?? 250_000;
  const pending = createPending();
  const counts: Omit<BridgeCounts, 'queued'> = {
    written: 0,
    delivered: 0,
    skippedOwn: 0,
    dropped: 0,
    reconnects: 0,
    fellBehind: 0,
  };
  const warn = (obj: object, msg: string) => log?.warn(obj, msg);
  let stopped = false;
  let started = false;
  /** The highest id read or passed: every row at or below it was delivered or is this process's own. */
  let last = 0;

  // ---------- writing ----------
  const queue: Queued[] = [];
  let seq = 0;
  let writing: Promise<void> | null = null;
  let retry: Timer | null = null;
  let retryMs = 250;
  const writeBatch = async (batch: Queued[]) => {
    const ids = await db.kysely.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${outboxLock})`.execute(trx);
      // A batch written again (its commit's answer was lost) skips the rows that are there already.
      const { rows } = await sql<{ id: number }>`insert into event_outbox (origin, seq, name, payload)
        select ${origin}, t.seq, t.name, t.payload
          from unnest(${batch.map((e) => e.seq)}::bigint[], ${batch.map((e) => e.name)}::text[],
                      ${batch.map((e) => e.payload)}::text[]) as t(seq, name, payload)
         order by t.seq
        on conflict (origin, seq) do nothing
        returning id`.execute(trx);
      if (rows.length === 0) return [];
      const top = Math.max(...rows.map((r) => r.id));
      await sql`select pg_notify(${eventChannel}, ${String(top)})`.execute(trx);
      return rows.map((r) => r.id);
    });
    if (ids.length === 0) return;
    counts.written += ids.length;
    // Numbered in commit order: with nothing unread below its first row, the batch is passed over.
    const first = Math.min(...ids);
    if (last === first - 1) last = Math.max(...ids);
  };
  const flush = async () => {
    // Events published in the same turn go in one batch.
    await null;
    while (queue.length > 0) {
      const batch = queue.slice(0, batchRows);
      try {
        await writeBatch(batch);
        queue.splice(0, batch.length);
        retryMs = 250;
      } catch (err) {
        if (stopped) return;
        warn({ err, queued: queue.length }, 'writing events to the outbox failed; retrying');
        retry = timers.setTimeout(() => {
          retry = null;
          writeSoon();
        }, retryMs);
        retry.unref();
        retryMs = Math.min(retryMs * 2, 5_000);
        return;
      }
    }
  };
  const writeSoon = () => {
    if (writing || retry) return;
    writing = pending.track(flush()).finally(() => {
      writing = null;
      if (queue.length > 0 && !retry && !stopped) writeSoon();
    });
  };
  const enqueue = (name: string, event: unknown) => {
    let payload: string;
    try {
      payload = JSON.stringify(event);
    } catch (err) {
      warn({ err, event: name }, 'an event could not be written as JSON; it stays in this process');
      return;
    }
    seq += 1;
    queue.push({ seq, name, payload });
    if (queue.length > maxQueued) {
      queue.shift();
      if (counts.dropped++ === 0)
        warn({ maxQueued }, 'the outbox is unreachable and its queue is full: events dropped');
    }
    writeSoon();
  };

  // ---------- reading ----------
  let reading: Promise<void> | null = null;
  let again = false;
  let rereading: Timer | null = null;
  let checkFloor = false;
  const readAll = async () => {
    if (checkFloor) {
      checkFloor = false;
      const { floor } = await outboxBounds(db);
      if (floor > last + 1) {
        counts.fellBehind += 1;
        warn({ last, floor }, 'events were pruned before this process read them: every cache reloads');
        // Read on from the oldest row still there.
        last = Math.max(last, floor - 1);
        // What a missed config.changed or grants.changed would have said, for all of it.
        for (const area of configArea.options) local.publish('config.changed', { area, ids: null }, { remote: true });
        local.publish('grants.changed', { user_ids: null }, { remote: true });
      }
    }
    for (;;) {
      const { rows } = await sql<{ id: number; origin: string; name: string; payload: string }>`
        select id, origin, name, payload from event_outbox where id > ${last} order by id limit ${batchRows}`.execute(
        db.kysely,
      );
      for (const row of rows) {
        if (row.id <= last) continue;
        last = row.id;
        if (row.origin === origin) {
          counts.skippedOwn += 1;
          continue;
        }
        if (!crossing.has(row.name as BusEventName)) continue;
        let event: unknown;
        try {
          event = JSON.parse(row.payload);
        } catch (err) {
          warn({ err, id: row.id }, 'an outbox row is not JSON; skipped');
          continue;
        }
        counts.delivered += 1;
        // The local bus, marked remote: never written again, heard by who asks for others' (bus.ts).
        local.publish(row.name as CrossProcessEventName, event as never, { remote: true });
      }
      if (rows.length < batchRows) return;
    }
  };
  /** Reads what is after `last` (one read at a time; a wake-up during one reads again after it). */
  const readSoon = (upTo?: number, floor = false) => {
    if (stopped || !started) return;
    if (floor) checkFloor = true;
    if (upTo !== undefined && upTo <= last && !checkFloor) return;
    if (reading) {
      again = true;
      return;
    }
    reading = pending.track(
      readAll()
        .catch((err) => {
          if (stopped) return;
          warn({ err }, 'reading the outbox failed; reading again in a second');
          timers.clearTimeout(rereading);
          rereading = timers.setTimeout(() => {
            rereading = null;
            readSoon();
          }, 1_000);
          rereading.unref();
        })
        .finally(() => {
          reading = null;
          if (again) {
            again = false;
            readSoon();
          }
        }),
    );
  };

  // ---------- listening ----------
  const listener = createListener({
    url,
    timers,
    pending,
    warn,
    // Once (re)connected: what was committed meanwhile, and whether some of it was pruned.
    onWake: (upTo) => readSoon(upTo, upTo === undefined),
    onLost: () => {
      counts.reconnects += 1;
    },
  });

  let poll: Timer | null = null;
  let prune: Timer | null = null;
  const pruneOld = () =>
    sql`delete from event_outbox where at < now() - make_interval(secs => ${keepMs / 1000})`
      .execute(db.kysely)
      .catch((err) => warn({ err }, 'pruning the outbox failed'));

  const bus: EventBus = {
    publish(name, event, options) {
      local.publish(name, event, options);
      if (!options?.remote && !stopped && crossing.has(name)) enqueue(name, event);
    },
    subscribe: (name, handler, options) => local.subscribe(name, handler, options),
    settled: () => local.settled(),
  };

  return {
    bus,
    origin,
    async start() {
      if (started || stopped) return;
      // From the end of the outbox on: what others published before this process ran is not news.
      last = Math.max(last, (await outboxBounds(db)).top);
      started = true;
      await listener.listen();
      poll = timers.setInterval(() => {
        void listener.listen();
        readSoon(undefined, true);
      }, pollMs);
      poll.unref();
      prune = timers.setInterval(pruneOld, pruneMs);
      prune.unref();
    },
    async stop() {
      if (stopped) return;
      // Later events stay in this process; no read, reconnect or retry starts any more.
      stopped = true;
      timers.clearInterval(poll);
      timers.clearInterval(prune);
      timers.clearTimeout(retry);
      timers.clearTimeout(rereading);
      retry = null;
      // What is queued is written once more (no retry): the other processes hear this one's last events.
      await writing;
      if (queue.length > 0) await flush();
      if (queue.length > 0) warn({ lost: queue.length }, 'events not written to the outbox at stop');
      await listener.close();
      await pending.settled();
    },
    settled: () => pending.settled(),
    counts: () => ({ ...counts, queued: queue.length }),
    listenerPid: () => listener.pid(),
    lastSeen: () => last,
  };
};

/**
 * The LISTEN connection: a pg Client of its own (the pool's connections come and go). `onWake(id)`
 * on a notification (the id its batch ends at), `onWake()` once connected (again), to read what was
 * committed while nobody listened. A lost connection is opened again at once, then with a growing
 * pause (up to 5 s) while it fails.
 */
const createListener = (options: {
  url: string;
  timers: Timers;
  pending: Pending;
  warn(obj: object, msg: string): void;
  onWake(upTo?: number): void;
  onLost(): void;
}) => {
  const { timers, warn } = options;
  let client: PgModule.Client | null = null;
  let connecting: Promise<void> | null = null;
  let reconnect: Timer | null = null;
  let reconnectMs = 250;
  let closed = false;
  const lost = (c: PgModule.Client, err?: unknown) => {
    if (client !== c) return;
    client = null;
    c.end().catch(() => undefined);
    if (closed) return;
    options.onLost();
    warn({ err }, 'the event listener lost its connection; reconnecting');
    void listen();
  };
  const open = async () => {
    // TCP keep-alive after 10 s idle: a listener whose peer vanished is found out (the safety poll
    // reads through the pool meanwhile, so nothing waits longer than it).
    const c = new (loadPg().Client)({
      connectionString: options.url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    c.on('notification', (msg) => {
      if (msg.channel === eventChannel) options.onWake(Number(msg.payload));
    });
    try {
      await c.connect();
      await c.query(`listen ${eventChannel}`);
    } catch (err) {
      c.removeAllListeners('end');
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    reconnectMs = 250;
    options.onWake();
  };
  /** Opens the connection unless it is open or opening; resolves when this attempt ended. */
  const listen = (): Promise<void> => {
    if (closed || client || reconnect) return Promise.resolve();
    connecting ??= options.pending.track(
      open()
        .catch((err) => {
          if (closed) return;
          warn({ err, retryMs: reconnectMs }, 'the event listener could not connect; trying again');
          reconnect = timers.setTimeout(() => {
            reconnect = null;
            void listen();
          }, reconnectMs);
          reconnect.unref();
          reconnectMs = Math.min(reconnectMs * 2, 5_000);
        })
        .finally(() => {
          connecting = null;
        }),
    );
    return connecting;
  };
  return {
    listen,
    pid: () => (client as { processID?: number } | null)?.processID ?? null,
    async close() {
      closed = true;
      timers.clearTimeout(reconnect);
      const c = client;
      client = null;
      await connecting;
      await c?.end().catch(() => undefined);
    },
  };
};

/**
 * The bridge as the composition root declares it on PostgreSQL (app.ts): it owns the outbox table
 * and runs first and stops last, so the other parts' last events are written. Without a bridge
 * (turned off) the table is still declared: it exists on every PostgreSQL database.
 */
export const busBridgeArea = (bridge: BusBridge | undefined): AnyArea =>
  defineArea({
    name: 'bus-bridge',
    tables: { event_outbox: { sites: 'global', backup: false } },
    create: () =>
      bridge
        ? {
            start: () => bridge.start(),
            stop: () => bridge.stop(),
            settled: () => bridge.settled(),
          }
        : {},
  });
