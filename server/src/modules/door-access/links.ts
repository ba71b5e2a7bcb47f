import type { FastifyBaseLogger } from 'fastify';
import { createPending, type Timer, type Timers } from '../../clock/timers.ts';
import { siteScope } from '../access/index.ts';
import type { DoorAlarms } from './alarms.ts';
import { ControllerError, type DoorController, type DoorMode } from './controller.ts';
import { type DoorRows, localTime } from './service.ts';
import { pushCards, syncEvents } from './sync.ts';
import { createWgAdapter, type WgListener } from './wg/adapter.ts';

/**
 * The links to the controllers (docs/door-access.md, "Sync"): one adapter per controller, made on
 * first use and remade when its address changes; a sync pass per controller reads its events since
 * the log's cursor and pushes the difference of its cards; passes of one controller never overlap.
 * Every timer is the kernel's. `settled()` counts the writes of a pass, not its waits for a controller:
 * those wait on the kernel's timers (a test's manual clock moves them), and a settle that waited for
 * them would wait for itself. The server log names controllers by id and serial only: never a card
 * number or a PIN.
 */
export interface DoorLinksOptions {
  rows: DoorRows;
  timers: Timers;
  clock: () => number;
  log: FastifyBaseLogger;
  /** Seconds between sync passes of every controller (0: none; routes and pushed events still sync); `reschedule` changes it. */
  syncSeconds: number;
  /** The held-open threshold in seconds (0: the status is not read; the controller's own reason 37 still counts). */
  heldOpenSeconds?: () => Promise<number>;
  timeoutMs?: number;
  listener?: WgListener | null;
  /** The address controllers reach the listener at (SITEWATCH_DOOR_LISTENER's, unless 0.0.0.0). */
  advertise?: () => string | null;
  /** Told of each pass's answer and events, and of a controller forgotten (alarms.ts). */
  alarms?: DoorAlarms;
}

export interface SyncResult {
  events: number;
  gaps: number;
  through: number;
  cards_put: number;
  cards_removed: number;
  online: boolean;
}

export const createDoorLinks = (opts: DoorLinksOptions) => {
  const adapters = new Map<number, { key: string; ctrl: Promise<DoorController> }>();
  const running = new Map<number, Promise<SyncResult>>();
  const pending = createPending();
  const told = new WeakSet<DoorController>();
  /** A pass due when an open door reaches the held-open threshold, per controller. */
  const heldChecks = new Map<number, Timer>();
  let timer: Timer | null = null;
  let every = opts.syncSeconds;
  let listIds: (() => Promise<number[]>) | null = null;
  let stopping = false;

  const adapterOf = async (row: { id: number; serial: number; address: string; port: number; protocol: string }) => {
    const key = `${row.protocol}|${row.serial}|${row.address}|${row.port}`;
    const held = adapters.get(row.id);
    if (held?.key === key) return held.ctrl;
    if (held) void held.ctrl.then((c) => c.close()).catch(() => undefined);
    const ctrl = createWgAdapter({
      serial: row.serial,
      address: row.address,
      port: row.port,
      timers: opts.timers,
      timeoutMs: opts.timeoutMs ?? 2000,
      retries: 1,
      ...(opts.listener ? { listener: opts.listener } : {}),
    }).then((c) => {
      c.subscribe(() => {
        // A pushed event says there is something new: read it by index, so it is logged once.
        void links.sync(row.id).catch(() => undefined);
      });
      return c;
    });
    adapters.set(row.id, { key, ctrl });
    return ctrl;
  };

  const pass = async (id: number): Promise<SyncResult> => {
    const row = await opts.rows.controller(id, siteScope(null));
    const ctrl = await adapterOf(row);
    const p = await syncEvents(ctrl, row.last_event_index);
    await pending.track(opts.rows.recordEvents(row, p.events, p.gaps, p.through));
    if (opts.alarms) await pending.track(opts.alarms.events(row, p.events));
    let cards = { put: 0, removed: 0, failed: 0 };
    let online = p.error === null;
    if (online) {
      try {
        // Where the controller pushes its events: told once per adapter, when Sitewatch listens.
        const at = opts.listener ? opts.advertise?.() : null;
        if (at && opts.listener && !told.has(ctrl)) {
          const wg = ctrl as DoorController & { setListener?: (a: string, p: number) => Promise<boolean> };
          if (await wg.setListener?.(at, opts.listener.port)) told.add(ctrl);
        }
        cards = await pushCards(ctrl, await opts.rows.desiredCards(id));
        const held = (await opts.heldOpenSeconds?.()) ?? 0;
        if (held <= 0 && opts.alarms) await pending.track(opts.alarms.heldOff(row));
        if (held > 0 && opts.alarms) {
          const due = await pending.track(opts.alarms.doors(row, (await ctrl.status()).doorsOpen, held));
          opts.timers.clearTimeout(heldChecks.get(id));
          heldChecks.delete(id);
          if (due !== null && !stopping) {
            const check = opts.timers.setTimeout(() => {
              heldChecks.delete(id);
              void links.sync(id).catch(() => undefined);
            }, due);
            check.unref();
            heldChecks.set(id, check);
          }
        }
      } catch (err) {
        online = false;
        p.error = err;
      }
    }
    if (online !== (row.online === 1)) await pending.track(opts.rows.setOnline(id, online));
    if (opts.alarms) await pending.track(opts.alarms.link(row, online ? null : p.error));
    if (p.error)
      opts.log.warn(
        { controller: id, serial: row.serial, code: p.error instanceof ControllerError ? p.error.code : 'error' },
        'door controller sync stopped',
      );
    if (p.gaps.length > 0)
      opts.log.warn({ controller: id, gaps: p.gaps }, 'door controller overwrote events before they were read');
    return {
      events: p.events.length,
      gaps: p.gaps.length,
      through: p.through,
      cards_put: cards.put,
      cards_removed: cards.removed,
      online,
    };
  };

  const links = {
    /** One sync pass of a controller; a pass already running is joined, then one more runs. */
    sync(id: number): Promise<SyncResult> {
      const before = running.get(id) ?? Promise.resolve(null);
      const next = before.catch(() => null).then(() => pass(id));
      running.set(id, next);
      // The caller handles the pass's failure; this bookkeeping must not raise it a second time.
      next
        .finally(() => {
          if (running.get(id) === next) running.delete(id);
        })
        .catch(() => undefined);
      return next;
    },
    /** A remote command on a door of a controller; true when the controller did it. */
    async command(
      row: { id: number; serial: number; address: string; port: number; protocol: string },
      door: number,
      action: 'open' | DoorMode,
      delay: number,
    ) {
      const ctrl = await adapterOf(row);
      if (action === 'open') return ctrl.openDoor(door);
      const got = await ctrl.setDoorMode(door, action, delay);
      return got.mode === action;
    },
    /** Sets a controller's clock to the server's (on each periodic pass: controllers drift). */
    async setTime(row: { id: number; serial: number; address: string; port: number; protocol: string }) {
      const ctrl = await adapterOf(row);
      return ctrl.setTime(localTime(opts.clock()));
    },
    start(ids: () => Promise<number[]>) {
      listIds = ids;
      opts.timers.clearInterval(timer);
      timer = null;
      if (every <= 0 || stopping) return;
      timer = opts.timers.setInterval(() => {
        void ids().then((all) => Promise.allSettled(all.map((id) => links.sync(id))));
      }, every * 1000);
      timer.unref();
    },
    /** A new sync interval (the options page): the periodic pass runs at it from now. */
    reschedule(seconds: number) {
      every = seconds;
      if (listIds) links.start(listIds);
    },
    async stop() {
      stopping = true;
      opts.timers.clearInterval(timer);
      timer = null;
      for (const t of heldChecks.values()) opts.timers.clearTimeout(t);
      heldChecks.clear();
      // Closing the adapters ends their requests at once; then the passes finish their writes.
      for (const a of adapters.values()) await (await a.ctrl.catch(() => null))?.close();
      adapters.clear();
      await Promise.allSettled(running.values());
      await pending.settled();
    },
    /**
     * Forgets a controller's link (removed, or its address changed). One still there is linked again
     * at once by a pass, so its pushed events reach the log without waiting for the periodic pass.
     */
    forget(id: number) {
      const held = adapters.get(id);
      adapters.delete(id);
      opts.timers.clearTimeout(heldChecks.get(id));
      heldChecks.delete(id);
      if (opts.alarms)
        void pending
          .track(opts.alarms.forget(id))
          .catch((err) => opts.log.warn({ err, controller: id }, 'door alarms not recovered'));
      const closed = held ? held.ctrl.then((c) => c.close()).catch(() => undefined) : Promise.resolve();
      // A removed controller's pass finds no row and ends there.
      void closed.then(() => (stopping ? null : links.sync(id))).catch(() => undefined);
    },
    settled: () => pending.settled(),
  };
  return links;
};

export type DoorLinks = ReturnType<typeof createDoorLinks>;
