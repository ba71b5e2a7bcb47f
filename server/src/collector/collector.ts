import type { BusEvent } from '@sitewatch/contract/events';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import { createChangedIds } from '../changed-ids.ts';
import type { Db } from '../db/kysely.ts';
import type { SecretBox } from '../secrets/index.ts';
import { type Answer, answerOf } from './answer.ts';
import { type CollectorDevice, loadDevices } from './devices.ts';
import type { DriverRegistry, ReadResult } from './driver.ts';
import { driverRecipes } from './drivers/index.ts';
import { createItemRowWriter } from './item-rows.ts';
import { type LiveItemState, LiveItems } from './live-items.ts';
import { createPoller, type Poller } from './poller.ts';
import { checkReading } from './reading.ts';
import { type HostEvents, startPollerWorker } from './worker-host.ts';

export { type CollectorDevice, type CollectorItem, loadDevices } from './devices.ts';

export type { LiveItemState } from './live-items.ts';

export interface LiveDeviceState {
  state: number;
  reason: string;
  time: number;
}

export interface CollectorOptions {
  db: Db;
  /** Where samples (`samples`, one event per answer) and device state changes (`device.state`) go; `config.changed` of devices reloads them. */
  bus: EventBus;
  drivers: DriverRegistry;
  /** Decrypts the device secrets stored encrypted (app.ts hands in the data dir's key). */
  secrets?: SecretBox | undefined;
  now?: () => number;
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
  const dirtyItems = createChangedIds();
  const live = new LiveItems();
  /** The items past their maximum age. */
  const stale = new Set<number>();
  let persistTimer: NodeJS.Timeout | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  let polling = false;
  let poller: Poller | null = null;
  let gens = 0;
  let inWorker = false;
  const { bus } = options;
  // The row writer reads items by id: a read-only view of the slots (it calls only has and get).
  class LiveView extends Map<number, LiveItemState> {
    override has(itemId: number) {
      return live.has(itemId);
    }
    override get(itemId: number) {
      return live.read(itemId);
    }
  }
  const persist = createItemRowWriter(options.db, new LiveView(), dirtyItems, options.log);
  // Every check of every item is a sample: its value, or NaN when it gave none (with why). The
  // samples of one answer (or sweep of a device) are gathered here and published as one `samples`
  // event, before the device is judged (its items' states are the engine's answer to them).
  let outIds = new Float64Array(1024);
  let outValues = new Float64Array(1024);
  let outN = 0;
  /** Why the gathered NaNs have no value (made only when one has a reason other than the batch's). */
  let outReasons: Map<number, string> | null = null;
  /** The reason of the gathered batch's first NaN (a device where nothing is usable is unknown with it). */
  let firstFailure: string | null = null;
  /** The ids of the batch being delivered: consumers read its arrays until publish returns. */
  let delivered: Float64Array | null = null;
  const sample = (itemId: number, value: number, reason?: string) => {
    // Gathered while a batch is delivered (a consumer's synchronous call back): arrays of its own.
    if (outIds === delivered) {
      outIds = new Float64Array(outIds.length);
      outValues = new Float64Array(outValues.length);
    }
    if (outN === outIds.length) {
      const ids = new Float64Array(outN * 2);
      const values = new Float64Array(outN * 2);
      ids.set(outIds);
      values.set(outValues);
      outIds = ids;
      outValues = values;
    }
    outIds[outN] = itemId;
    outValues[outN++] = value;
    if (reason === undefined) return;
    outReasons ??= new Map();
    outReasons.set(itemId, reason);
    firstFailure ??= reason;
  };
  /** `outage`: the device did not answer, the NaNs are its outage (its state was published first). */
  const publishSamples = (tsMs: number, outage?: { reason: string }) => {
    if (outN === 0) return;
    const event = {
      ids: outIds,
      values: outValues,
      from: 0,
      to: outN,
      ts_ms: tsMs,
      reasons: outReasons,
      ...(outage ? { reason: outage.reason, outage: true } : {}),
    };
    outN = 0;
    outReasons = null;
    firstFailure = null;
    const outer = delivered;
    delivered = event.ids;
    try {
      bus.publish('samples', event);
    } finally {
      delivered = outer;
    }
  };
  let subscriptions: Array<() => void> = [];
  // Item states are the alarm engine's: the live view keeps the last one it published.
  const onItemState = (e: BusEvent<'item.state'>) => {
    if (live.takeState(e)) dirtyItems.add(e.item_id);
  };

  const setDeviceState = (deviceId: number, state: number, reason: string) => {
    const prev = liveDevices.get(deviceId);
    if (prev && prev.state === state && prev.reason === reason) return;
    const next = { state, reason: reason.slice(0, 280), time: Math.floor(now() / 1000) };
    liveDevices.set(deviceId, next);
    // Listeners hear state changes; a new reason for the same state is only saved.
    if (!prev || prev.state !== state)
      bus.publish('device.state', { device_id: deviceId, state, reason: next.reason, since: next.time });
    void options.db.kysely
      .updateTable('devices')
      .set({ state: next.state, state_reason: next.reason, state_time: next.time })
      .where('id', '=', deviceId)
      .execute()
      .catch((err) => options.log?.warn({ err, deviceId }, 'could not save device state'));
  };

  /** Why a silent item is silent: a pushed one heard nothing, a polled one kept its value. */
  const silentReason = (entry: Entry, item: { max_age: number }) =>
    entry.pushes ? `no value for ${item.max_age} s` : `value unchanged for ${item.max_age} s`;

  /** One item's check: `raw` undefined when the answer has no value for it. */
  const checkItem = (
    entry: Entry | undefined,
    item: CollectorDevice['items'][number],
    raw: number | undefined,
    answer: Answer,
    tsMs: number,
    pushed: boolean,
  ) => {
    // The edge: every value a driver returns is checked here once, so no NaN, Infinity or
    // non-number is ever kept, stored, judged or sent (reading.ts).
    // A finite number (nearly every value) passes as it is (−0 as 0): no object per value here.
    let ok = false;
    let value = 0;
    let why: string | undefined;
    if (raw !== undefined && Number.isFinite(raw)) {
      ok = true;
      value = raw === 0 ? 0 : raw;
    } else if (raw !== undefined) {
      const reading = checkReading(raw);
      if (reading.ok) {
        ok = true;
        value = reading.value;
      } else why = reading.reason;
    }
    // Live values are updated in place: this runs for every sample the collector takes.
    const s = live.slotFor(item.id);
    // Maximum age: a message always refreshes its items; a poll refreshes a value that changed (or
    // the first after none), so a polled value frozen past its maximum age stays unknown.
    // (`stale` is nearly always empty: its size is read before hashing the id, as twice below.)
    const frozen = !pushed && ok && stale.size > 0 && stale.has(item.id) && live.value[s] === value;
    live.heard[s] = 1;
    if (ok && !frozen) {
      if (pushed || live.value[s] !== value || live.ok[s] === 0 || Number.isNaN(live.refreshed[s]!))
        live.refreshed[s] = tsMs;
      if (stale.size > 0) stale.delete(item.id);
      live.value[s] = value;
      live.ok[s] = 1;
      // Its state is the alarm engine's, which judges the sample and answers with `item.state`.
      sample(item.id, value);
    } else {
      // The last good value stays for reference; the engine shows the item unknown with the reason.
      live.ok[s] = 0;
      const reason = frozen && entry ? silentReason(entry, item) : (answer.errors?.get(item.id) ?? why ?? 'no value');
      sample(item.id, Number.NaN, reason.slice(0, 280));
    }
    live.checked[s] = Math.floor(tsMs / 1000);
    dirtyItems.add(item.id);
  };

  // A device's unreadable messages are logged at most once a minute (a publisher sending garbage
  // every second would fill the log); the items carry the reason anyway.
  const unreadableLogged = new Map<number, number>();
  const logUnreadable = (deviceId: number, answer: Answer) => {
    const last = unreadableLogged.get(deviceId);
    const at = now();
    if (!answer.errors || (last !== undefined && at - last < 60_000)) return;
    unreadableLogged.set(deviceId, at);
    const [item, reason] = answer.errors.entries().next().value ?? [0, ''];
    options.log?.warn({ device: deviceId, item, reason }, 'a message could not be read (logged once a minute)');
  };

  /**
   * Takes one answer of a device: a poll's covers all its items (those it does not name gave no
   * value), a message's (pushed) only the items it names; the others are left as they are.
   */
  const acceptAnswer = (entry: Entry | undefined, deviceId: number, answer: Answer, tsMs: number, pushed: boolean) => {
    const { ids, values, to } = answer;
    if (pushed) {
      if (answer.errors) logUnreadable(deviceId, answer);
      for (let j = answer.from; j < to; j++) {
        const item = itemIndex[ids[j]!];
        if (item && item.device_id === deviceId) checkItem(entry, item, values[j], answer, tsMs, true);
      }
    } else {
      // The answered items come in the device's item order: one pass pairs them.
      let j = answer.from;
      for (const item of entry?.device.items ?? []) {
        let raw: number | undefined;
        if (j < to && ids[j] === item.id) raw = values[j++];
        checkItem(entry, item, raw, answer, tsMs, false);
      }
    }
    settle(entry, deviceId, tsMs);
  };

  /**
   * Publishes the samples gathered for a device and works out its state. A device none of whose
   * items has a usable value any more (each failed its last check, went silent past its maximum
   * age, or has not been heard yet) is unknown: one communication alarm rather than a point fault
   * per item. Its state goes first, so that the engine hears of it before its items' samples.
   */
  const settle = (entry: Entry | undefined, deviceId: number, tsMs: number) => {
    if (entry && nothingUsable(entry)) {
      setDeviceState(deviceId, monitorState.unknown, firstFailure ?? failureOf(entry));
      publishSamples(tsMs);
      return;
    }
    publishSamples(tsMs);
    if (entry) judgeDevice(entry);
  };

  /**
   * Whether no item of a device has a usable value: each failed its last check or went silent, or
   * (once one has gone silent) has not been heard yet. Items not heard yet beside failed ones leave
   * it up: a publisher's first message may name one item only.
   */
  const nothingUsable = (entry: Entry) => {
    const { items } = entry.device;
    let failed = 0;
    let waiting = 0;
    let silent = false;
    for (const item of items) {
      const s = live.slotOf(item.id);
      if (s === undefined || live.heard[s] === 0) waiting += 1;
      else if (live.ok[s] === 0) {
        failed += 1;
        silent ||= stale.size > 0 && stale.has(item.id);
      } else return false;
    }
    return failed > 0 && (waiting === 0 || silent);
  };
  /** Why a device has nothing usable: its first silent item, else the first item the engine shows unknown. */
  const failureOf = (entry: Entry) => {
    const silent = stale.size > 0 ? entry.device.items.find((i) => stale.has(i.id)) : undefined;
    if (silent) return silentReason(entry, silent);
    for (const item of entry.device.items) {
      const s = live.slotOf(item.id);
      if (s !== undefined && live.heard[s] === 1 && live.info[s]) return live.info[s]!;
    }
    return 'no value';
  };

  /**
   * A device's state, after its samples were judged, from the engine's states of its items:
   * abnormal naming the items that are unknown, abnormal when an item is abnormal or jitters, else
   * normal (not ready while nothing has come yet).
   */
  const judgeDevice = (entry: Entry) => {
    const { items, id } = entry.device;
    if (items.length === 0) return;
    const unreadable: string[] = [];
    let abnormal = false;
    let waiting = 0;
    for (const item of items) {
      const s = live.slotOf(item.id);
      if (s === undefined || live.heard[s] === 0) {
        waiting += 1;
        continue;
      }
      const state = live.state[s]!;
      if (state === monitorState.unknown) unreadable.push(`${item.name || `#${item.id}`}: ${live.info[s]}`);
      else if (state !== monitorState.normal && state !== monitorState.notReady) abnormal = true;
    }
    if (unreadable.length > 0) {
      const named = unreadable.slice(0, 3).join('; ');
      setDeviceState(
        id,
        monitorState.abnormal,
        unreadable.length > 3 ? `${named}; +${unreadable.length - 3} more` : named,
      );
    } else if (waiting === items.length) setDeviceState(id, monitorState.notReady, '');
    else setDeviceState(id, abnormal ? monitorState.abnormal : monitorState.normal, '');
  };

  /**
   * Maximum age (docs/monitoring.md): an item with no refreshed value for `max_age` seconds gets a
   * NaN sample with the reason, once (the engine shows it unknown; a pushed one is checked again at
   * each check of its connection); counted from the opening of the connection at the earliest. A
   * device that does not answer is unknown already and keeps its own reason.
   */
  const sweepMaxAge = () => {
    const tsMs = now();
    for (const entry of entries.values()) {
      // Not connected yet (or not answering): nothing has been listened for.
      if (entry.failures > 0 || !entry.session) continue;
      let changed = false;
      for (const item of entry.device.items) {
        if (item.max_age <= 0 || stale.has(item.id)) continue;
        const known = live.slotOf(item.id);
        // An item whose last check gave no value is unknown already.
        if (known !== undefined && live.heard[known] === 1 && live.ok[known] === 0) continue;
        // Counted from the last refresh, but never from before the current connection was opened.
        const refreshed = known === undefined || Number.isNaN(live.refreshed[known]!) ? 0 : live.refreshed[known]!;
        if (tsMs - Math.max(refreshed, entry.since) < item.max_age * 1000) continue;
        stale.add(item.id);
        const s = live.slotFor(item.id);
        live.ok[s] = 0;
        live.heard[s] = 1;
        live.checked[s] = Math.floor(tsMs / 1000);
        sample(item.id, Number.NaN, silentReason(entry, item));
        dirtyItems.add(item.id);
        changed = true;
      }
      if (changed) settle(entry, entry.device.id, tsMs);
    }
  };

  /**
   * The device did not answer: its state first, then every item's empty check as its outage (its
   * items wait for their next value when it is back, rather than keep the outage's reason).
   */
  const markUnknown = (entry: Entry, reason: string, tsMs: number) => {
    setDeviceState(entry.device.id, monitorState.unknown, reason);
    const t = Math.floor(tsMs / 1000);
    for (const item of entry.device.items) {
      sample(item.id, Number.NaN);
      const s = live.slotFor(item.id);
      live.ok[s] = 0;
      live.heard[s] = 0;
      live.checked[s] = t;
      dirtyItems.add(item.id);
    }
    publishSamples(tsMs, { reason });
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
      // The connection answered; values come as messages. A silent item is checked again at each
      // check of the connection (its repetitions count these); one made unknown by the outage waits
      // for its next message (or its maximum age).
      const tsMs = now();
      for (const item of entry.device.items) {
        const s = live.slotOf(item.id);
        if (stale.size > 0 && stale.has(item.id)) {
          sample(item.id, Number.NaN, silentReason(entry, item));
          if (s === undefined) continue;
          live.heard[s] = 1;
          live.checked[s] = Math.floor(tsMs / 1000);
        } else if (recovered && s !== undefined && live.heard[s] === 0) {
          live.value[s] = Number.NaN;
          dirtyItems.add(item.id);
        }
      }
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

  /** The device loops: in the collector worker when every driver can be rebuilt there and it starts. */
  const startPoller = async (): Promise<Poller> => {
    const inProcess = () =>
      createPoller({
        drivers: options.drivers,
        now,
        ...(options.maxBackoffMs !== undefined ? { maxBackoffMs: options.maxBackoffMs } : {}),
        events: {
          ...events,
          answer: (deviceId, gen, result, tsMs, pushed) => {
            const entry = current(deviceId, gen);
            if (entry) events.answer(deviceId, gen, answerOf(entry.device.items, result, pushed), tsMs, pushed);
          },
        },
      });
    const recipes = options.thread === 'main' || options.now ? null : driverRecipes(options.drivers);
    if (!recipes) return inProcess();
    try {
      const worker = await startPollerWorker(recipes, events, options.maxBackoffMs, options.log);
      inWorker = true;
      return worker;
    } catch (err) {
      options.log?.warn({ err }, 'the collector worker could not start: polling on the main thread');
      return inProcess();
    }
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

  const collector: Collector = {
    async start() {
      polling = true;
      poller = await startPoller();
      subscriptions = [
        bus.subscribe('item.state', onItemState),
        // A device or item changed through any area is re-read at once (an item change names its device).
        bus.subscribe('config.changed', ({ area, ids }) => {
          if (area !== 'devices') return;
          for (const id of ids ?? [undefined])
            void collector.reload(id).catch((err) => options.log?.warn({ err, id }, 'could not reload a device'));
        }),
      ];
      await loadAll();
      persistTimer = setInterval(() => void persist(), options.persistEveryMs ?? 5000);
      persistTimer.unref();
      sweepTimer = setInterval(sweepMaxAge, options.maxAgeSweepMs ?? 500);
      sweepTimer.unref();
      options.log?.info(
        { devices: entries.size, items: itemCount, thread: inWorker ? 'worker' : 'main' },
        'collector started',
      );
    },
    load: loadAll,
    running: () => polling,
    async stop() {
      polling = false;
      for (const unsubscribe of subscriptions) unsubscribe();
      subscriptions = [];
      if (persistTimer) clearInterval(persistTimer);
      if (sweepTimer) clearInterval(sweepTimer);
      persistTimer = sweepTimer = null;
      const stopping = poller;
      poller = null;
      await stopping?.stop();
      entries.clear();
      await persist();
    },
    async reload(deviceId) {
      const targets = deviceId === undefined ? [...entries.keys()] : [deviceId];
      for (const id of targets) {
        const entry = entries.get(id);
        if (!entry) continue;
        entries.delete(id);
        for (const item of entry.device.items) {
          if (itemIndex[item.id] !== undefined) itemCount -= 1;
          itemIndex[item.id] = undefined;
          stale.delete(item.id);
        }
        await poller?.remove(id);
      }
      // Without an id this is a full resync: devices added elsewhere (site copies) start too.
      const fresh = await loadDevices(options.db, deviceId, options.secrets);
      for (const device of fresh) {
        if (!entries.has(device.id)) install(device);
      }
      if (deviceId !== undefined && fresh.length === 0) liveDevices.delete(deviceId);
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
    liveItem: (id) => live.read(id),
    liveDevice: (id) => liveDevices.get(id),
    deviceOfItem: (id) => itemIndex[id]?.device_id,
    siteOfDevice: (id) => entries.get(id)?.device.device_group_id,
    persist,
  };
  return collector;
};
