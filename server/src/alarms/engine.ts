import { type AlarmPushMessage, type AlarmRow, handlingState, recoveredStatus } from '@sitewatch/contract/alarms';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import type { Db } from '../db/kysely.ts';
import type { AlarmsTable } from '../db/schema-alarms.ts';
import type { Principal } from '../http/auth.ts';
import type { NoticeAction, NoticeSubject, Notifier } from '../notify/notifier.ts';
import {
  feedJitter,
  type JitterEvent,
  type JitterSettings,
  type JitterState,
  judgeJitter,
  newJitterState,
} from './rules/jitter.ts';
import { inPeriod, type PeriodRange } from './rules/periods.ts';
import { feedRepetition, type RepetitionState } from './rules/repetitions.ts';
import { isProblem, type ThresholdRule, thresholdState } from './rules/threshold.ts';
import type { AlarmSettings } from './settings.ts';

/** An alarm record as the engine holds it (the `alarms` row plus scheduling). */
export interface Alarm extends AlarmsTable {
  contact_group_id: number;
  unit: string;
  next_notify_at: number;
}

interface ItemRuntime {
  id: number;
  name: string;
  unit: string;
  device: DeviceRuntime;
  rule: ThresholdRule;
  level: number;
  color: string;
  repetitions: number;
  notification_interval: number;
  contact_group_id: number;
  check_period_id: number;
  alarm_period_id: number;
  notification_period_id: number;
  raw: number;
  /** The item's state as last published on the bus (`item.state`): the one the live views show. */
  shown: number;
  rep: RepetitionState;
  jitter: JitterState;
  value: number | null;
  alarm: Alarm | null;
  /** The last alarm of the item (for the notice after jitter stops). */
  last: Alarm | null;
  /** A problem notice went out and no recovery notice has followed yet. */
  problemNoticed: boolean;
}

interface DeviceRuntime {
  id: number;
  name: string;
  device_group_id: number;
  device_group_name: string;
  comm: Alarm | null;
  items: ItemRuntime[];
}

export interface OperationInput {
  alarm_action: 0 | 1 | 2 | 3;
  remarks: string;
  item_id: number;
  status_id: number;
}

export interface AlarmEngine {
  /** Loads items, open alarms and settings; starts the notification tick and the writer. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Whether the engine is started and its timers run (the dashboard's alarm service state). */
  running(): boolean;
  /** Re-reads item settings (thresholds, levels, periods…); `config.changed` on the bus calls it. */
  reload(): Promise<void>;
  /** One sample of one item (null: the item gave no value). Runs for every sample: incremental. */
  onSample(itemId: number, value: number | null, tsMs: number): void;
  /** A device's state changed: unknown raises its communication alarm, any other clears it. */
  onDeviceState(deviceId: number, state: number): void;
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

const stateLabel = (a: AlarmsTable): string =>
  a.end_time !== null
    ? 'recovered'
    : a.kind === 'communication'
      ? 'unknown'
      : a.status === monitorState.unknown
        ? 'unknown'
        : 'abnormal';

const clampLevel = (level: number) => Math.min(5, Math.max(1, Math.round(level) || 1));

/**
 * The alarm engine: every sample is judged against its item's rule as it arrives (threshold with
 * hysteresis, repetitions, check and alarm periods), jitter is tracked over the confirmed states,
 * raises and recoveries become alarm records with a log, browsers are told over the push channel
 * at once, and notices go to the notifier's queue (held while jittering, repeated at the item's
 * notification interval until confirmed, escalated when not confirmed in time). docs/alarms.md.
 */
export const createAlarmEngine = (options: AlarmEngineOptions): AlarmEngine => {
  const clock = options.clock ?? Date.now;
  const db = options.db.kysely;
  const items = new Map<number, ItemRuntime>();
  const devices = new Map<number, DeviceRuntime>();
  const open = new Map<number, Alarm>();
  const disabledItems = new Set<number>();
  const disabledDevices = new Set<number>();
  const periods = new Map<number, PeriodRange[]>();
  const levelColors = new Map<number, string>();
  const siteRoles = new Map<number, number[]>();
  const dirty = new Set<Alarm | AlarmsTable>();
  let logs: Omit<import('../db/schema-alarms.ts').AlarmLogsTable, 'id'>[] = [];
  let nextId = 0;
  let started: Promise<void> | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let tickTimer: NodeJS.Timeout | null = null;
  let subscriptions: Array<() => void> = [];
  let flushing: Promise<void> | null = null;
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

  const toRow = (a: AlarmsTable): AlarmRow => {
    const roles = [1, ...(siteRoles.get(a.device_group_id) ?? [])];
    return {
      status_id: a.id,
      item_id: a.item_id,
      device_id: a.device_id,
      device_group_id: a.device_group_id,
      device_group_name: a.device_group_name,
      device_name: a.device_name,
      item_name: a.item_name,
      kind: a.kind === 'communication' ? 'communication' : 'threshold',
      status: a.end_time !== null ? recoveredStatus : a.status,
      status_label: stateLabel(a),
      level: a.level,
      color: a.color,
      info: a.info,
      value: a.value,
      start_time: a.start_time,
      end_time: a.end_time,
      last_check: a.last_check,
      handling: a.handling,
      remarks: a.remarks,
      confirmed_by: a.confirmed_by,
      jitter: items.get(a.item_id)?.jitter.percent ?? 0,
      roles: JSON.stringify([...new Set(roles)]),
      users: '[]',
      videos: '[]',
    };
  };

  // ---------- records and log ----------

  const log = (a: AlarmsTable, action: string, t: number, detail = '', userName = '', result = 1) => {
    logs.push({
      time: t,
      alarm_id: a.id,
      item_id: a.item_id,
      device_group_id: a.device_group_id,
      item_name: a.item_name.slice(0, 64),
      device_name: a.device_name.slice(0, 64),
      device_group_name: a.device_group_name.slice(0, 64),
      state: a.end_time !== null ? recoveredStatus : a.status,
      action,
      result,
      detail: detail.slice(0, 2000),
      user_name: userName.slice(0, 64),
      attempts: 1,
    });
  };

  const columns = (a: AlarmsTable): AlarmsTable => ({
    id: a.id,
    item_id: a.item_id,
    device_id: a.device_id,
    device_group_id: a.device_group_id,
    item_name: a.item_name.slice(0, 64),
    device_name: a.device_name.slice(0, 64),
    device_group_name: a.device_group_name.slice(0, 64),
    kind: a.kind,
    status: a.status,
    level: a.level,
    color: a.color,
    info: a.info.slice(0, 300),
    value: a.value,
    start_time: a.start_time,
    end_time: a.end_time,
    last_check: a.last_check,
    handling: a.handling,
    remarks: a.remarks.slice(0, 500),
    confirmed_by: a.confirmed_by.slice(0, 64),
    confirmed_at: a.confirmed_at,
    notify_count: a.notify_count,
    escalated: a.escalated,
  });

  const writeNow = async () => {
    if (dirty.size === 0 && logs.length === 0) return;
    const rows = [...dirty].map(columns);
    dirty.clear();
    const entries = logs;
    logs = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 400) {
          await trx
            .insertInto('alarms')
            .values(rows.slice(i, i + 400))
            .onConflict((oc) =>
              oc.column('id').doUpdateSet((eb) => ({
                status: eb.ref('excluded.status'),
                info: eb.ref('excluded.info'),
                value: eb.ref('excluded.value'),
                end_time: eb.ref('excluded.end_time'),
                last_check: eb.ref('excluded.last_check'),
                handling: eb.ref('excluded.handling'),
                remarks: eb.ref('excluded.remarks'),
                confirmed_by: eb.ref('excluded.confirmed_by'),
                confirmed_at: eb.ref('excluded.confirmed_at'),
                notify_count: eb.ref('excluded.notify_count'),
                escalated: eb.ref('excluded.escalated'),
              })),
            )
            .execute();
        }
        for (let i = 0; i < entries.length; i += 400) {
          await trx
            .insertInto('alarm_logs')
            .values(entries.slice(i, i + 400))
            .execute();
        }
      });
    } catch (err) {
      // Kept for the next flush: an alarm is never lost to a busy database.
      for (const r of rows) dirty.add(open.get(r.id) ?? r);
      logs = [...entries, ...logs];
      options.log?.warn({ err }, 'could not write alarms');
    }
  };
  const flush = async () => {
    while (flushing) await flushing;
    flushing = writeNow().finally(() => {
      flushing = null;
    });
    await flushing;
  };

  // ---------- notices ----------

  const subjectOf = (a: Alarm): NoticeSubject => ({
    alarm_id: a.id,
    item_id: a.item_id,
    item_name: a.item_name,
    device_name: a.device_name,
    device_group_name: a.device_group_name,
    state: a.end_time !== null ? recoveredStatus : a.status,
    level: a.level,
    value: a.value,
    unit: a.unit,
    info: a.info,
    time: a.end_time ?? a.start_time,
  });

  const notify = (a: Alarm, action: NoticeAction, groupId = a.contact_group_id) => {
    if (groupId > 0) options.notifier.enqueue({ action, subject: subjectOf(a), contact_group_id: groupId });
  };

  const jittering = (a: Alarm) => items.get(a.item_id)?.jitter.jittering === true;

  /** Sends the due problem notice of an open alarm, if every rule allows it now. */
  const maybeNotify = (a: Alarm, nowS: number) => {
    if (a.end_time !== null || a.handling !== handlingState.unprocessed) return;
    if (jittering(a) || nowS < a.next_notify_at) return;
    const commons = options.settings.peek('commons');
    if (a.notify_count >= Math.max(1, commons.notify_times)) return;
    const it = items.get(a.item_id);
    if (
      it &&
      it.notification_period_id > 0 &&
      !inPeriod(periods.get(it.notification_period_id) ?? [], new Date(nowS * 1000))
    )
      return;
    notify(a, 'notice');
    if (it) it.problemNoticed = true;
    a.notify_count += 1;
    const interval = it?.notification_interval ?? 0;
    a.next_notify_at = interval > 0 ? nowS + interval : Number.POSITIVE_INFINITY;
    dirty.add(a);
  };

  // ---------- raise and recover ----------

  const raise = (
    it: ItemRuntime | null,
    dev: DeviceRuntime,
    t: number,
    kind: 'threshold' | 'communication',
    status: number,
    info: string,
  ): Alarm => {
    nextId += 1;
    const a: Alarm = {
      id: nextId,
      item_id: it?.id ?? 0,
      device_id: dev.id,
      device_group_id: dev.device_group_id,
      item_name: it?.name ?? '',
      device_name: dev.name,
      device_group_name: dev.device_group_name,
      kind,
      status,
      level: it?.level ?? Math.min(...dev.items.map((i) => i.level), 5),
      color: it?.color ?? levelColors.get(Math.min(...dev.items.map((i) => i.level), 5)) ?? '',
      info,
      value: it?.value ?? null,
      start_time: t,
      end_time: null,
      last_check: t,
      handling: handlingState.unprocessed,
      remarks: '',
      confirmed_by: '',
      confirmed_at: null,
      notify_count: 0,
      escalated: 0,
      contact_group_id: it?.contact_group_id ?? dev.items.find((i) => i.contact_group_id > 0)?.contact_group_id ?? 0,
      unit: it?.unit ?? '',
      next_notify_at: t,
    };
    open.set(a.id, a);
    dirty.add(a);
    log(a, 'raise', t, info);
    publish('raise', a);
    maybeNotify(a, t);
    return a;
  };

  const recover = (a: Alarm, t: number, it: ItemRuntime | null) => {
    a.end_time = t;
    a.last_check = t;
    if (a.handling === handlingState.unprocessed) a.handling = handlingState.processed;
    open.delete(a.id);
    dirty.add(a);
    log(a, 'recover', t);
    publish('recover', a);
    // A recovery notice follows a problem notice, unless jitter holds notices (then it comes when jitter stops).
    if (a.notify_count > 0 && !(it?.jitter.jittering ?? false)) {
      notify(a, 'recovery');
      if (it) it.problemNoticed = false;
    }
  };

  const onJitter = (it: ItemRuntime, ev: JitterEvent, t: number) => {
    if (!ev) return;
    const a = it.alarm ?? it.last;
    if (!a) return;
    log(a, ev === 'start' ? 'jitter_start' : 'jitter_stop', t, `${it.jitter.percent}%`);
    if (it.alarm) publish('jitter', it.alarm);
    if (ev === 'stop' && it.problemNoticed) {
      if (it.alarm) notify(it.alarm, 'still_abnormal');
      else if (it.last) {
        notify(it.last, 'recovery');
        it.problemNoticed = false;
      }
    }
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

  const loadItems = async () => {
    const [rows, periodRows, levels, roleSites, disabled] = await Promise.all([
      db
        .selectFrom('items')
        .innerJoin('devices', 'devices.id', 'items.device_id')
        .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id')
        .select([
          'items.id',
          'items.name',
          'items.unit',
          'items.value_type',
          'items.threshold_min',
          'items.threshold_max',
          'items.status_threshold',
          'items.overrun_point',
          'items.recovery_point',
          'items.alarm_level',
          'items.alarm_color',
          'items.repetitions',
          'items.notification_interval',
          'items.contact_group_id',
          'items.check_period_id',
          'items.alarm_period_id',
          'items.notification_period_id',
          'devices.id as device_id',
          'devices.name as device_name',
          'device_groups.id as device_group_id',
          'device_groups.name as device_group_name',
        ])
        .where('items.enable', '=', 1)
        .where('devices.enable', '=', 1)
        .execute(),
      db.selectFrom('time_periods').selectAll().execute(),
      db.selectFrom('alarm_levels').selectAll().execute(),
      db.selectFrom('role_sites').selectAll().execute(),
      db.selectFrom('alarm_disabled').selectAll().execute(),
    ]);
    periods.clear();
    for (const p of periodRows) {
      try {
        periods.set(p.id, JSON.parse(p.ranges) as PeriodRange[]);
      } catch {
        periods.set(p.id, []);
      }
    }
    levelColors.clear();
    for (const l of levels) if (!levelColors.has(l.level)) levelColors.set(l.level, l.color);
    siteRoles.clear();
    for (const r of roleSites) siteRoles.set(r.site_id, [...(siteRoles.get(r.site_id) ?? []), r.role_id]);
    disabledItems.clear();
    disabledDevices.clear();
    for (const d of disabled) (d.kind === 'device' ? disabledDevices : disabledItems).add(d.target_id);
    const seen = new Set<number>();
    for (const dev of devices.values()) dev.items = [];
    for (const r of rows) {
      seen.add(r.id);
      let dev = devices.get(r.device_id);
      if (!dev) {
        dev = {
          id: r.device_id,
          name: r.device_name,
          device_group_id: r.device_group_id,
          device_group_name: r.device_group_name,
          comm: null,
          items: [],
        };
        devices.set(dev.id, dev);
      }
      dev.name = r.device_name;
      dev.device_group_id = r.device_group_id;
      dev.device_group_name = r.device_group_name;
      const level = clampLevel(r.alarm_level);
      const settings = {
        name: r.name,
        unit: r.unit,
        device: dev,
        rule: {
          value_type: r.value_type,
          threshold_min: r.threshold_min,
          threshold_max: r.threshold_max,
          status_threshold: r.status_threshold,
          overrun_point: r.overrun_point,
          recovery_point: r.recovery_point,
        },
        level,
        color: r.alarm_color || levelColors.get(level) || '',
        repetitions: r.repetitions,
        notification_interval: r.notification_interval,
        contact_group_id: r.contact_group_id,
        check_period_id: r.check_period_id,
        alarm_period_id: r.alarm_period_id,
        notification_period_id: r.notification_period_id,
      };
      let it = items.get(r.id);
      if (it) Object.assign(it, settings);
      else {
        it = {
          id: r.id,
          ...settings,
          raw: monitorState.notReady,
          shown: monitorState.notReady,
          rep: { confirmed: monitorState.notReady, pending: monitorState.notReady, count: 0 },
          jitter: newJitterState(),
          value: null,
          alarm: null,
          last: null,
          problemNoticed: false,
        };
        items.set(r.id, it);
      }
      dev.items.push(it);
    }
    for (const id of items.keys()) if (!seen.has(id)) items.delete(id);
    for (const [id, dev] of devices) if (dev.items.length === 0 && !dev.comm) devices.delete(id);
  };

  const loadOpen = async () => {
    const max = await db
      .selectFrom('alarms')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst();
    nextId = Math.max(nextId, Number(max?.m ?? 0));
    const rows = await db.selectFrom('alarms').selectAll().where('end_time', 'is', null).execute();
    const nowS = Math.floor(clock() / 1000);
    for (const r of rows) {
      const it = items.get(r.item_id);
      const dev = devices.get(r.device_id);
      const a: Alarm = {
        ...r,
        contact_group_id: it?.contact_group_id ?? 0,
        unit: it?.unit ?? '',
        next_notify_at:
          r.notify_count > 0 && it && it.notification_interval > 0 ? nowS + it.notification_interval : nowS,
      };
      if (r.kind === 'communication') {
        if (!dev) continue;
        dev.comm = a;
      } else {
        if (!it) continue;
        it.alarm = a;
        it.raw = r.status;
        it.rep.confirmed = r.status;
        it.rep.pending = r.status;
        if (r.notify_count > 0) it.problemNoticed = true;
      }
      open.set(a.id, a);
    }
  };

  const ensureStarted = () => {
    started ??= (async () => {
      await options.settings.get('commons');
      await loadItems();
      await loadOpen();
    })();
    return started;
  };

  const tick = () => {
    const nowS = Math.floor(clock() / 1000);
    const commons = options.settings.peek('commons');
    for (const a of open.values()) {
      maybeNotify(a, nowS);
      // Escalation: an alarm not confirmed within the group's minutes goes to the further group.
      if (commons.escalation_enable && a.escalated === 0 && a.handling === handlingState.unprocessed) {
        const group = escalation.get(a.contact_group_id);
        if (group && group.minutes > 0 && nowS - a.start_time >= group.minutes * 60) {
          a.escalated = 1;
          dirty.add(a);
          log(a, 'escalate', nowS, `contact group ${group.target}`);
          notify(a, 'escalation', group.target);
        }
      }
    }
    const js = jitterSettings();
    for (const it of jitteringItems) {
      if (!it.jitter.jittering) {
        jitteringItems.delete(it);
        continue;
      }
      const ev = judgeJitter(it.jitter, nowS, js);
      if (ev) onJitter(it, ev, nowS);
    }
  };
  const escalation = new Map<number, { minutes: number; target: number }>();
  const jitteringItems = new Set<ItemRuntime>();
  const loadEscalation = async () => {
    const groups = await db
      .selectFrom('contact_groups')
      .select(['id', 'escalate_minutes', 'escalate_group_id'])
      .execute();
    escalation.clear();
    for (const g of groups) {
      if (g.escalate_minutes > 0 && g.escalate_group_id > 0)
        escalation.set(g.id, { minutes: g.escalate_minutes, target: g.escalate_group_id });
    }
  };

  const scheduleReload = () => {
    if (reloadSoon) return;
    reloadSoon = setTimeout(() => {
      reloadSoon = null;
      void engine.reload().catch((err) => options.log?.warn({ err }, 'could not reload alarm items'));
    }, options.reloadDelayMs ?? 100);
    reloadSoon.unref();
  };

  const siteAllowed = (siteIds: number[] | null, siteId: number) => siteIds === null || siteIds.includes(siteId);

  const findAlarm = async (statusId: number): Promise<Alarm | AlarmsTable | null> => {
    const live = open.get(statusId);
    if (live) return live;
    await flush();
    return (await db.selectFrom('alarms').selectAll().where('id', '=', statusId).executeTakeFirst()) ?? null;
  };

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
        bus.subscribe('sample', (e) => engine.onSample(e.item_id, e.value, e.ts_ms)),
        bus.subscribe('device.state', (e) => engine.onDeviceState(e.device_id, e.state)),
        // Any change to what the rules read takes effect within the gathering delay, not at a poll.
        bus.subscribe('config.changed', () => scheduleReload()),
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
    async reload() {
      if (!started) return;
      await started;
      await Promise.all([loadItems(), options.settings.get('commons'), loadEscalation()]);
    },
    onSample(itemId, value, tsMs) {
      const it = items.get(itemId);
      if (!it) {
        if (started) scheduleReload();
        return;
      }
      const t = Math.floor(tsMs / 1000);
      // The engine owns item state (one rule, one owner): no value is unknown, a value is judged by
      // the threshold rule with hysteresis; every change is published for the live views.
      const judged = value === null ? monitorState.unknown : thresholdState(it.rule, value, it.raw);
      if (judged !== it.shown) {
        it.shown = judged;
        options.bus.publish('item.state', { item_id: it.id, state: judged, ts_ms: tsMs });
      }
      if (value === null) return;
      if (it.check_period_id > 0 && !inPeriod(periods.get(it.check_period_id) ?? [], new Date(tsMs))) return;
      it.value = value;
      it.raw = judged;
      const prev = it.rep.confirmed;
      const changed = feedRepetition(it.rep, it.raw, it.repetitions);
      const now = it.rep.confirmed;
      const js = jitterSettings();
      if (js.enable) {
        const ev = feedJitter(it.jitter, now, t, js, changed && isProblem(prev) && !isProblem(now));
        if (it.jitter.jittering) jitteringItems.add(it);
        onJitter(it, ev, t);
      }
      if (it.alarm) {
        it.alarm.value = value;
        it.alarm.last_check = t;
      }
      if (!changed) return;
      if (isProblem(now) && !it.alarm) {
        if (disabledItems.has(it.id)) return;
        if (it.alarm_period_id > 0 && !inPeriod(periods.get(it.alarm_period_id) ?? [], new Date(tsMs))) return;
        it.alarm = raise(it, it.device, t, 'threshold', now, '');
        it.last = it.alarm;
      } else if (!isProblem(now) && it.alarm) {
        const a = it.alarm;
        it.alarm = null;
        recover(a, t, it);
      }
    },
    onDeviceState(deviceId, state) {
      const dev = devices.get(deviceId);
      if (!dev) return;
      const t = Math.floor(clock() / 1000);
      if (state === monitorState.unknown) {
        if (dev.comm || disabledDevices.has(dev.id)) return;
        dev.comm = raise(null, dev, t, 'communication', monitorState.unknown, 'no data');
      } else if (dev.comm) {
        const a = dev.comm;
        dev.comm = null;
        recover(a, t, null);
      }
    },
    async operate(principal, siteIds, input) {
      await ensureStarted();
      const a = await findAlarm(input.status_id);
      if (!a || !siteAllowed(siteIds, a.device_group_id)) return null;
      if (input.item_id !== 0 && input.item_id !== a.item_id) return null;
      const t = Math.floor(clock() / 1000);
      const who = principal.user_name;
      const live = open.get(a.id);
      const disableKind = a.kind === 'communication' ? 'device' : 'item';
      const target = a.kind === 'communication' ? a.device_id : a.item_id;
      switch (input.alarm_action) {
        case 0:
          a.handling = handlingState.confirmed;
          a.confirmed_by = who;
          a.confirmed_at = t;
          break;
        case 1:
          a.handling = a.end_time === null ? handlingState.unprocessed : handlingState.processed;
          a.confirmed_by = '';
          a.confirmed_at = null;
          if (live) live.next_notify_at = t;
          break;
        case 2:
          a.handling = handlingState.disabled;
          (disableKind === 'device' ? disabledDevices : disabledItems).add(target);
          await db
            .insertInto('alarm_disabled')
            .values({ kind: disableKind, target_id: target, user_name: who.slice(0, 64), time: t })
            .onConflict((oc) => oc.columns(['kind', 'target_id']).doNothing())
            .execute();
          break;
        case 3:
          if (a.handling === handlingState.disabled)
            a.handling = a.end_time === null ? handlingState.unprocessed : handlingState.processed;
          (disableKind === 'device' ? disabledDevices : disabledItems).delete(target);
          await db
            .deleteFrom('alarm_disabled')
            .where('kind', '=', disableKind)
            .where('target_id', '=', target)
            .execute();
          if (live) live.next_notify_at = t;
          break;
      }
      a.remarks = input.remarks;
      dirty.add(live ?? a);
      log(a, ['confirm', 'unconfirm', 'disable', 'enable'][input.alarm_action] ?? 'confirm', t, input.remarks, who);
      await flush();
      publish('operation', a);
      return toRow(a);
    },
    async confirmAll(principal, siteIds, remarks) {
      await ensureStarted();
      await flush();
      const t = Math.floor(clock() / 1000);
      const rows = await db
        .selectFrom('alarms')
        .selectAll()
        .where('end_time', 'is', null)
        .where('handling', '=', handlingState.unprocessed)
        .execute();
      let n = 0;
      for (const r of rows) {
        if (!siteAllowed(siteIds, r.device_group_id)) continue;
        const a = open.get(r.id) ?? r;
        a.handling = handlingState.confirmed;
        a.confirmed_by = principal.user_name;
        a.confirmed_at = t;
        a.remarks = remarks;
        dirty.add(a);
        log(a, 'confirm_all', t, remarks, principal.user_name);
        publish('operation', a);
        n += 1;
      }
      await flush();
      return n;
    },
    flush,
    toRow,
    jitterOf: (itemId) => items.get(itemId)?.jitter.percent ?? 0,
    isJittering: (itemId) => items.get(itemId)?.jitter.jittering === true,
  };
  return engine;
};
