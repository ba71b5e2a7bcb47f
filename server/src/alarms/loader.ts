import { monitorState } from '@sitewatch/contract/monitoring';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newJitterState } from './rules/jitter.ts';
import type { PeriodRange } from './rules/periods.ts';
import type { ThresholdRule } from './rules/threshold.ts';
import type { Alarm, EngineState } from './state.ts';

const clampLevel = (level: number) => Math.min(5, Math.max(1, Math.round(level) || 1));

/** What a reload re-reads: the items of these devices and these items (both empty: none), or all. */
export interface ReloadScope {
  devices: number[];
  items: number[];
}

/** Splits long id lists so no statement passes a database's parameter limit. */
const idBatch = 5_000;

/**
 * Reads the enabled items of enabled devices with what their rules need; keeps the state of items
 * already known. With a scope only the items of those devices and those items are re-read (a
 * `config.changed` names them): at 100 000 items a full read blocked the server ~0.9 s (issue 18).
 */
export const loadItems = async (db: Kysely<Database>, state: EngineState, scope?: ReloadScope) => {
  const selectItems = () =>
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
        'items.telemetry_only',
        'devices.id as device_id',
        'devices.name as device_name',
        'device_groups.id as device_group_id',
        'device_groups.name as device_group_name',
      ])
      .where('items.enable', '=', 1)
      .where('devices.enable', '=', 1);
  const readRows = async () => {
    if (!scope) return selectItems().execute();
    const out: Awaited<ReturnType<ReturnType<typeof selectItems>['execute']>> = [];
    for (const [column, ids] of [
      ['devices.id', scope.devices],
      ['items.id', scope.items],
    ] as const) {
      for (let i = 0; i < ids.length; i += idBatch)
        out.push(
          ...(await selectItems()
            .where(column, 'in', ids.slice(i, i + idBatch))
            .execute()),
        );
    }
    return out;
  };
  const [rows, periodRows, levels, roleSites, disabled] = await Promise.all([
    readRows(),
    db.selectFrom('time_periods').selectAll().execute(),
    db.selectFrom('alarm_levels').selectAll().execute(),
    db.selectFrom('role_sites').selectAll().execute(),
    db.selectFrom('alarm_disabled').selectAll().execute(),
  ]);
  state.periods.clear();
  for (const p of periodRows) {
    try {
      state.periods.set(p.id, JSON.parse(p.ranges) as PeriodRange[]);
    } catch {
      state.periods.set(p.id, []);
    }
  }
  state.levelColors.clear();
  for (const l of levels) if (!state.levelColors.has(l.level)) state.levelColors.set(l.level, l.color);
  state.siteRoles.clear();
  for (const r of roleSites) state.siteRoles.set(r.site_id, [...(state.siteRoles.get(r.site_id) ?? []), r.role_id]);
  state.disabledItems.clear();
  state.disabledDevices.clear();
  for (const d of disabled) (d.kind === 'device' ? state.disabledDevices : state.disabledItems).add(d.target_id);
  const seen = new Set<number>();
  // The items re-read now: all, or those of the scope's devices, the scope's items and the rows.
  let affected: Set<number> | null = null;
  if (!scope) for (const dev of state.devices.values()) dev.items = [];
  else {
    const scoped = new Set<number>(scope.items);
    for (const r of rows) scoped.add(r.id);
    for (const id of scope.devices) for (const it of state.devices.get(id)?.items ?? []) scoped.add(it.id);
    const touched = new Set<number>(scope.devices);
    for (const id of scoped) {
      const dev = state.items.get(id)?.device;
      if (dev) touched.add(dev.id);
    }
    for (const id of touched) {
      const dev = state.devices.get(id);
      if (dev) dev.items = dev.items.filter((it) => !scoped.has(it.id));
    }
    affected = scoped;
  }
  // Items of one template have equal rules: one object each (rules are only read), not one per
  // item (issue 18, memory per item).
  const rules = new Map<string, ThresholdRule>();
  const shareRule = (rule: ThresholdRule): ThresholdRule => {
    const key = `${rule.value_type}|${rule.threshold_min}|${rule.threshold_max}|${rule.overrun_point}|${rule.recovery_point}|${rule.status_threshold}`;
    const known = rules.get(key);
    if (known) return known;
    rules.set(key, rule);
    return rule;
  };
  for (const r of rows) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    let dev = state.devices.get(r.device_id);
    if (!dev) {
      dev = {
        id: r.device_id,
        name: r.device_name,
        device_group_id: r.device_group_id,
        device_group_name: r.device_group_name,
        comm: null,
        items: [],
      };
      state.devices.set(dev.id, dev);
    }
    dev.name = r.device_name;
    dev.device_group_id = r.device_group_id;
    dev.device_group_name = r.device_group_name;
    const level = clampLevel(r.alarm_level);
    const settings = {
      name: r.name,
      unit: r.unit,
      device: dev,
      // A telemetry-only item is judged by no threshold: a value is normal, no value unknown.
      rule: shareRule(
        r.telemetry_only === 1
          ? {
              value_type: r.value_type,
              threshold_min: null,
              threshold_max: null,
              status_threshold: '',
              overrun_point: null,
              recovery_point: null,
            }
          : {
              value_type: r.value_type,
              threshold_min: r.threshold_min,
              threshold_max: r.threshold_max,
              status_threshold: r.status_threshold,
              overrun_point: r.overrun_point,
              recovery_point: r.recovery_point,
            },
      ),
      level,
      color: r.alarm_color || state.levelColors.get(level) || '',
      repetitions: r.repetitions,
      notification_interval: r.notification_interval,
      contact_group_id: r.contact_group_id,
      check_period_id: r.check_period_id,
      alarm_period_id: r.alarm_period_id,
      notification_period_id: r.notification_period_id,
    };
    let it = state.items.get(r.id);
    if (it) Object.assign(it, settings);
    else {
      // Every field named in one literal of fixed shape: V8 keeps them in the object itself (a
      // spread of the settings put them in a side array, ~120 bytes more per item; issue 18).
      it = {
        id: r.id,
        name: settings.name,
        unit: settings.unit,
        device: settings.device,
        rule: settings.rule,
        level: settings.level,
        color: settings.color,
        repetitions: settings.repetitions,
        notification_interval: settings.notification_interval,
        contact_group_id: settings.contact_group_id,
        check_period_id: settings.check_period_id,
        alarm_period_id: settings.alarm_period_id,
        notification_period_id: settings.notification_period_id,
        raw: monitorState.notReady,
        shown: monitorState.notReady,
        rep: { confirmed: monitorState.notReady, pending: monitorState.notReady, count: 0 },
        jitter: newJitterState(),
        value: null,
        alarm: null,
        last: null,
        problemNoticed: false,
      };
      state.items.set(r.id, it);
    }
    dev.items.push(it);
  }
  for (const id of affected ?? state.items.keys()) if (!seen.has(id)) state.items.delete(id);
  for (const [id, dev] of state.devices) if (dev.items.length === 0 && !dev.comm) state.devices.delete(id);
};

/** Reads the open alarms into their items and devices (after a restart). */
export const loadOpen = async (db: Kysely<Database>, state: EngineState, nowS: number) => {
  const max = await db
    .selectFrom('alarms')
    .select((eb) => eb.fn.max('id').as('m'))
    .executeTakeFirst();
  state.lastId = Math.max(state.lastId, Number(max?.m ?? 0));
  const rows = await db.selectFrom('alarms').selectAll().where('end_time', 'is', null).execute();
  for (const r of rows) {
    const it = state.items.get(r.item_id);
    const dev = state.devices.get(r.device_id);
    const a: Alarm = {
      ...r,
      contact_group_id: it?.contact_group_id ?? 0,
      unit: it?.unit ?? '',
      next_notify_at: r.notify_count > 0 && it && it.notification_interval > 0 ? nowS + it.notification_interval : nowS,
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
    state.open.set(a.id, a);
  }
};

/** Reads which contact group escalates to which, after how many minutes. */
export const loadEscalation = async (db: Kysely<Database>, state: EngineState) => {
  const groups = await db
    .selectFrom('contact_groups')
    .select(['id', 'escalate_minutes', 'escalate_group_id'])
    .execute();
  state.escalation.clear();
  for (const g of groups) {
    if (g.escalate_minutes > 0 && g.escalate_group_id > 0)
      state.escalation.set(g.id, { minutes: g.escalate_minutes, target: g.escalate_group_id });
  }
};
