import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import { realTimers, type Timer, type Timers } from '../clock/timers.ts';
import type { Db } from '../db/kysely.ts';
import type { SecretBox } from '../secrets/index.ts';
import { inProcessWriter, type SqlWriter } from '../series/writer.ts';
import { type Answer, answerOf } from './answer.ts';
import { type CollectorDevice, loadDevices } from './devices.ts';
import type { DriverRegistry, ReadResult } from './driver.ts';
import { driverRecipes } from './drivers/index.ts';
import { createItemRowWriter } from './item-rows.ts';
import { createLiveItems } from './live-items.ts';
import type { LiveItemState } from './live-slots.ts';
import { createPoller, type Poller } from './poller.ts';
import { type HostEvents, startPollerWorker } from './worker-host.ts';

export { type CollectorDevice, type CollectorItem, loadDevices } from './devices.ts';

export type { LiveItemState } from './live-slots.ts';

export interface LiveDeviceState {
  state: number;
  reason: string;
  time: number;
}

export interface CollectorOptions {
  db: Db;
  /** Where the item rows are written: the series store's writer while it runs (its SQLite thread). */
  writer?: (() => SqlWriter) | undefined;
  /** Where samples (`samples`, one event per answer) and device state changes (`device.state`) go; `config.changed` of devices reloads them. */
  bus: EventBus;
  drivers: DriverRegistry;
  /** Decrypts the device secrets stored encrypted (app.ts hands in the data dir's key). */
  secrets?: SecretBox | undefined;
  now?: () => number;
  /** Poll timing, persisting and maximum-age sweeps; tests drive a manual clock's, and the loops then run on the main thread (the worker thread keeps real timers). */
  timers?: Timers;
  /** How often changed item values and states are written to `items` (ms). */
  persistEveryMs?: number;
  /** Longest wait between retries of a device that does not answer (ms); one interval + 10 s at most anyway. */
  maxBackoffMs?: number;
  /** How often items are checked against their maximum age (ms). */
  maxAgeSweepMs?: number;
  /**
   * Where the device loops run: `worker` (default) a worker thread of their own when every driver
   * can be rebuilt there (drivers/index.ts), else and when it cannot start the main thread;
   * `main` the main thread always (docs/series-store.md, "Both cores").
   */
  thread?: 'worker' | 'main';
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** The collector as the rest of the server sees it. */
export interface Collector {
  /** Loads devices and items and starts polling each enabled device. */
  start(): Promise<void>;
  /** Loads devices and items without polling (benchmarks feed samples themselves). */
  load(): Promise<void>;
  stop(): Promise<void>;
  /** Whether the collector is polling (started and not stopped): the dashboard's collection service state. */
  running(): boolean;
  /** Re-reads one device (or all) after its settings changed. */
  reload(deviceId?: number): Promise<void>;
  /**
   * Takes the answer of one read of a device: live values, states and samples. `pushed`: a
   * message a push session was told (MQTT), naming only some items; the others are left as they are.
   */
  accept(deviceId: number, result: ReadResult, tsMs: number, pushed?: boolean): void;
  /** Writes a setpoint or command through the device's driver. */
  write(itemId: number, value: number): Promise<void>;
  liveItem(itemId: number): LiveItemState | undefined;
  liveDevice(deviceId: number): LiveDeviceState | undefined;
  /** The device of a collected item. */
  deviceOfItem(itemId: number): number | undefined;
  /** The site of a collected device. */
  siteOfDevice(deviceId: number): number | undefined;
  /** Writes changed item values and states now. */
  persist(): Promise<void>;
  /**
   * The collected items whose live state may not be their row's yet ([item id, live state]): a
   * count over the rows corrected by these counts live states (monitoring's statistics).
   */
  unsavedStates(): Array<[itemId: number, live: number]>;
}

/** A collected device on the main thread, and what its loop last said of its connection. */
interface Entry {
  device: CollectorDevice;
  /** Which install of the device this is: answers of an earlier one are dropped. */
  gen: number;
  /** A session is open (a poll or message can be answered), since when, and whether it pushes. */
  session: boolean;
  since: number;
  pushes: boolean;
  /** Polls in a row that got no answer. */
  failures: number;
}

/**
 * The device loops: in the collector worker when every driver can be rebuilt there and it starts,
 * else on the main thread. `events` is what they tell; `current` the install an event is of.
 */
const startDeviceLoops = async (
  options: CollectorOptions,
  now: () => number,
  events: HostEvents,
  current: (deviceId: number, gen: number) => Entry | undefined,
): Promise<{ poller: Poller; inWorker: boolean }> => {
  const ownTime = options.now !== undefined || options.timers !== undefined;
  const inProcess = () => ({
    inWorker: false,
    poller: createPoller({
      drivers: options.drivers,
      now,
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.maxBackoffMs !== undefined ? { maxBackoffMs: options.maxBackoffMs } : {}),
      events: {
        ...events,
        answer: (deviceId, gen, result, tsMs, pushed, read) => {
          const entry = current(deviceId, gen);
          // A driver times the messages it is told by the system's clock: on a clock of its own,
          // the collector times them by that clock, as it does its polls.
          const at = pushed && ownTime ? now() : tsMs;
          if (entry) events.answer(deviceId, gen, answerOf(entry.device.items, result, pushed, read), at, pushed);
        },
      },
    }),
  });
  const recipes = options.thread === 'main' || ownTime ? null : driverRecipes(options.drivers);
  if (!recipes) return inProcess();
  try {
    return { poller: await startPollerWorker(recipes, events, options.maxBackoffMs, options.log), inWorker: true };
  } catch (err) {
    options.log?.warn({ err }, 'the collector worker could not start: polling on the main thread');
    return inProcess();
  }
};

/**
 * A device's unreadable messages, logged at most once a minute (a publisher sending garbage every
 * second would fill the log); the items carry the reason anyway.
 */
const unreadableLog = (now: () => number, log: CollectorOptions['log']) => {
  const logged = new Map<number, number>();
  return (deviceId: number, answer: Answer) => {
    const last = logged.get(deviceId);
    const at = now();
    if (!answer.errors || (last !== undefined && at - last < 60_000)) return;
    logged.set(deviceId, at);
    const [item, reason] = answer.errors.entries().next().value ?? [0, ''];
    log?.warn({ device: deviceId, item, reason }, 'a message could not be read (logged once a minute)');
  };
};

/** Keeps a device's state: saved on its row, and told on the bus when the state (not only its reason) changes. */
const deviceStateSetter =
  (options: CollectorOptions, now: () => number, liveDevices: Map<number, LiveDeviceState>) =>
  (deviceId: number, state: number, reason: string) => {
    const prev = liveDevices.get(deviceId);
    if (prev && prev.state === state && prev.reason === reason) return;
    const next = { state, reason: reason.slice(0, 280), time: Math.floor(now() / 1000) };
    liveDevices.set(deviceId, next);
    // Listeners hear state changes; a new reason for the same state is only saved.
    if (!prev || prev.state !== state)
      options.bus.publish('device.state', { device_id: deviceId, state, reason: next.reason, since: next.time });
    void options.db.kysely
      .updateTable('devices')
      .set({ state: next.state, state_reason: next.reason, state_time: next.time })
      .where('id', '=', deviceId)
      .execute()
      .catch((err) => options.log?.warn({ err, deviceId }, 'could not save device state'));
  };

/**
 * The collector: the device loops (poller.ts; in a worker thread by default, worker-host.ts) poll
 * each device on its check interval through its driver; this side takes their answers: live
 * values and states, samples on the bus, device states, maximum ages, and the item rows.
 */
export const createCollector = (options: CollectorOptions): Collector => {
  const now = options.now ?? Date.now;
  const entries = new Map<number, Entry>();
  /**
   * Each installed item by id: an array indexed by id (8 bytes per id while ids are dense; V8 keeps
   * a sparse one as a dictionary), not a Map of ~37 bytes per entry (issue 18, memory per item).
   */
  const itemIndex: Array<CollectorDevice['items'][number] | undefined> = [];
  let itemCount = 0;
  const liveDevices = new Map<number, LiveDeviceState>();
  const live = createLiveItems(options.bus);
  const { publishSamples } = live;
  const timers = options.timers ?? realTimers;
  let persistTimer: Timer | null = null;
  let sweepTimer: Timer | null = null;
  let polling = false;
  let poller: Poller | null = null;
  let gens = 0;
  const { bus } = options;
  const mainWriter = inProcessWriter(options.db);
  const persist = createItemRowWriter(
    options.db,
    options.writer ?? (() => mainWriter),
    live.view,
    live.dirtyItems,
    options.log,
    (id, state) => live.slots.wroteState(id, state),
  );
  let subscriptions: Array<() => void> = [];
  const setDeviceState = deviceStateSetter(options, now, liveDevices);

  const logUnreadable = unreadableLog(now, options.log);

  /**
   * Takes one answer of a device: a poll's covers the items it read (those it does not name gave no
   * value), a message's (pushed) only the items it names; the others are left as they are.
   */
  const acceptAnswer = (entry: Entry | undefined, deviceId: number, answer: Answer, tsMs: number, pushed: boolean) => {
    const { ids, values, to } = answer;
    const pushes = entry?.pushes ?? false;
    if (pushed) {
      if (answer.errors) logUnreadable(deviceId, answer);
      for (let j = answer.from; j < to; j++) {
        const item = itemIndex[ids[j]!];
        if (item && item.device_id === deviceId) live.checkItem(item, values[j], answer, tsMs, true, pushes);
      }
    } else {
      // The answered items come in the device's item order: one pass pairs them. Items the poll
      // did not ask for (their own interval has not run) are left as they are.
      const { read } = answer;
      let j = answer.from;
      for (const item of entry?.device.items ?? []) {
        if (read && !read.has(item.id)) continue;
        let raw: number | undefined;
        if (j < to && ids[j] === item.id) raw = values[j++];
        live.checkItem(item, raw, answer, tsMs, false, pushes);
      }
    }
    settle(entry, deviceId, tsMs);
  };

  /**
   * Publishes the samples gathered for a device and works out its state. A device none of whose
   * items has a usable value any more (each failed its last check, went silent past its maximum
   * age, or has not been heard yet) is unknown: one communication alarm rather than a point fault
   * per item. Its state goes first, so that the engine hears of it before its items' samples.
   * Otherwise its state follows, from the engine's states of its items (live-items.ts).
   */
  const settle = (entry: Entry | undefined, deviceId: number, tsMs: number) => {
    const unusable = entry !== undefined && live.nothingUsable(entry.device.items);
    if (unusable) setDeviceState(deviceId, monitorState.unknown, live.failureOf(entry.device.items, entry.pushes));
    publishSamples(tsMs);
    const judged = entry && !unusable ? live.deviceStateOf(entry.device.items) : null;
    if (judged) setDeviceState(deviceId, judged.state, judged.reason);
  };

  /**
   * Maximum age (docs/monitoring.md) of the connected devices' items. A device that does not answer
   * is unknown already and keeps its own reason.
   */
  const sweepMaxAge = () => {
    const tsMs = now();
    for (const entry of entries.values()) {
      // Not connected yet (or not answering): nothing has been listened for.
      if (entry.failures > 0 || !entry.session) continue;
      if (live.ageOut(entry.device.items, entry.since, entry.pushes, tsMs)) settle(entry, entry.device.id, tsMs);
    }
  };

  /** The device did not answer: its state first, then every item's empty check as its outage. */
  const markUnknown = (entry: Entry, reason: string, tsMs: number) => {
    setDeviceState(entry.device.id, monitorState.unknown, reason);
    live.markUnknown(entry.device.items, reason, tsMs);
  };

  /** The current install of a device, or undefined for an event of an earlier one. */
  const current = (deviceId: number, gen: number) => {
    const entry = entries.get(deviceId);
    return entry?.gen === gen ? entry : undefined;
  };
  /** What the device loops say, on whichever thread they run. */
  const events: HostEvents = {
    answer(deviceId, gen, answer, tsMs, pushed) {
      const entry = current(deviceId, gen);
      if (!entry) return;
      if (!pushed) entry.failures = 0;
      acceptAnswer(entry, deviceId, answer, tsMs, pushed);
    },
    empty(deviceId, gen) {
      if (current(deviceId, gen)) setDeviceState(deviceId, monitorState.notReady, '');
    },
    alive(deviceId, gen, recovered) {
      const entry = current(deviceId, gen);
      if (!entry) return;
      entry.failures = 0;
      const tsMs = now();
      live.alive(entry.device.items, entry.pushes, recovered, tsMs);
      settle(entry, deviceId, tsMs);
    },
    opened(deviceId, gen, since, pushes) {
      const entry = current(deviceId, gen);
      if (!entry) return;
      entry.session = true;
      entry.since = since;
      entry.pushes = pushes;
    },
    failed(deviceId, gen, reason, tsMs, failures) {
      const entry = current(deviceId, gen);
      if (!entry) return;
      entry.failures = failures;
      entry.session = false;
      markUnknown(entry, reason, tsMs);
      if (failures === 1) options.log?.warn({ device: deviceId, err: reason }, 'device does not answer');
    },
  };

  const install = (device: CollectorDevice) => {
    const gen = ++gens;
    entries.set(device.id, { device, gen, session: false, since: now(), pushes: false, failures: 0 });
    // The device's own item objects (they carry device_id): one copy per item, not two.
    for (const item of device.items) {
      if (itemIndex[item.id] === undefined) itemCount += 1;
      itemIndex[item.id] = item;
    }
    if (!liveDevices.has(device.id)) liveDevices.set(device.id, { state: monitorState.notReady, reason: '', time: 0 });
    poller?.install(device, gen);
  };

  const loadAll = async () => {
    for (const device of await loadDevices(options.db, undefined, options.secrets)) install(device);
  };

  /** Re-reads devices (all without an id: a full resync) and installs them afresh. */
  const reloadNow = async (deviceId?: number) => {
    const targets = deviceId === undefined ? [...entries.keys()] : [deviceId];
    const forgotten: number[] = [];
    for (const id of targets) {
      const entry = entries.get(id);
      if (!entry) continue;
      entries.delete(id);
      for (const item of entry.device.items) {
        if (itemIndex[item.id] !== undefined) itemCount -= 1;
        itemIndex[item.id] = undefined;
        live.forget(item.id);
        forgotten.push(item.id);
      }
      await poller?.remove(id);
    }
    // Without an id this is a full resync: devices added elsewhere (site copies) start too.
    const fresh = await loadDevices(options.db, deviceId, options.secrets);
    for (const device of fresh) {
      if (!entries.has(device.id)) install(device);
    }
    // Items no longer collected (deleted, disabled) are no longer counted in their live state.
    for (const id of forgotten) if (itemIndex[id] === undefined) live.slots.unsaved.delete(id);
    if (deviceId !== undefined && fresh.length === 0) liveDevices.delete(deviceId);
  };
  let reloading: Promise<void> = Promise.resolve();

  const collector: Collector = {
    async start() {
      polling = true;
      const loops = await startDeviceLoops(options, now, events, current);
      poller = loops.poller;
      subscriptions = [
        bus.subscribe('item.state', live.onItemState),
        // A device or item changed through any area is re-read at once (an item change names its device).
        bus.subscribe('config.changed', ({ area, ids }) => {
          if (area !== 'devices') return;
          return Promise.all(
            (ids ?? [undefined]).map((id) =>
              collector.reload(id).catch((err) => options.log?.warn({ err, id }, 'could not reload a device')),
            ),
          );
        }),
      ];
      await loadAll();
      persistTimer = timers.setInterval(persist, options.persistEveryMs ?? 5000);
      persistTimer.unref();
      sweepTimer = timers.setInterval(sweepMaxAge, options.maxAgeSweepMs ?? 500);
      sweepTimer.unref();
      options.log?.info(
        { devices: entries.size, items: itemCount, thread: loops.inWorker ? 'worker' : 'main' },
        'collector started',
      );
    },
    load: loadAll,
    running: () => polling,
    async stop() {
      polling = false;
      for (const unsubscribe of subscriptions) unsubscribe();
      subscriptions = [];
      timers.clearInterval(persistTimer);
      timers.clearInterval(sweepTimer);
      persistTimer = sweepTimer = null;
      const stopping = poller;
      poller = null;
      await stopping?.stop();
      entries.clear();
      await persist();
    },
    reload(deviceId) {
      // One after another: a reload that began while another had the device out read the rows and
      // installed them if it finished first, and the later one, which had read more (an item added
      // meanwhile), then found the device installed and kept the older rows.
      const next = reloading.then(() => reloadNow(deviceId));
      reloading = next.catch(() => undefined);
      return next;
    },
    accept(deviceId, result, tsMs, pushed = false) {
      const entry = entries.get(deviceId);
      acceptAnswer(entry, deviceId, answerOf(entry?.device.items ?? [], result, pushed), tsMs, pushed);
    },
    async write(itemId, value) {
      const item = itemIndex[itemId];
      if (!item || !entries.has(item.device_id) || !poller) throw new Error('item is not being collected');
      await poller.write(item.device_id, itemId, value);
    },
    liveItem: live.liveOf,
    liveDevice: (id) => liveDevices.get(id),
    deviceOfItem: (id) => itemIndex[id]?.device_id,
    siteOfDevice: (id) => entries.get(id)?.device.device_group_id,
    persist,
    unsavedStates: () => live.unsavedStates((id) => itemIndex[id] !== undefined),
  };
  return collector;
};
