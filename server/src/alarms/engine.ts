import { type AlarmKind, type AlarmPushMessage, type AlarmRow, handlingState } from '@sitewatch/contract/alarms';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import type { Db } from '../db/kysely.ts';
import type { AlarmsTable } from '../db/schema-alarms.ts';
import type { Principal } from '../http/auth.ts';
import type { Notifier } from '../notify/notifier.ts';
import { createAlarmIds } from './ids.ts';
import {
  loadEscalation as loadEscalationInto,
  loadItems as loadItemsInto,
  loadOpen,
  type ReloadScope,
} from './loader.ts';
import { createNotices } from './notices.ts';
import { createOperations } from './operations.ts';
import { feedJitter, type JitterEvent, type JitterSettings, judgeJitter } from './rules/jitter.ts';
import { inPeriod } from './rules/periods.ts';
import { feedRepetition } from './rules/repetitions.ts';
import { isProblem, thresholdState } from './rules/threshold.ts';
import type { AlarmSettings } from './settings.ts';
import { type Alarm, createEngineState, type DeviceRuntime, type OperationInput } from './state.ts';
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
  toRow(a: AlarmsTable): AlarmRow;
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
  flushEveryMs?: number;
  tickMs?: number;
  /** How long a burst of `config.changed` events is gathered into one reload (ms). */
  reloadDelayMs?: number;
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
 * held while jittering, repeated until confirmed, escalated when not confirmed in time); this file
 * judges and operates. docs/alarms.md.
 */
export const createAlarmEngine = (options: AlarmEngineOptions): AlarmEngine => {
  const clock = options.clock ?? Date.now;
  const db = options.db.kysely;
  const state = createEngineState();
  const { items, devices, open, disabledItems, disabledDevices, periods, levelColors, jitteringItems } = state;
  const store = createAlarmStore(db, options.db.dialect, state, (obj, msg) => options.log?.warn(obj, msg));
  const { toRow, log, flush } = store;
  const notices = createNotices({ state, store, notifier: options.notifier, settings: options.settings });
  const { notify, maybeNotify } = notices;
  let started: Promise<void> | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let tickTimer: NodeJS.Timeout | null = null;
  let subscriptions: Array<() => void> = [];
  let reloadSoon: NodeJS.Timeout | null = null;

  // ---------- alarm events: the push hub scopes them to the users of the alarm's site ----------

  const busEventOf = {
    raise: 'alarm.raised',
    recover: 'alarm.recovered',
    operation: 'alarm.operated',
    jitter: 'alarm.jitter',
  } as const;
  const publish = (event: AlarmPushMessage['event'], a: AlarmsTable) =>
    options.bus.publish(busEventOf[event], { alarm: toRow(a) });

  // ---------- raise and recover ----------

  /** The lowest level of a device's items (a communication alarm's level), at most 5. */
  const deviceLevel = (dev: DeviceRuntime) => {
    let level = 5;
    for (const slot of dev.items) level = Math.min(level, items.level[slot]!);
    return level;
  };

  // Alarms raised while no id was reserved (a burst beyond the block): announced as ids come.
  const waiting: Alarm[] = [];
  const alarmIds = createAlarmIds(options.db, {
    clock,
    warn: (obj, msg) => options.log?.warn(obj, msg),
    onBlock: () => {
      while (waiting.length > 0) {
        const id = alarmIds.take();
        if (id === null) return;
        const a = waiting.shift()!;
        a.id = id;
        announce(a);
        if (a.end_time !== null) close(a, a.end_time, slotOfAlarm(a));
      }
    },
  });
  const slotOfAlarm = (a: Alarm) => (a.kind === 'communication' ? null : (items.slotOf(a.item_id) ?? null));

  const announce = (a: Alarm) => {
    open.set(a.id, a);
    store.changed(a);
    log(a, 'raise', a.start_time, a.info);
    publish('raise', a);
    maybeNotify(a, a.start_time);
  };

  /** `it`: the item's slot, or null for a device's communication alarm. */
  const raise = (it: number | null, dev: DeviceRuntime, t: number, kind: AlarmKind, status: number, info: string) => {
    const fault = kind === 'point_fault';
    const level =
      it === null ? deviceLevel(dev) : fault ? options.settings.peek('commons').point_fault_level : items.level[it]!;
    const a: Alarm = {
      id: alarmIds.take() ?? 0,
      item_id: it === null ? 0 : items.id[it]!,
      device_id: dev.id,
      device_group_id: dev.device_group_id,
      item_name: it === null ? '' : items.name[it]!,
      device_name: dev.name,
      device_group_name: dev.device_group_name,
      kind,
      status,
      level,
      color: it === null || fault ? (levelColors.get(level) ?? '') : items.color[it]!,
      info,
      // A point fault has no usable value: the last one would read as current.
      value: it === null || fault ? null : items.valueOf(it),
      start_time: t,
      end_time: null,
      last_check: t,
      handling: handlingState.unprocessed,
      remarks: '',
      confirmed_by: '',
      confirmed_at: null,
      notify_count: 0,
      escalated: 0,
      contact_group_id:
        it === null
          ? (items.contactGroup[dev.items.find((slot) => items.contactGroup[slot]! > 0) ?? -1] ?? 0)
          : items.contactGroup[it]!,
      unit: it === null ? '' : items.unit[it]!,
      next_notify_at: t,
    };
    if (a.id === 0) waiting.push(a);
    else announce(a);
    return a;
  };

  const recover = (a: Alarm, t: number, it: number | null) => {
    a.end_time = t;
    a.last_check = t;
    if (a.handling === handlingState.unprocessed) a.handling = handlingState.processed;
    // Still waiting for its id: its raise and recovery are announced together when the id comes.
    if (a.id !== 0) close(a, t, it);
  };

  const close = (a: Alarm, t: number, it: number | null) => {
    open.delete(a.id);
    store.changed(a);
    log(a, 'recover', t);
    publish('recover', a);
    // A recovery notice follows a problem notice, unless jitter holds notices (then it comes when jitter stops).
    if (a.notify_count > 0 && !(it !== null && items.jitter.jittering[it] === 1)) {
      notify(a, 'recovery');
      if (it !== null) items.problemNoticed[it] = 0;
    }
  };

  const onJitter = (it: number, ev: JitterEvent, t: number) => {
    if (!ev) return;
    const current = items.fault[it] ?? items.alarm[it];
    const last = items.last[it];
    const a = current ?? last;
    if (!a) return;
    log(a, ev === 'start' ? 'jitter_start' : 'jitter_stop', t, `${items.jitter.percent[it]}%`);
    if (current) publish('jitter', current);
    if (ev === 'stop' && items.problemNoticed[it] === 1) {
      if (current) notify(current, 'still_abnormal');
      else if (last) {
        notify(last, 'recovery');
        items.problemNoticed[it] = 0;
      }
    }
  };

  // ---------- the state shown: decided here, published when it changes ----------

  /** `jitter N%` by percent: a jittering item's info, made once per percent rather than per sample. */
  const jitterTexts = new Map<number, string>();
  const jitterText = (percent: number) => {
    let text = jitterTexts.get(percent);
    if (text === undefined) {
      text = `jitter ${percent}%`;
      jitterTexts.set(percent, text);
    }
    return text;
  };
  const alarmStates = new Set<number>([monitorState.abnormal, monitorState.warning, monitorState.serious]);

  /** Shows an item's state and why; published (`item.state`) when it, its info or its alarm flag change. */
  const show = (it: number, state: number, info: string, tsMs: number) => {
    const alarm = alarmStates.has(state) || items.alarm[it] !== null || items.fault[it] !== null ? 1 : 0;
    if (state === items.shown[it] && info === items.info[it] && alarm === items.shownAlarm[it]) return;
    items.shown[it] = state;
    items.info[it] = info;
    items.shownAlarm[it] = alarm;
    options.bus.publish('item.state', { item_id: items.id[it]!, state, info, alarm: alarm === 1, ts_ms: tsMs });
  };
  /** The state a good value shows: jitter while the item flaps, else its threshold state. */
  const showValue = (it: number, judged: number, tsMs: number) => {
    if (items.jitter.jittering[it] === 1) show(it, monitorState.jitter, jitterText(items.jitter.percent[it]!), tsMs);
    else show(it, judged, '', tsMs);
  };
  /** After an alarm of the item opened or closed: its alarm flag. */
  const reshow = (it: number, tsMs: number) => show(it, items.shown[it]!, items.info[it]!, tsMs);

  // ---------- judging ----------

  /** Opens the item's point-fault alarm when its rules allow it (not while its device is down). */
  const raiseFault = (it: number, t: number, tsMs: number) => {
    const dev = items.device[it]!;
    if (items.fault[it] || items.faultAlarm[it] === 0 || dev.down || disabledItems.has(items.id[it]!)) return;
    const alarmPeriod = items.alarmPeriod[it]!;
    if (alarmPeriod > 0 && !inPeriod(periods.get(alarmPeriod) ?? [], new Date(tsMs))) return;
    const a = raise(it, dev, t, 'point_fault', monitorState.unknown, items.info[it]!);
    items.fault[it] = a;
    items.last[it] = a;
    reshow(it, tsMs);
  };

  /** A new confirmed state (after repetitions): the alarms it opens or closes. */
  const onConfirmed = (it: number, now: number, t: number, tsMs: number) => {
    const fault = items.fault[it];
    if (fault && now !== monitorState.unknown) {
      items.fault[it] = null;
      recover(fault, t, it);
      reshow(it, tsMs);
    }
    // Unknown: the point fault; a threshold alarm stays open, since its value is not known.
    if (now === monitorState.unknown) return raiseFault(it, t, tsMs);
    const alarm = items.alarm[it];
    if (isProblem(now) && !alarm) {
      if (disabledItems.has(items.id[it]!)) return;
      const alarmPeriod = items.alarmPeriod[it]!;
      if (alarmPeriod > 0 && !inPeriod(periods.get(alarmPeriod) ?? [], new Date(tsMs))) return;
      const raised = raise(it, items.device[it]!, t, 'threshold', now, '');
      items.alarm[it] = raised;
      items.last[it] = raised;
      reshow(it, tsMs);
    } else if (!isProblem(now) && alarm) {
      items.alarm[it] = null;
      recover(alarm, t, it);
      reshow(it, tsMs);
    }
  };

  /**
   * One check of one item: `value` NaN when it gave no usable value (`reason` why; `outage`: its
   * device did not answer at all). Runs for every sample: no allocation on the way of a value.
   */
  const judge = (itemId: number, value: number, tsMs: number, reason: string | undefined, outage: boolean) => {
    const it = items.slotOf(itemId);
    if (it === undefined) {
      // A sample of an item not known yet (added a moment ago): read that item alone.
      if (started) scheduleReload('items', [itemId]);
      return;
    }
    const good = !Number.isNaN(value);
    let judged: number = monitorState.unknown;
    if (!good) {
      show(it, monitorState.unknown, reason || 'no value', tsMs);
      // The device's outage, not the item's fault: its communication alarm tells it, and the item
      // waits for its next value when the device is back.
      items.outage[it] = outage ? 1 : 0;
      if (outage) return;
    } else {
      items.outage[it] = 0;
      judged = thresholdState(items.rule[it]!, value, items.raw[it]!);
    }
    const checkPeriod = items.checkPeriod[it]!;
    if (checkPeriod > 0 && !inPeriod(periods.get(checkPeriod) ?? [], new Date(tsMs))) {
      if (good) showValue(it, judged, tsMs);
      return;
    }
    const t = Math.floor(tsMs / 1000);
    if (good) {
      items.value[it] = value;
      items.hasValue[it] = 1;
      items.raw[it] = judged;
    }
    const { rep } = items;
    const prev = rep.confirmed[it]!;
    const changed = feedRepetition(rep, it, judged, items.repetitions[it]!);
    const now = rep.confirmed[it]!;
    const js = jitterSettings();
    if (js.enable) {
      const ev = feedJitter(items.jitter, it, now, t, js, changed && isProblem(prev) && !isProblem(now));
      if (items.jitter.jittering[it] === 1) jitteringItems.add(it);
      onJitter(it, ev, t);
    }
    // Shown before any alarm the sample raises (the live views hear the state first).
    if (good) showValue(it, judged, tsMs);
    const alarm = items.alarm[it];
    if (alarm && good) {
      alarm.value = value;
      alarm.last_check = t;
    }
    const fault = items.fault[it];
    if (fault && !good) fault.last_check = t;
    if (changed) onConfirmed(it, now, t, tsMs);
  };

  const jitterSettings = (): JitterSettings => {
    const c = options.settings.peek('commons');
    return {
      enable: c.jitter_enable,
      type: c.jitter_type,
      start: c.jitter_start,
      stop: c.jitter_stop,
      buffer_times: c.buffer_times,
      max_continuous_lifts: c.max_continuous_lifts,
      recovery_period: c.recovery_period,
      period: c.jitter_period,
    };
  };

  // ---------- loading ----------

  const loadItems = (scope?: ReloadScope) => loadItemsInto(db, state, scope);
  const loadEscalation = () => loadEscalationInto(db, state);

  const ensureStarted = () => {
    started ??= (async () => {
      await options.settings.get('commons');
      await loadItems();
      await loadOpen(db, state, Math.floor(clock() / 1000));
      await alarmIds.start();
    })();
    return started;
  };

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
      // The jitter mark goes with jitter; an unknown item stays unknown.
      if (items.shown[it] === monitorState.jitter) showValue(it, items.raw[it]!, nowS * 1000);
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
    reloadSoon = setTimeout(() => {
      reloadSoon = null;
      const scope = reloadScope && { devices: [...reloadScope.devices], items: [...reloadScope.items] };
      reloadScope = { devices: new Set(), items: new Set() };
      void engine.reload(scope ?? undefined).catch((err) => options.log?.warn({ err }, 'could not reload alarm items'));
    }, options.reloadDelayMs ?? 100);
    reloadSoon.unref();
  };

  const operations = createOperations({ db, state, store, clock, publish: (a) => publish('operation', a) });

  const engine: AlarmEngine = {
    async start() {
      // An operation may have loaded the engine before start: then items are re-read.
      const fresh = started === null;
      await ensureStarted();
      if (!fresh) await loadItems();
      await loadEscalation();
      flushTimer = setInterval(() => void flush(), options.flushEveryMs ?? 200);
      tickTimer = setInterval(tick, options.tickMs ?? 1000);
      for (const t of [flushTimer, tickTimer]) t.unref();
      const { bus } = options;
      subscriptions = [
        // One answer of a device at a time (a batch; NaN: no usable value), judged value by value.
        bus.subscribe('samples', ({ ids, values, from, to, ts_ms, reasons, reason, outage }) => {
          const down = outage === true;
          for (let i = from; i < to; i++) {
            const v = values[i]!;
            // The reasons are looked up only for the rare value that is not a number.
            judge(ids[i]!, v, ts_ms, Number.isNaN(v) ? (reasons?.get(ids[i]!) ?? reason) : undefined, down);
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
      for (const t of [flushTimer, tickTimer, reloadSoon]) if (t) clearInterval(t);
      flushTimer = tickTimer = reloadSoon = null;
      await flush();
    },
    running: () => tickTimer !== null,
    async reload(scope) {
      if (!started) return;
      await started;
      await Promise.all([loadItems(scope), options.settings.get('commons'), loadEscalation()]);
    },
    onSample(itemId, value, tsMs, reason) {
      judge(itemId, value ?? Number.NaN, tsMs, reason, false);
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
      if (!wasDown) return;
      // Back: an item unknown by the outage waits for its first value; one that is still
      // unreadable while its device answers is a point fault of its own.
      for (const slot of dev.items) {
        if (items.outage[slot] === 1) {
          items.outage[slot] = 0;
          show(slot, monitorState.notReady, '', tsMs);
        } else if (items.rep.confirmed[slot] === monitorState.unknown) raiseFault(slot, t, tsMs);
      }
    },
    operate: (principal, siteIds, input) => ensureStarted().then(() => operations.operate(principal, siteIds, input)),
    confirmAll: (principal, siteIds, remarks) =>
      ensureStarted().then(() => operations.confirmAll(principal, siteIds, remarks)),
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
