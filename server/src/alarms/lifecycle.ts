import { type AlarmKind, type AlarmPushMessage, handlingState } from '@sitewatch/contract/alarms';
import type { EventBus } from '../bus/bus.ts';
import type { Db } from '../db/kysely.ts';
import type { AlarmsTable } from '../db/schema-alarms.ts';
import type { SqlWriter } from '../series/writer.ts';
import { createAlarmIds } from './ids.ts';
import type { Notices } from './notices.ts';
import type { JitterEvent, JitterSettings } from './rules/jitter.ts';
import type { AlarmSettings } from './settings.ts';
import type { Alarm, DeviceRuntime, EngineState } from './state.ts';
import type { AlarmStore } from './store.ts';

/**
 * An alarm's life as the engine judges it: raised (an item's threshold or point-fault alarm, or a
 * device's communication alarm) with an id reserved from the database (ids.ts), recovered, and the
 * jitter marks in between; each is logged, published on the bus (the push hub scopes it to the
 * users of the alarm's site) and noticed.
 */
/** What every new alarm starts with, filled by `raiseNew`. */
type NewAlarmFields =
  | 'id'
  | 'start_time'
  | 'end_time'
  | 'last_check'
  | 'handling'
  | 'remarks'
  | 'confirmed_by'
  | 'confirmed_at'
  | 'notify_count'
  | 'escalated'
  | 'next_notify_at';

export const createAlarmLifecycle = (deps: {
  state: EngineState;
  store: AlarmStore;
  notices: Notices;
  bus: Pick<EventBus, 'publish'>;
  settings: AlarmSettings;
  db: Db;
  clock: () => number;
  /** Where alarm ids are reserved: the series store's writer while it runs. */
  writer?: (() => SqlWriter) | undefined;
  warn: (obj: object, msg: string) => void;
}) => {
  const { state, store } = deps;
  const { items, open, levelColors } = state;
  const { toRow, log } = store;
  const { notify, maybeNotify } = deps.notices;

  const busEventOf = {
    raise: 'alarm.raised',
    recover: 'alarm.recovered',
    operation: 'alarm.operated',
    jitter: 'alarm.jitter',
    // Beside its `operation`: a confirmation by a person (items' confirm actions).
    confirm: 'alarm.confirmed',
  } as const;
  const publish = (event: keyof typeof busEventOf, a: AlarmsTable) =>
    deps.bus.publish(busEventOf[event], { alarm: toRow(a) });

  /** The lowest level of a device's items (a communication alarm's level), at most 5. */
  const deviceLevel = (dev: DeviceRuntime) => {
    let level = 5;
    for (const slot of dev.items) level = Math.min(level, items.level[slot]!);
    return level;
  };

  // Alarms raised while no id was reserved (a burst beyond the block): announced as ids come.
  const waiting: Alarm[] = [];
  const ids = createAlarmIds(deps.db, {
    clock: deps.clock,
    warn: deps.warn,
    writer: deps.writer,
    onBlock: () => {
      while (waiting.length > 0) {
        const id = ids.take();
        if (id === null) return;
        const a = waiting.shift()!;
        a.id = id;
        announce(a);
        if (a.end_time !== null) close(a, a.end_time, slotOfAlarm(a));
      }
    },
  });
  const slotOfAlarm = (a: Alarm) =>
    a.kind === 'communication' || a.source !== '' ? null : (items.slotOf(a.item_id) ?? null);

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
      it === null ? deviceLevel(dev) : fault ? deps.settings.peek('commons').point_fault_level : items.level[it]!;
    return raiseNew(
      {
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
        contact_group_id:
          it === null
            ? (items.contactGroup[dev.items.find((slot) => items.contactGroup[slot]! > 0) ?? -1] ?? 0)
            : items.contactGroup[it]!,
        unit: it === null ? '' : items.unit[it]!,
        source: '',
      },
      t,
    );
  };

  /**
   * A new alarm raised at `t` from what it is about (the engine's own or an area's, sources.ts):
   * unhandled, not noticed yet; announced once its id is reserved (at once when one is).
   */
  const raiseNew = (what: Omit<Alarm, NewAlarmFields>, t: number) => {
    const a: Alarm = {
      ...what,
      id: ids.take() ?? 0,
      start_time: t,
      end_time: null,
      last_check: t,
      handling: handlingState.unprocessed,
      remarks: '',
      confirmed_by: '',
      confirmed_at: null,
      notify_count: 0,
      escalated: 0,
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

  const jitterSettings = (): JitterSettings => {
    const c = deps.settings.peek('commons');
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

  return { publish, raise, raiseNew, recover, onJitter, jitterSettings, ids };
};

export type AlarmLifecycle = ReturnType<typeof createAlarmLifecycle>;
