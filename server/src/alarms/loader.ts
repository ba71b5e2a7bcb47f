import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { stringSharer } from '../share-strings.ts';
import type { PeriodRange } from './rules/periods.ts';
import type { Alarm, DeviceRuntime, EngineState } from './state.ts';

const clampLevel = (level: number) => Math.min(5, Math.max(1, Math.round(level) || 1));

/** What a reload re-reads: the items of these devices and these items (both empty: none), or all. */
export interface ReloadScope {
  devices: number[];
  items: number[];
}

/** Splits long id lists so no statement passes a database's parameter limit. */
const idBatch = 5_000;
/** Rows per page of a full read. */
const pageSize = 5_000;

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
        'items.decimals',
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
        'items.fault_alarm',
        'devices.id as device_id',
        'devices.name as device_name',
        'device_groups.id as device_group_id',
        'device_groups.name as device_group_name',
      ])
      .where('items.enable', '=', 1)
      .where('devices.enable', '=', 1);
  type Row = Awaited<ReturnType<ReturnType<typeof selectItems>['execute']>>[number];
  const readScoped = async (scope: ReloadScope) => {
    const out: Row[] = [];
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
  const [periodRows, levels, roleSites, disabled] = await Promise.all([
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
  const { items } = state;
  const seen = new Set<number>();
  // The items re-read now: all, or those of the scope's devices, the scope's items and the rows.
  let affected: Set<number> | null = null;
  // A full read builds each device's item list here and swaps it in at the end: between its pages
  // the devices keep their lists.
  const lists = new Map<number, number[]>();
  const listOf = (dev: DeviceRuntime) => {
    if (scope) return dev.items;
    let list = lists.get(dev.id);
    if (!list) {
      list = [];
      lists.set(dev.id, list);
    }
    return list;
  };
  // Names repeat across devices ("Temperature", "item-7"): held once per read.
  const shareName = stringSharer();
  const apply = (r: Row) => {
    if (seen.has(r.id)) return;
    seen.add(r.id);
    let dev = state.devices.get(r.device_id);
    if (!dev) {
      dev = {
        id: r.device_id,
        name: r.device_name,
        device_group_id: r.device_group_id,
        device_group_name: r.device_group_name,
        comm: null,
        down: false,
        items: [],
      };
      state.devices.set(dev.id, dev);
    }
    dev.name = r.device_name;
    dev.device_group_id = r.device_group_id;
    dev.device_group_name = r.device_group_name;
    const level = clampLevel(r.alarm_level);
    // A known item keeps its rule state; a new one starts fresh.
    const slot = items.slotOf(r.id) ?? items.add(r.id);
    items.name[slot] = shareName(r.name);
    items.unit[slot] = items.intern(r.unit);
    items.decimals[slot] = r.decimals ?? -1;
    items.device[slot] = dev;
    // A telemetry-only item is judged by no threshold: a value is normal, no value unknown. Items of
    // one template have equal rules: one object each, not one per item.
    items.rule[slot] = items.shareRule(
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
    );
    items.level[slot] = level;
    items.color[slot] = items.intern(r.alarm_color || state.levelColors.get(level) || '');
    items.repetitions[slot] = r.repetitions;
    items.notificationInterval[slot] = r.notification_interval;
    items.contactGroup[slot] = r.contact_group_id;
    items.checkPeriod[slot] = r.check_period_id;
    items.alarmPeriod[slot] = r.alarm_period_id;
    items.notificationPeriod[slot] = r.notification_period_id;
    items.faultAlarm[slot] = r.fault_alarm === 1 ? 1 : 0;
    listOf(dev).push(slot);
  };
  if (scope) {
    const rows = await readScoped(scope);
    const scoped = new Set<number>(scope.items);
    for (const r of rows) scoped.add(r.id);
    for (const id of scope.devices) for (const slot of state.devices.get(id)?.items ?? []) scoped.add(items.id[slot]!);
    const touched = new Set<number>(scope.devices);
    for (const id of scoped) {
      const slot = items.slotOf(id);
      const dev = slot === undefined ? null : items.device[slot];
      if (dev) touched.add(dev.id);
    }
    for (const id of touched) {
      const dev = state.devices.get(id);
      if (dev) dev.items = dev.items.filter((slot) => !scoped.has(items.id[slot]!));
    }
    affected = scoped;
    items.reserve(items.size + rows.length);
    for (const r of rows) apply(r);
  } else {
    // Pages in id order, the event loop free between them: one read of 100 000 rows held it ~0.9 s
    // and all the row objects at once (the start-up's peak; issue 18). The arrays grow once.
    const count = await selectItems()
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    items.reserve(Number(count.n));
    let after: number | null = null;
    for (;;) {
      let query = selectItems().orderBy('items.id').limit(pageSize);
      if (after !== null) query = query.where('items.id', '>', after);
      const page = await query.execute();
      for (const r of page) apply(r);
      if (page.length < pageSize) break;
      after = page[page.length - 1]!.id;
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const dev of state.devices.values()) dev.items = lists.get(dev.id) ?? [];
  }
  for (const id of affected ?? [...items.slots.keys()]) {
    if (seen.has(id)) continue;
    const slot = items.slotOf(id);
    if (slot !== undefined) state.jitteringItems.delete(slot);
    items.remove(id);
  }
  for (const [id, dev] of state.devices) if (dev.items.length === 0 && !dev.comm) state.devices.delete(id);
};

/** Reads the open alarms into their items and devices (after a restart). */
export const loadOpen = async (db: Kysely<Database>, state: EngineState, nowS: number) => {
  const rows = await db.selectFrom('alarms').selectAll().where('end_time', 'is', null).execute();
  for (const r of rows) {
    const { items } = state;
    const it = items.slotOf(r.item_id);
    const dev = state.devices.get(r.device_id);
    const interval = it === undefined ? 0 : items.notificationInterval[it]!;
    const a: Alarm = {
      ...r,
      contact_group_id: it === undefined ? 0 : items.contactGroup[it]!,
      unit: it === undefined ? '' : items.unit[it]!,
      next_notify_at: r.notify_count > 0 && it !== undefined && interval > 0 ? nowS + interval : nowS,
    };
    if (r.source !== '') state.sources.set(r.source, a);
    else if (r.kind === 'communication') {
      if (!dev) continue;
      dev.comm = a;
    } else {
      if (it === undefined) continue;
      // A point fault is the newer news: the item's confirmed state is unknown while it is open.
      const fault = r.kind === 'point_fault';
      if (fault) items.fault[it] = a;
      else {
        items.alarm[it] = a;
        items.raw[it] = r.status;
      }
      if (fault || !items.fault[it]) {
        items.rep.confirmed[it] = r.status;
        items.rep.pending[it] = r.status;
      }
      if (r.notify_count > 0) items.problemNoticed[it] = 1;
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
