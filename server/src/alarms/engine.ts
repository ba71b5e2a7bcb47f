import type { AlarmRow } from '@sitewatch/contract/alarms';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import { createPending, realTimers, type Timer, type Timers } from '../clock/timers.ts';
import type { Db } from '../db/kysely.ts';
import type { AlarmsTable } from '../db/schema-alarms.ts';
import type { Principal } from '../http/auth.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { SqlWriter } from '../series/writer.ts';
import { createJudge } from './judge.ts';
import { createAlarmLifecycle } from './lifecycle.ts';
import {
  loadEscalation as loadEscalationInto,
  loadItems as loadItemsInto,
  loadOpen,
  type ReloadScope,
} from './loader.ts';
import { createNotices } from './notices.ts';
import { createAlarmOperations } from './operations.ts';
import { judgeJitter } from './rules/jitter.ts';
import type { AlarmSettings } from './settings.ts';
import { createSourceAlarms, type SourceAlarm } from './sources.ts';
import { createEngineState, type OperationInput } from './state.ts';
import { createAlarmStore } from './store.ts';

export interface AlarmEngine {
  /** Loads items, open alarms and settings; starts the notification tick and the writer. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Whether the engine is started and its timers run (the dashboard's alarm service state). */
  running(): boolean;
  /**
   * Re-reads item settings (thresholds, levels, periods…): all items, or only those of the scope's
   * devices and items; `config.changed` on the bus calls it with what the event names.
   */
  reload(scope?: ReloadScope): Promise<void>;
  /**
   * After a restore replaced the database's rows: forgets every item, device and open alarm held
   * and reads them again (alarm changes not yet written belonged to the replaced state: dropped);
   * the ids start again past the restored alarms.
   */
  restored(): Promise<void>;
  /**
   * One sample of one item (null: the item gave no value, `reason` why). Runs for every sample:
   * incremental. The `samples` events of the bus come here value by value.
   */
  onSample(itemId: number, value: number | null, tsMs: number, reason?: string): void;
  /**
   * A device's state changed: unknown raises its communication alarm (with the collector's reason),
   * any other clears it; its items' point faults wait while it is unknown.
   */
  onDeviceState(deviceId: number, state: number, reason?: string): void;
  /** An alarm operation (000 §4.7); null when the alarm does not exist or is not the caller's. */
  operate(principal: Principal, siteIds: number[] | null, input: OperationInput): Promise<AlarmRow | null>;
  /** Confirms every open alarm of the caller's sites. */
  confirmAll(principal: Principal, siteIds: number[] | null, remarks: string): Promise<number>;
  /** Writes pending alarm rows and log entries now. */
  flush(): Promise<void>;
  /**
   * Runs a gathered reload at once, waits for reloads in flight and writes what is queued: resolves
   * when nothing is left but timers; true when there was anything (`Sitewatch.settled()`).
   */
  settled(): Promise<boolean>;
  toRow(a: AlarmsTable): AlarmRow;
  /**
   * An area's own alarm (a camera or a door controller that stopped answering, a door forced open;
   * docs/alarms.md "Alarms of other areas"): one open alarm for each `source`, raising it again while
   * it is open changes nothing. Told in order, written after the open alarms are loaded.
   */
  raiseSource(input: SourceAlarm): void;
  /** Recovers the open alarm of `source`, if there is one. */
  recoverSource(source: string): void;
  /** The sources of the open area alarms that start with `prefix`: an area reconciles them at start. */
  openSources(prefix: string): Promise<string[]>;
  /** Jitter percent of an item (0 when not tracked). */
  jitterOf(itemId: number): number;
  /** Whether an item is jittering now (its notices are held). */
  isJittering(itemId: number): boolean;
}

export interface AlarmEngineOptions {
  db: Db;
  /** Samples and device states come from it; raised, recovered, operated and jittering alarms go to it. */
  bus: EventBus;
  notifier: Notifier;
  settings: AlarmSettings;
  clock?: () => number;
  timers?: Timers;
  flushEveryMs?: number;
  tickMs?: number;
  /** How long a burst of `config.changed` events is gathered into one reload (ms). */
  reloadDelayMs?: number;
  /** Where alarm ids are reserved: the series store's writer while it runs (its SQLite thread). */
  writer?: (() => SqlWriter) | undefined;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * The alarm engine, the one owner of item state: every sample is judged against its item's rule as
 * it arrives (no value: unknown with its reason; a value: threshold with hysteresis; then
 * repetitions, check and alarm periods), jitter is tracked over the confirmed states, the state
 * shown is decided here (unknown wins over jitter, jitter over the threshold state) and published
 * as `item.state`, and raises and recoveries (threshold, point fault, communication) become alarm
 * events on the bus (the push side tells browsers). Its parts: the state it holds (state.ts), the
 * loader (loader.ts), the records and log (store.ts), the ids (ids.ts), the notices (notices.ts:
 * held while jittering, repeated until confirmed, escalated when not confirmed in time), an alarm's
 * raise, recovery and jitter marks (lifecycle.ts), the judging of each sample and the state shown
 * (judge.ts) and the operations people do (operations.ts). docs/alarms.md.
 */
export const createAlarmEngine = (options: AlarmEngineOptions): AlarmEngine => {
  const clock = options.clock ?? Date.now;
  const timers = options.timers ?? realTimers;
  const db = options.db.kysely;
  const state = createEngineState();
  const { items, devices, open, disabledDevices, jitteringItems } = state;
  const store = createAlarmStore(db, options.db.dialect, state, (obj, msg) => options.log?.warn(obj, msg));
  const { toRow, flush } = store;
  const notices = createNotices({ state, store, notifier: options.notifier, settings: options.settings });
  const { maybeNotify } = notices;
  const warn = (obj: object, msg: string) => options.log?.warn(obj, msg);
  const lifecycle = createAlarmLifecycle({
    state,
    store,
    notices,
    bus: options.bus,
    settings: options.settings,
    db: options.db,
    clock,
    writer: options.writer,
    warn,
  });
  const { publish, raise, recover, onJitter, jitterSettings, ids: alarmIds } = lifecycle;
  let started: Promise<void> | null = null;
  let flushTimer: Timer | null = null;
  let tickTimer: Timer | null = null;
  let subscriptions: Array<() => void> = [];
  let reloadSoon: Timer | null = null;
  const reloads = createPending();
  const judge = createJudge({
    state,
    lifecycle,
    bus: options.bus,
    // A sample of an item not known yet (added a moment ago): read that item alone.
    onUnknownItem: (itemId) => {
      if (started) scheduleReload('items', [itemId]);
    },
  });

  // ---------- loading ----------

  const loadItems = (scope?: ReloadScope) => loadItemsInto(db, state, scope);
  const loadEscalation = () => loadEscalationInto(db, state);

  const ensureStarted = () => {
    started ??= (async () => {
      await options.settings.get('commons');
      await loadItems();
      await loadOpen(db, state, Math.floor(clock() / 1000));
    })();
    return started;
  };

  const sourceAlarms = createSourceAlarms({
    state,
    lifecycle,
    clock,
    db,
    defaultLevel: () => options.settings.peek('commons').point_fault_level,
    loaded: ensureStarted,
    pending: reloads,
    timers,
    warn,
  });

  const tick = () => {
    const nowS = Math.floor(clock() / 1000);
    const commons = options.settings.peek('commons');
    for (const a of open.values()) {
      maybeNotify(a, nowS);
      // Escalation: an alarm not confirmed within the group's minutes goes to the further group.
      if (commons.escalation_enable) notices.escalateIfDue(a, nowS);
    }
    const js = jitterSettings();
    for (const it of jitteringItems) {
      if (items.jitter.jittering[it] === 0) {
        jitteringItems.delete(it);
        continue;
      }
      const ev = judgeJitter(items.jitter, it, nowS, js);
      if (!ev) continue;
      onJitter(it, ev, nowS);
      judge.jitterJudged(it, nowS * 1000);
    }
  };
  // What the gathered burst names: null is everything (an event without ids, or another area).
  let reloadScope: { devices: Set<number>; items: Set<number> } | null = { devices: new Set(), items: new Set() };
  const scheduleReload = (area: 'devices' | 'items' | null, ids: number[] | null) => {
    if (reloadScope) {
      if (area === null || ids === null) reloadScope = null;
      else for (const id of ids) reloadScope[area].add(id);
    }
    if (reloadSoon) return;
    reloadSoon = timers.setTimeout(reloadGathered, options.reloadDelayMs ?? 100);
    reloadSoon.unref();
  };
  const reloadGathered = () => {
    timers.clearTimeout(reloadSoon);
    reloadSoon = null;
    const scope = reloadScope && { devices: [...reloadScope.devices], items: [...reloadScope.items] };
    reloadScope = { devices: new Set(), items: new Set() };
    return reloads.track(
      engine.reload(scope ?? undefined).catch((err) => options.log?.warn({ err }, 'could not reload alarm items')),
    );
  };

  const engine: AlarmEngine = {
    async start() {
      // An operation may have loaded the engine before start: then items are re-read.
      const fresh = started === null;
      await ensureStarted();
      if (!fresh) await loadItems();
      await loadEscalation();
      // Ids are reserved when the engine starts judging, not when an operation loaded it early: an
      // operation raises nothing, and one that is refused changes no row.
      await alarmIds.start();
      flushTimer = timers.setInterval(flush, options.flushEveryMs ?? 200);
      tickTimer = timers.setInterval(tick, options.tickMs ?? 1000);
      for (const t of [flushTimer, tickTimer]) t.unref();
      const { bus } = options;
      subscriptions = [
        // One answer of a device at a time (a batch; NaN: no usable value), judged value by value.
        bus.subscribe('samples', ({ ids, values, from, to, ts_ms, reasons, reason, outage }) => {
          const down = outage === true;
          for (let i = from; i < to; i++) {
            const v = values[i]!;
            // The reasons are looked up only for the rare value that is not a number.
            judge.judge(ids[i]!, v, ts_ms, Number.isNaN(v) ? (reasons?.get(ids[i]!) ?? reason) : undefined, down);
          }
        }),
        bus.subscribe('device.state', (e) => engine.onDeviceState(e.device_id, e.state, e.reason)),
        // Any change to what the rules read takes effect within the gathering delay, not at a poll;
        // devices or items named by id are re-read alone, anything else re-reads all items.
        bus.subscribe('config.changed', ({ area, ids }) =>
          scheduleReload(area === 'devices' || area === 'items' ? area : null, ids),
        ),
      ];
    },
    async stop() {
      for (const unsubscribe of subscriptions) unsubscribe();
      subscriptions = [];
      for (const t of [flushTimer, tickTimer, reloadSoon]) timers.clearInterval(t);
      flushTimer = tickTimer = reloadSoon = null;
      sourceAlarms.dropHeld();
      await reloads.settled();
      // Alarms raised while their ids were on the way are written with the rest.
      await alarmIds.settled();
      await flush();
    },
    async settled() {
      let busy = false;
      if (reloadSoon) {
        busy = true;
        await reloadGathered();
      }
      busy = (await reloads.settled()) || busy;
      busy = (await alarmIds.settled()) || busy;
      if (!store.busy()) return busy;
      await flush();
      return true;
    },
    running: () => tickTimer !== null,
    async reload(scope) {
      if (!started) return;
      await started;
      await Promise.all([loadItems(scope), options.settings.get('commons'), loadEscalation()]);
    },
    async restored() {
      if (!started) return;
      await started;
      await reloads.settled();
      store.discard();
      for (const id of [...items.slots.keys()]) items.remove(id);
      devices.clear();
      open.clear();
      state.sources.clear();
      jitteringItems.clear();
      await loadItems();
      await loadOpen(db, state, Math.floor(clock() / 1000));
      await loadEscalation();
      if (tickTimer) await alarmIds.restart();
    },
    onSample(itemId, value, tsMs, reason) {
      judge.judge(itemId, value ?? Number.NaN, tsMs, reason, false);
    },
    onDeviceState(deviceId, state, reason) {
      const dev = devices.get(deviceId);
      if (!dev) return;
      const tsMs = clock();
      const t = Math.floor(tsMs / 1000);
      if (state === monitorState.unknown) {
        dev.down = true;
        if (dev.comm || disabledDevices.has(dev.id)) return;
        dev.comm = raise(null, dev, t, 'communication', monitorState.unknown, reason || 'no data');
        return;
      }
      const wasDown = dev.down;
      dev.down = false;
      if (dev.comm) {
        const a = dev.comm;
        dev.comm = null;
        recover(a, t, null);
      }
      if (wasDown) judge.deviceBack(dev, tsMs);
    },
    raiseSource: sourceAlarms.raiseSource,
    recoverSource: sourceAlarms.recoverSource,
    openSources: sourceAlarms.openSources,
    ...createAlarmOperations({ db, state, store, publish, clock, ensureStarted }),
    flush,
    toRow,
    jitterOf: (itemId) => {
      const slot = items.slotOf(itemId);
      return slot === undefined ? 0 : items.jitter.percent[slot]!;
    },
    isJittering: (itemId) => {
      const slot = items.slotOf(itemId);
      return slot !== undefined && items.jitter.jittering[slot] === 1;
    },
  };
  return engine;
};
