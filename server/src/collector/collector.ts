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
  /** Longest wait between retries of a device that does not answer (ms). */
  maxBackoffMs?: number;
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
  /** Takes the answer of one read of a device: live values, states and samples. */
  accept(deviceId: number, result: ReadResult, tsMs: number): void;
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
    .select(['id', 'device_id', 'name', 'value_type', 'source'])
    .where('enable', '=', 1);
  if (deviceId !== undefined) iq = iq.where('device_id', '=', deviceId);
  const items = await iq.orderBy('id').execute();
  const byDevice = new Map<number, CollectorItem[]>();
  for (const it of items) {
    const source = parseJson<ItemSource | null>(it.source, itemSource, null);
    if (!source) continue;
    const list = byDevice.get(it.device_id) ?? [];
    list.push({ ...it, value_type: it.value_type === 0 ? 0 : 1, source });
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
  let persistTimer: NodeJS.Timeout | null = null;
  let polling = false;
  let persisting: Promise<void> | null = null;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
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

  const accept = (deviceId: number, result: ReadResult, tsMs: number) => {
    const loop = loops.get(deviceId);
    const items = loop?.device.items ?? [];
    const t = Math.floor(tsMs / 1000);
    let abnormal = false;
    let answered = 0;
    const unreadable: string[] = [];
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
      if (reading?.ok) {
        live.value = reading.value;
        live.info = '';
        // A value ends "unknown"; its state is the alarm engine's, which judges the sample and
        // answers with `item.state` before `sample` returns (a collector without one shows not ready).
        if (live.state === monitorState.unknown) live.state = monitorState.notReady;
        sample(item.id, reading.value, tsMs);
        if (live.state !== monitorState.normal && live.state !== monitorState.notReady) abnormal = true;
      } else {
        // The last good value stays for reference; the state and the reason say it is not current.
        live.state = monitorState.unknown;
        live.info = (result.errors.get(item.id) ?? reading?.reason ?? 'no value').slice(0, 280);
        unreadable.push(`${item.name || `#${item.id}`}: ${live.info}`);
        sample(item.id, null, tsMs);
      }
      live.last_check = t;
      dirtyItems.add(item.id);
    }
    // The device is down only when none of its items answered; an answer that is not a usable
    // number is the item's problem (unknown, with its reason), and the device names those items.
    if (items.length > 0 && answered === 0) {
      setDeviceState(deviceId, monitorState.unknown, [...result.errors.values()][0] ?? 'no value');
    } else if (unreadable.length > 0) {
      const named = unreadable.slice(0, 3).join('; ');
      setDeviceState(
        deviceId,
        monitorState.abnormal,
        unreadable.length > 3 ? `${named}; +${unreadable.length - 3} more` : named,
      );
    } else setDeviceState(deviceId, abnormal ? monitorState.abnormal : monitorState.normal, '');
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
    const connecting = driver.connect(loop.device);
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
      loop.failures = 0;
      accept(device.id, result, now());
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
        // Retries of a dead device back off: 1, 2, 4 … intervals, at most maxBackoffMs, and never
        // less than one interval, so a device that comes back is seen within a few intervals.
        const factor = loop.failures > 1 ? 2 ** Math.min(loop.failures - 1, 6) : 1;
        const wait = Math.max(base, Math.min(base * factor, maxBackoffMs));
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
    const loop: Loop = { device, session: null, timer: null, failures: 0, stopped: false, running: null };
    loops.set(device.id, loop);
    for (const item of device.items) itemIndex.set(item.id, { ...item, device_id: device.id });
    if (!liveDevices.has(device.id)) liveDevices.set(device.id, { state: monitorState.notReady, reason: '', time: 0 });
    // First polls are spread over one interval so that a restart does not burst.
    if (poll) schedule(loop, Math.floor(Math.random() * Math.min(intervalMs(device), 5000)));
  };

  const persist = async () => {
    while (persisting) await persisting;
    if (dirtyItems.size === 0) return;
    const ids = [...dirtyItems];
    dirtyItems.clear();
    persisting = options.db.kysely
      .transaction()
      .execute(async (trx) => {
        for (const id of ids) {
          const s = liveItems.get(id);
          if (!s) continue;
          await trx
            .updateTable('items')
            .set({ value: s.value, state: s.state, last_check: s.last_check, info: s.info })
            .where('id', '=', id)
            .execute();
        }
      })
      .catch((err) => {
        for (const id of ids) dirtyItems.add(id);
        options.log?.warn({ err }, 'could not save item values');
      })
      .finally(() => {
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
      options.log?.info({ devices: loops.size, items: itemIndex.size }, 'collector started');
    },
    load: () => loadAll(false),
    running: () => polling,
    async stop() {
      polling = false;
      for (const unsubscribe of subscriptions) unsubscribe();
      subscriptions = [];
      if (persistTimer) clearInterval(persistTimer);
      persistTimer = null;
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
        for (const item of loop.device.items) itemIndex.delete(item.id);
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
