import {
  type DeviceOptions,
  type DriverName,
  deviceOptions,
  deviceSecretFields,
  type ItemSource,
  itemSource,
  monitorState,
  type SerialSettings,
  serialSettings,
} from '@sitewatch/contract/monitoring';
import { sql } from 'kysely';
import type { EventBus } from '../bus/bus.ts';
import type { Db } from '../db/kysely.ts';
import { mapJsonFields, type SecretBox } from '../secrets/index.ts';
import {
  type DriverDevice,
  type DriverItem,
  type DriverRegistry,
  type DriverSession,
  errorText,
  type ReadResult,
  withTimeout,
} from './driver.ts';
import { checkReading } from './reading.ts';

/** An item as the collector reads it. */
export interface CollectorItem extends DriverItem {
  device_id: number;
  /** Named in its device's state reason when it gives no usable value. */
  name?: string;
  /** Seconds a value may go unrefreshed before the item is unknown; 0: no limit. */
  max_age: number;
}

export interface CollectorDevice extends DriverDevice {
  driver: DriverName;
  /** The site the device stands in (live values go to browsers granted it). */
  device_group_id: number;
  check_interval: number;
  items: CollectorItem[];
}

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
  /** Where samples (`sample`) and device state changes (`device.state`) go; `config.changed` of devices reloads them. */
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

const parseJson = <T>(text: string, schema: { parse(v: unknown): T }, fallback: T): T => {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    return fallback;
  }
};

/** Reads every enabled device with its enabled items. */
export const loadDevices = async (db: Db, deviceId?: number, secrets?: SecretBox): Promise<CollectorDevice[]> => {
  let q = db.kysely.selectFrom('devices').selectAll().where('enable', '=', 1);
  if (deviceId !== undefined) q = q.where('id', '=', deviceId);
  const devices = await q.orderBy('id').execute();
  if (devices.length === 0) return [];
  let iq = db.kysely
    .selectFrom('items')
    .select(['id', 'device_id', 'name', 'value_type', 'source', 'max_age'])
    .where('enable', '=', 1);
  if (deviceId !== undefined) iq = iq.where('device_id', '=', deviceId);
  const items = await iq.orderBy('id').execute();
  const byDevice = new Map<number, CollectorItem[]>();
  // Items of one template carry the same source text: it is parsed once and the object shared
  // (drivers only read it), not kept once per item (issue 18, memory per item).
  const sources = new Map<string, ItemSource | null>();
  for (const it of items) {
    let source = sources.get(it.source);
    if (source === undefined) {
      source = parseJson<ItemSource | null>(it.source, itemSource, null);
      sources.set(it.source, source);
    }
    if (!source) continue;
    const list = byDevice.get(it.device_id) ?? [];
    // A literal of fixed shape keeps its fields in the object (a spread left them in a side array).
    list.push({
      id: it.id,
      device_id: it.device_id,
      name: it.name,
      value_type: it.value_type === 0 ? 0 : 1,
      source,
      max_age: it.max_age,
    });
    byDevice.set(it.device_id, list);
  }
  const defaultSerial = serialSettings.parse({});
  const defaultOptions = deviceOptions.parse({});
  return devices.map((d) => ({
    id: d.id,
    name: d.name,
    driver: d.driver as DriverName,
    ip: d.ip,
    port: d.port,
    protocol_id: d.protocol_id,
    protocol_version: d.protocol_version,
    serial: parseJson<SerialSettings>(d.serial, serialSettings, defaultSerial),
    // Secrets are stored encrypted; the drivers get them in clear.
    options: parseJson<DeviceOptions>(
      secrets ? mapJsonFields(d.options, deviceSecretFields, secrets.decrypt) : d.options,
      deviceOptions,
      defaultOptions,
    ),
    check_interval: d.check_interval,
    device_group_id: d.device_group_id,
    items: byDevice.get(d.id) ?? [],
  }));
};

interface Loop {
  device: CollectorDevice;
  session: DriverSession | null;
  timer: NodeJS.Timeout | null;
  failures: number;
  stopped: boolean;
  running: Promise<void> | null;
  /** When the device's current connection was opened (ms): maximum ages count from no earlier. */
  since: number;
}

/**
 * The collector: one independent loop per device polls it on its check interval through its
 * driver. A device that does not answer turns unknown with the reason and is retried with a
 * growing delay; a slow or dead device never delays another (each loop awaits only its own I/O).
 */
export const createCollector = (options: CollectorOptions): Collector => {
  const now = options.now ?? Date.now;
  const loops = new Map<number, Loop>();
  const itemIndex = new Map<number, CollectorItem>();
  const liveItems = new Map<number, LiveItemState>();
  const liveDevices = new Map<number, LiveDeviceState>();
  const dirtyItems = new Set<number>();
  /** When each item's value was last refreshed (ms), and the items past their maximum age. */
  const refreshedAt = new Map<number, number>();
  const stale = new Set<number>();
  let persistTimer: NodeJS.Timeout | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;
  let polling = false;
  let persisting: Promise<void> | null = null;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  /** What a retry may wait beyond one interval (issue 13: back within 2 intervals + 10 s). */
  const recoverySlackMs = 10_000;
  const { bus } = options;
  // Every check of every item is a sample: its value, or null when it gave none.
  const sample = (item_id: number, value: number | null, ts_ms: number) =>
    bus.publish('sample', { item_id, value, ts_ms });
  let subscriptions: Array<() => void> = [];
  // Item states are the alarm engine's: the live view keeps the last one it published.
  const onItemState = ({ item_id, state }: { item_id: number; state: number }) => {
    const live = liveItems.get(item_id);
    if (!live || live.state === state) return;
    live.state = state;
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

  const accept = (deviceId: number, result: ReadResult, tsMs: number, pushed = false) => {
    const loop = loops.get(deviceId);
    // A pushed answer (a message) names only the items it carries; the others are left as they are.
    const all = loop?.device.items ?? [];
    const items = pushed ? all.filter((i) => result.values.has(i.id) || result.errors.has(i.id)) : all;
    const t = Math.floor(tsMs / 1000);
    let answered = 0;
    for (const item of items) {
      // The edge: every value a driver returns is checked here once, so no NaN, Infinity or
      // non-number is ever kept, stored, judged or sent (reading.ts).
      const raw = result.values.get(item.id);
      if (raw !== undefined) answered += 1;
      const reading = raw === undefined ? null : checkReading(raw);
      // Live states are updated in place: this loop runs for every sample the collector takes.
      let live = liveItems.get(item.id);
      if (!live) {
        live = { value: null, state: monitorState.notReady, last_check: 0, info: '' };
        liveItems.set(item.id, live);
      }
      // Maximum age: a message always refreshes its items; a poll refreshes a value that changed (or
      // the first after none), so a polled value frozen past its maximum age stays unknown.
      const frozen = !pushed && reading?.ok === true && stale.has(item.id) && live.value === reading.value;
      if (reading?.ok && !frozen) {
        if (pushed || live.value !== reading.value || live.state === monitorState.unknown || !refreshedAt.has(item.id))
          refreshedAt.set(item.id, tsMs);
        stale.delete(item.id);
        live.value = reading.value;
        live.info = '';
        // A value ends "unknown"; its state is the alarm engine's, which judges the sample and
        // answers with `item.state` before `sample` returns (a collector without one shows not ready).
        if (live.state === monitorState.unknown) live.state = monitorState.notReady;
        sample(item.id, reading.value, tsMs);
      } else {
        // The last good value stays for reference; the state and the reason say it is not current.
        live.state = monitorState.unknown;
        if (!frozen) {
          const why = reading && !reading.ok ? reading.reason : undefined;
          live.info = (result.errors.get(item.id) ?? why ?? 'no value').slice(0, 280);
        }
        sample(item.id, null, tsMs);
      }
      live.last_check = t;
      dirtyItems.add(item.id);
    }
    // The device is down only when none of its items answered; an answer that is not a usable
    // number is the item's problem (unknown, with its reason), and the device names those items.
    if (!pushed && items.length > 0 && answered === 0) {
      setDeviceState(deviceId, monitorState.unknown, [...result.errors.values()][0] ?? 'no value');
    } else if (loop) judgeDevice(loop);
  };

  /**
   * A device's state from the live states of all its items (after a poll, a message or a maximum
   * age passing): unknown when every item has gone silent past its maximum age (its communication
   * alarm follows), abnormal naming the items that are unknown, abnormal when an item is, else
   * normal (not ready while nothing has come yet).
   */
  const judgeDevice = (loop: Loop) => {
    const { items, id } = loop.device;
    if (items.length === 0) return;
    const unreadable: string[] = [];
    let abnormal = false;
    let silent = 0;
    let waiting = 0;
    for (const item of items) {
      const live = liveItems.get(item.id);
      if (!live || (live.state === monitorState.notReady && live.value === null)) {
        waiting += 1;
        continue;
      }
      if (stale.has(item.id)) silent += 1;
      if (live.state === monitorState.unknown) unreadable.push(`${item.name || `#${item.id}`}: ${live.info}`);
      else if (live.state !== monitorState.normal && live.state !== monitorState.notReady) abnormal = true;
    }
    if (silent > 0 && silent + waiting === items.length) {
      const first = items.find((i) => stale.has(i.id));
      setDeviceState(id, monitorState.unknown, (first && liveItems.get(first.id)?.info) || 'no value');
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
    for (const loop of loops.values()) {
      // Not connected yet (or not answering): nothing has been listened for.
      if (loop.stopped || loop.failures > 0 || !loop.session) continue;
      let changed = false;
      for (const item of loop.device.items) {
        if (item.max_age <= 0 || stale.has(item.id)) continue;
        const live = liveItems.get(item.id);
        if (live?.state === monitorState.unknown) continue;
        // Counted from the last refresh, but never from before the current connection was opened.
        if (tsMs - Math.max(refreshedAt.get(item.id) ?? 0, loop.since) < item.max_age * 1000) continue;
        stale.add(item.id);
        const info = loop.session?.pushes ? `no value for ${item.max_age} s` : `value unchanged for ${item.max_age} s`;
        liveItems.set(item.id, {
          value: live?.value ?? null,
          state: monitorState.unknown,
          last_check: Math.floor(tsMs / 1000),
          info,
        });
        sample(item.id, null, tsMs);
        dirtyItems.add(item.id);
        changed = true;
      }
      if (changed) judgeDevice(loop);
    }
  };

  const markUnknown = (loop: Loop, reason: string) => {
    const tsMs = now();
    const t = Math.floor(tsMs / 1000);
    for (const item of loop.device.items) {
      sample(item.id, null, tsMs);
      const prev = liveItems.get(item.id);
      liveItems.set(item.id, { value: prev?.value ?? null, state: monitorState.unknown, last_check: t, info: reason });
      dirtyItems.add(item.id);
    }
    setDeviceState(loop.device.id, monitorState.unknown, reason);
  };

  const closeSession = async (loop: Loop) => {
    const s = loop.session;
    loop.session = null;
    if (s) await s.close().catch(() => undefined);
  };

  const openSession = async (loop: Loop): Promise<DriverSession> => {
    if (loop.session) return loop.session;
    const driver = options.drivers[loop.device.driver];
    if (!driver) throw new Error(`driver ${loop.device.driver} is not available`);
    const timeout = loop.device.options.timeout_ms;
    // A session that is told values (MQTT) hands each message to accept() as it comes, while this
    // loop is the device's current one.
    const connecting = driver.connect(loop.device, {
      onValues: (result, tsMs) => {
        if (!loop.stopped && loops.get(loop.device.id) === loop) accept(loop.device.id, result, tsMs, true);
      },
    });
    const session = await withTimeout(connecting, timeout, `no answer within ${timeout} ms`).catch((err) => {
      // A connection that completes after the timeout is closed rather than leaked.
      void connecting.then((s) => s.close()).catch(() => undefined);
      throw err;
    });
    if (loop.stopped) {
      await session.close().catch(() => undefined);
      throw new Error('stopped');
    }
    loop.session = session;
    loop.since = now();
    return session;
  };

  const intervalMs = (device: CollectorDevice) => Math.max(1, device.check_interval || 10) * 1000;

  const pollOnce = async (loop: Loop) => {
    const { device } = loop;
    if (device.items.length === 0) {
      setDeviceState(device.id, monitorState.notReady, '');
      return;
    }
    try {
      const session = await openSession(loop);
      const timeout = device.options.timeout_ms;
      const result = await withTimeout(session.read(device.items), timeout, `no answer within ${timeout} ms`);
      if (loop.stopped) return;
      const recovered = loop.failures > 0;
      loop.failures = 0;
      if (!session.pushes) accept(device.id, result, now());
      else {
        // The connection answered; values come as messages. Items made unknown by the outage wait
        // for their next message (or their maximum age) rather than keep the outage's reason.
        if (recovered) {
          for (const item of device.items) {
            const live = liveItems.get(item.id);
            if (live?.state === monitorState.unknown && !stale.has(item.id)) {
              live.state = monitorState.notReady;
              live.info = '';
              live.value = null;
              dirtyItems.add(item.id);
            }
          }
        }
        judgeDevice(loop);
      }
    } catch (err) {
      if (loop.stopped) return;
      loop.failures += 1;
      await closeSession(loop);
      markUnknown(loop, errorText(err));
      if (loop.failures === 1) options.log?.warn({ device: device.id, err: errorText(err) }, 'device does not answer');
    }
  };

  const schedule = (loop: Loop, delayMs: number) => {
    if (loop.stopped) return;
    loop.timer = setTimeout(() => {
      loop.timer = null;
      const started = now();
      loop.running = pollOnce(loop).finally(() => {
        loop.running = null;
        const base = intervalMs(loop.device);
        // Retries of a dead device back off: 1, 2, 4 … intervals, but never more than one interval
        // + 10 s (nor maxBackoffMs), whatever the outage length: a device whose peer returns is
        // polled again within that and seen within 2 intervals + 10 s (docs/monitoring.md).
        const factor = loop.failures > 1 ? 2 ** Math.min(loop.failures - 1, 6) : 1;
        const cap = Math.min(maxBackoffMs, base + recoverySlackMs);
        const wait = Math.max(base, Math.min(base * factor, cap));
        schedule(loop, Math.max(0, wait - (now() - started)));
      });
    }, delayMs);
    loop.timer.unref?.();
  };

  const stopLoop = async (loop: Loop) => {
    loop.stopped = true;
    if (loop.timer) clearTimeout(loop.timer);
    await loop.running?.catch(() => undefined);
    await closeSession(loop);
  };

  const install = (device: CollectorDevice, poll: boolean) => {
    const loop: Loop = { device, session: null, timer: null, failures: 0, stopped: false, running: null, since: now() };
    loops.set(device.id, loop);
    // The device's own item objects (they carry device_id): one copy per item, not two.
    for (const item of device.items) itemIndex.set(item.id, item);
    if (!liveDevices.has(device.id)) liveDevices.set(device.id, { state: monitorState.notReady, reason: '', time: 0 });
    // First polls are spread over one interval so that a restart does not burst.
    if (poll) schedule(loop, Math.floor(Math.random() * Math.min(intervalMs(device), 5000)));
  };

  /** Item rows written per statement (500 × 5 parameters): each statement holds the thread ~10–20 ms. */
  const persistBatch = 500;
  const pg = options.db.dialect === 'postgres';
  const writeRows = async (ids: number[]) => {
    const rows = [];
    for (const id of ids) {
      const s = liveItems.get(id);
      if (!s) continue;
      // PostgreSQL types a VALUES list from its parameters: each is cast to its column's type.
      rows.push(
        pg
          ? sql`(cast(${id} as integer), cast(${s.value} as double precision), cast(${s.state} as integer), cast(${s.last_check} as bigint), cast(${s.info} as varchar))`
          : sql`(${id}, ${s.value}, ${s.state}, ${s.last_check}, ${s.info})`,
      );
    }
    if (rows.length === 0) return;
    await sql`update items set value = v.column2, state = v.column3, last_check = v.column4, info = v.column5 from (values ${sql.join(rows)}) as v where items.id = v.column1`.execute(
      options.db.kysely,
    );
  };
  /**
   * Writes the changed items' values and states: one statement per 500 rows, each its own
   * transaction, yielding to the event loop between them, so 100 000 items never hold the server
   * (a row-by-row transaction stalled /readyz 1.7 s every 5 s, issue 18).
   */
  const persist = async () => {
    while (persisting) await persisting;
    if (dirtyItems.size === 0) return;
    const ids = [...dirtyItems].filter((id) => liveItems.has(id));
    dirtyItems.clear();
    persisting = (async () => {
      for (let i = 0; i < ids.length; i += persistBatch) {
        const part = ids.slice(i, i + persistBatch);
        try {
          await writeRows(part);
        } catch (err) {
          for (const id of part) dirtyItems.add(id);
          options.log?.warn({ err }, 'could not save item values');
        }
        if (i + persistBatch < ids.length) await new Promise((resolve) => setImmediate(resolve));
      }
    })().finally(() => {
      persisting = null;
    });
    await persisting;
  };

  const loadAll = async (poll: boolean) => {
    for (const device of await loadDevices(options.db, undefined, options.secrets)) install(device, poll);
  };

  const collector: Collector = {
    async start() {
      polling = true;
      subscriptions = [
        bus.subscribe('item.state', onItemState),
        // A device or item changed through any area is re-read at once (an item change names its device).
        bus.subscribe('config.changed', ({ area, ids }) => {
          if (area !== 'devices') return;
          for (const id of ids ?? [undefined])
            void collector.reload(id).catch((err) => options.log?.warn({ err, id }, 'could not reload a device'));
        }),
      ];
      await loadAll(true);
      persistTimer = setInterval(() => void persist(), options.persistEveryMs ?? 5000);
      persistTimer.unref();
      sweepTimer = setInterval(sweepMaxAge, options.maxAgeSweepMs ?? 500);
      sweepTimer.unref();
      options.log?.info({ devices: loops.size, items: itemIndex.size }, 'collector started');
    },
    load: () => loadAll(false),
    running: () => polling,
    async stop() {
      polling = false;
      for (const unsubscribe of subscriptions) unsubscribe();
      subscriptions = [];
      if (persistTimer) clearInterval(persistTimer);
      if (sweepTimer) clearInterval(sweepTimer);
      persistTimer = sweepTimer = null;
      await Promise.all([...loops.values()].map(stopLoop));
      loops.clear();
      await persist();
    },
    async reload(deviceId) {
      const targets = deviceId === undefined ? [...loops.keys()] : [deviceId];
      for (const id of targets) {
        const loop = loops.get(id);
        if (!loop) continue;
        loops.delete(id);
        for (const item of loop.device.items) {
          itemIndex.delete(item.id);
          stale.delete(item.id);
        }
        await stopLoop(loop);
      }
      // Without an id this is a full resync: devices added elsewhere (site copies) start too.
      const fresh = await loadDevices(options.db, deviceId, options.secrets);
      for (const device of fresh) {
        if (!loops.has(device.id)) install(device, polling);
      }
      if (deviceId !== undefined && fresh.length === 0) liveDevices.delete(deviceId);
    },
    accept,
    async write(itemId, value) {
      const item = itemIndex.get(itemId);
      const loop = item ? loops.get(item.device_id) : undefined;
      if (!item || !loop) throw new Error('item is not being collected');
      const session = await openSession(loop);
      const timeout = loop.device.options.timeout_ms;
      await withTimeout(session.write(item, value), timeout, `no answer within ${timeout} ms`);
    },
    liveItem: (id) => liveItems.get(id),
    liveDevice: (id) => liveDevices.get(id),
    deviceOfItem: (id) => itemIndex.get(id)?.device_id,
    siteOfDevice: (id) => loops.get(id)?.device.device_group_id,
    persist,
  };
  return collector;
};
