import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import { createChangedIds } from '../changed-ids.ts';
import type { Db } from '../db/kysely.ts';
import type { SecretBox } from '../secrets/index.ts';
import { SlotIndex } from '../slot-index.ts';
import { type Answer, answerOf } from './answer.ts';
import { type CollectorDevice, loadDevices } from './devices.ts';
import type { DriverRegistry, ReadResult } from './driver.ts';
import { driverRecipes } from './drivers/index.ts';
import { createItemRowWriter } from './item-rows.ts';
import { createPoller, type Poller } from './poller.ts';
import { checkReading } from './reading.ts';
import { type HostEvents, startPollerWorker } from './worker-host.ts';

export { type CollectorDevice, type CollectorItem, loadDevices } from './devices.ts';

export interface LiveItemState {
  value: number | null;
  state: number;
  last_check: number;
  info: string;
}

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
  /**
   * Each item's live state by slot (struct of arrays, as the alarm engine's alarms/items.ts): its
   * value (NaN: none yet), state, last check (s), when its value was last refreshed (ms, NaN:
   * never) and reason; an item has a slot from its first check on. One map from item id to slot
   * instead of an object, a boxed number and two map entries per item (issue 18, memory per item).
   */
  const slotOf = new SlotIndex();
  let liveValue = new Float64Array(1024);
  let liveState = new Uint8Array(1024);
  let liveChecked = new Float64Array(1024);
  let liveRefreshed = new Float64Array(1024);
  const liveInfo: string[] = [];
  /** The slot of an item, made (not ready, no value) when it has none. */
  const slotFor = (itemId: number): number => {
    let s = slotOf.get(itemId);
    if (s !== undefined) return s;
    s = slotOf.size;
    if (s === liveValue.length) {
      const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      liveValue = grow(liveValue);
      liveState = grow(liveState);
      liveChecked = grow(liveChecked);
      liveRefreshed = grow(liveRefreshed);
    }
    slotOf.set(itemId, s);
    liveValue[s] = Number.NaN;
    liveState[s] = monitorState.notReady;
    liveChecked[s] = 0;
    liveRefreshed[s] = Number.NaN;
    liveInfo[s] = '';
    return s;
  };
  /** An item's live state as the rest of the server reads it (a new object each time). */
  const liveOf = (itemId: number): LiveItemState | undefined => {
    const s = slotOf.get(itemId);
    if (s === undefined) return undefined;
    const value = liveValue[s]!;
    return {
      value: Number.isNaN(value) ? null : value,
      state: liveState[s]!,
      last_check: liveChecked[s]!,
      info: liveInfo[s]!,
    };
  };
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
      return slotOf.has(itemId);
    }
    override get(itemId: number) {
      return liveOf(itemId);
    }
  }
  const persist = createItemRowWriter(options.db, new LiveView(), dirtyItems, options.log);
  // Every check of every item is a sample: its value, or NaN when it gave none. The samples of one
  // answer (or sweep of a device) are gathered here and published as one `samples` event, before
  // the device is judged (its items' states are the engine's answer to them).
  let outIds = new Float64Array(1024);
  let outValues = new Float64Array(1024);
  let outN = 0;
  /** The ids of the batch being delivered: consumers read its arrays until publish returns. */
  let delivered: Float64Array | null = null;
  const sample = (itemId: number, value: number) => {
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
  };
  const publishSamples = (tsMs: number) => {
    if (outN === 0) return;
    const event = { ids: outIds, values: outValues, from: 0, to: outN, ts_ms: tsMs };
    outN = 0;
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
  const onItemState = ({ item_id, state }: { item_id: number; state: number }) => {
    const s = slotOf.get(item_id);
    if (s === undefined || liveState[s] === state) return;
    liveState[s] = state;
    dirtyItems.add(item_id);
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

  /** One item's check: `raw` undefined when the answer has no value for it. */
  const checkItem = (item: { id: number }, raw: number | undefined, answer: Answer, tsMs: number, pushed: boolean) => {
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
    // Live states are updated in place: this runs for every sample the collector takes.
    const s = slotFor(item.id);
    // Maximum age: a message always refreshes its items; a poll refreshes a value that changed (or
    // the first after none), so a polled value frozen past its maximum age stays unknown.
    // (`stale` is nearly always empty: its size is read before hashing the id, as twice below.)
    const frozen = !pushed && ok && stale.size > 0 && stale.has(item.id) && liveValue[s] === value;
    if (ok && !frozen) {
      if (pushed || liveValue[s] !== value || liveState[s] === monitorState.unknown || Number.isNaN(liveRefreshed[s]!))
        liveRefreshed[s] = tsMs;
      if (stale.size > 0) stale.delete(item.id);
      liveValue[s] = value;
      liveInfo[s] = '';
      // A value ends "unknown"; its state is the alarm engine's, which judges the sample and
      // answers with `item.state` before `sample` returns (a collector without one shows not ready).
      if (liveState[s] === monitorState.unknown) liveState[s] = monitorState.notReady;
      sample(item.id, value);
    } else {
      // The last good value stays for reference; the state and the reason say it is not current.
      liveState[s] = monitorState.unknown;
      if (!frozen) {
        liveInfo[s] = (answer.errors?.get(item.id) ?? why ?? 'no value').slice(0, 280);
      }
      sample(item.id, Number.NaN);
    }
    liveChecked[s] = Math.floor(tsMs / 1000);
    dirtyItems.add(item.id);
  };

  /**
   * Takes one answer of a device: a poll's covers all its items (those it does not name gave no
   * value), a message's (pushed) only the items it names; the others are left as they are.
   */
  const acceptAnswer = (entry: Entry | undefined, deviceId: number, answer: Answer, tsMs: number, pushed: boolean) => {
    const { ids, values, to } = answer;
    if (pushed) {
      for (let j = answer.from; j < to; j++) {
        const item = itemIndex[ids[j]!];
        if (item && item.device_id === deviceId) checkItem(item, values[j], answer, tsMs, true);
      }
      publishSamples(tsMs);
      if (entry) judgeDevice(entry);
      return;
    }
    const items = entry?.device.items ?? [];
    // The answered items come in the device's item order: one pass pairs them.
    let j = answer.from;
    for (const item of items) {
      let raw: number | undefined;
      if (j < to && ids[j] === item.id) raw = values[j++];
      checkItem(item, raw, answer, tsMs, false);
    }
    publishSamples(tsMs);
    // The device is down only when none of its items answered; an answer that is not a usable
    // number is the item's problem (unknown, with its reason), and the device names those items.
    if (items.length > 0 && to === answer.from) {
      setDeviceState(deviceId, monitorState.unknown, answer.errors?.values().next().value ?? 'no value');
    } else if (entry) judgeDevice(entry);
  };

  /**
   * A device's state from the live states of all its items (after a poll, a message or a maximum
   * age passing): unknown when every item has gone silent past its maximum age (its communication
   * alarm follows), abnormal naming the items that are unknown, abnormal when an item is, else
   * normal (not ready while nothing has come yet).
   */
  const judgeDevice = (entry: Entry) => {
    const { items, id } = entry.device;
    if (items.length === 0) return;
    const unreadable: string[] = [];
    let abnormal = false;
    let silent = 0;
    let waiting = 0;
    for (const item of items) {
      const s = slotOf.get(item.id);
      if (s === undefined || (liveState[s] === monitorState.notReady && Number.isNaN(liveValue[s]!))) {
        waiting += 1;
        continue;
      }
      const state = liveState[s]!;
      if (stale.has(item.id)) silent += 1;
      if (state === monitorState.unknown) unreadable.push(`${item.name || `#${item.id}`}: ${liveInfo[s]}`);
      else if (state !== monitorState.normal && state !== monitorState.notReady) abnormal = true;
    }
    if (silent > 0 && silent + waiting === items.length) {
      const first = items.find((i) => stale.has(i.id));
      setDeviceState(id, monitorState.unknown, (first && liveOf(first.id)?.info) || 'no value');
    } else if (unreadable.length > 0) {
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
   * Maximum age (docs/monitoring.md): an item with no refreshed value for `max_age` seconds becomes
   * unknown with the reason, once, with a null sample; counted from the opening of the connection
   * at the earliest. A device that does not answer is unknown already and keeps its own reason.
   */
  const sweepMaxAge = () => {
    const tsMs = now();
    for (const entry of entries.values()) {
      // Not connected yet (or not answering): nothing has been listened for.
      if (entry.failures > 0 || !entry.session) continue;
      let changed = false;
      for (const item of entry.device.items) {
        if (item.max_age <= 0 || stale.has(item.id)) continue;
        const known = slotOf.get(item.id);
        if (known !== undefined && liveState[known] === monitorState.unknown) continue;
        // Counted from the last refresh, but never from before the current connection was opened.
        const refreshed = known === undefined || Number.isNaN(liveRefreshed[known]!) ? 0 : liveRefreshed[known]!;
        if (tsMs - Math.max(refreshed, entry.since) < item.max_age * 1000) continue;
        stale.add(item.id);
        const s = slotFor(item.id);
        liveState[s] = monitorState.unknown;
        liveChecked[s] = Math.floor(tsMs / 1000);
        liveInfo[s] = entry.pushes ? `no value for ${item.max_age} s` : `value unchanged for ${item.max_age} s`;
        sample(item.id, Number.NaN);
        dirtyItems.add(item.id);
        changed = true;
      }
      publishSamples(tsMs);
      if (changed) judgeDevice(entry);
    }
  };

  const markUnknown = (entry: Entry, reason: string, tsMs: number) => {
    const t = Math.floor(tsMs / 1000);
    for (const item of entry.device.items) {
      sample(item.id, Number.NaN);
      const s = slotFor(item.id);
      liveState[s] = monitorState.unknown;
      liveChecked[s] = t;
      liveInfo[s] = reason;
      dirtyItems.add(item.id);
    }
    publishSamples(tsMs);
    setDeviceState(entry.device.id, monitorState.unknown, reason);
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
      // The connection answered; values come as messages. Items made unknown by the outage wait
      // for their next message (or their maximum age) rather than keep the outage's reason.
      if (recovered) {
        for (const item of entry.device.items) {
          const s = slotOf.get(item.id);
          if (s !== undefined && liveState[s] === monitorState.unknown && !stale.has(item.id)) {
            liveState[s] = monitorState.notReady;
            liveInfo[s] = '';
            liveValue[s] = Number.NaN;
            dirtyItems.add(item.id);
          }
        }
      }
      judgeDevice(entry);
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

  /** Re-reads devices (all without an id: a full resync) and installs them afresh. */
  const reloadNow = async (deviceId?: number) => {
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
  };
  let reloading: Promise<void> = Promise.resolve();

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
    liveItem: liveOf,
    liveDevice: (id) => liveDevices.get(id),
    deviceOfItem: (id) => itemIndex[id]?.device_id,
    siteOfDevice: (id) => entries.get(id)?.device.device_group_id,
    persist,
  };
  return collector;
};
