import type { LinkageCondition } from '@sitewatch/contract/automation';
import { inPeriod, type PeriodRange } from '../../alarms/rules/periods.ts';
import type { Kernel } from '../../area.ts';
import type { Timer } from '../../clock/timers.ts';
import type { Collector } from '../../collector/collector.ts';
import { type StoredLinkage, toLinkage } from './repository.ts';
import type { Runner } from './runner.ts';

/** Loop guard, dynamic part: at most this many firings of one rule in `FIRE_WINDOW_MS`. */
export const FIRE_LIMIT = 5;
export const FIRE_WINDOW_MS = 60_000;

interface RuleState {
  rule: StoredLinkage;
  /** When the conditions started to hold (epoch ms), null while they do not. */
  since: number | null;
  /** The action ran for this stretch of holding (edge-triggered: once until they stop holding). */
  fired: boolean;
  /** Times of the recent firings (the rate guard). */
  recent: number[];
  timer: Timer | null;
}

const holds = (c: LinkageCondition, value: number | undefined, alarm: boolean | undefined): boolean => {
  if (c.op === 'alarm') return alarm === true;
  if (c.op === 'normal') return alarm === false;
  if (value === undefined || Number.isNaN(value)) return false;
  switch (c.op) {
    case 'gt':
      return value > c.value;
    case 'ge':
      return value >= c.value;
    case 'lt':
      return value < c.value;
    case 'le':
      return value <= c.value;
    case 'eq':
      return value === c.value;
    default:
      return value !== c.value;
  }
};

/**
 * The linkage engine (docs/automation.md, "Linkage"): the enabled rules in memory, indexed by the
 * items their conditions read, judged on the bus's `samples` (values) and `item.state` (in alarm or
 * not) as they arrive: never by reading the database. A rule acts once each time its conditions
 * come to hold for `hold_seconds` (a timer on the kernel's clock waits out the hold), and runs its
 * recovery action once when they stop holding after it acted.
 */
export const createLinkageEngine = (deps: { kernel: Kernel; runner: Runner; live: () => Collector | undefined }) => {
  const { kernel } = deps;
  const states = new Map<number, RuleState>();
  /** item id → the rules reading it */
  const byItem = new Map<number, RuleState[]>();
  const values = new Map<number, number>();
  const alarms = new Map<number, boolean>();
  const periods = new Map<number, PeriodRange[]>();
  const active = new Set<number>();

  const clearTimer = (s: RuleState) => {
    if (s.timer) kernel.timers.clearTimeout(s.timer);
    s.timer = null;
  };

  const fire = (s: RuleState, now: number) => {
    s.fired = true;
    s.recent = s.recent.filter((t) => now - t < FIRE_WINDOW_MS);
    if (s.recent.length >= FIRE_LIMIT) {
      kernel.log.warn({ rule: s.rule.id }, 'linkage rule fired too often: held back (loop guard)');
      return;
    }
    s.recent.push(now);
    const at = Math.floor(now / 1000);
    s.rule.last_fired = at;
    void kernel.db.kysely
      .updateTable('automation_linkages')
      .set({ last_fired: at })
      .where('id', '=', s.rule.id)
      .execute()
      .catch((err) => kernel.log.warn({ err }, 'linkage last run not stored'));
    deps.runner.start({ actionId: s.rule.action_id, trigger: 'linkage', trigger_id: s.rule.id });
  };

  const judge = (s: RuleState, now: number) => {
    const { rule } = s;
    const period = rule.period_id > 0 ? periods.get(rule.period_id) : undefined;
    const inTime = rule.period_id === 0 || inPeriod(period ?? [], new Date(now));
    const each = rule.conditions.map((c) => holds(c, values.get(c.item_id), alarms.get(c.item_id)));
    const ok = inTime && (rule.match === 'all' ? each.every(Boolean) : each.some(Boolean));
    if (!ok) {
      active.delete(rule.id);
      clearTimer(s);
      s.since = null;
      if (s.fired) {
        s.fired = false;
        if (rule.recovery_action_id > 0)
          deps.runner.start({ actionId: rule.recovery_action_id, trigger: 'linkage', trigger_id: rule.id });
      }
      return;
    }
    active.add(rule.id);
    if (s.fired) return;
    s.since ??= now;
    const wait = s.since + rule.hold_seconds * 1000 - now;
    if (wait <= 0) {
      clearTimer(s);
      fire(s, now);
    } else if (!s.timer) {
      s.timer = kernel.timers.setTimeout(() => {
        s.timer = null;
        judge(s, kernel.clock());
      }, wait);
      s.timer.unref();
    }
  };

  kernel.bus.subscribe('samples', ({ ids, values: vs, from, to, ts_ms }) => {
    if (byItem.size === 0) return;
    let touched: Set<RuleState> | null = null;
    for (let i = from; i < to; i++) {
      const rules = byItem.get(ids[i]!);
      if (!rules) continue;
      values.set(ids[i]!, vs[i]!);
      touched ??= new Set();
      for (const r of rules) touched.add(r);
    }
    if (touched) for (const s of touched) judge(s, ts_ms);
  });
  kernel.bus.subscribe('item.state', ({ item_id, alarm, ts_ms }) => {
    const rules = byItem.get(item_id);
    if (!rules) return;
    alarms.set(item_id, alarm);
    for (const s of rules) judge(s, ts_ms);
  });
  kernel.bus.subscribe('config.changed', ({ area }) => {
    if (area === 'time_periods') return loadPeriods();
  });

  const loadPeriods = async () => {
    const rows = await kernel.db.kysely.selectFrom('time_periods').select(['id', 'ranges']).execute();
    periods.clear();
    for (const p of rows) {
      try {
        periods.set(p.id, JSON.parse(p.ranges) as PeriodRange[]);
      } catch {
        periods.set(p.id, []);
      }
    }
  };

  /** Re-reads every rule; a rule kept as it was keeps its state (an edit starts it afresh). */
  const reload = async () => {
    const rows = (await kernel.db.kysely.selectFrom('automation_linkages').selectAll().execute()).map(toLinkage);
    await loadPeriods();
    const before = new Map(states);
    states.clear();
    byItem.clear();
    for (const rule of rows.filter((r) => r.enable)) {
      const old = before.get(rule.id);
      const same = old && old.rule.updated_at === rule.updated_at && old.rule.enable === rule.enable;
      const s: RuleState = same ? old : { rule, since: null, fired: false, recent: old?.recent ?? [], timer: null };
      if (!same && old) clearTimer(old);
      s.rule = rule;
      states.set(rule.id, s);
      for (const c of rule.conditions) {
        const list = byItem.get(c.item_id) ?? [];
        list.push(s);
        byItem.set(c.item_id, list);
        // The live view's last value and state, until the next sample tells.
        const live = deps.live()?.liveItem(c.item_id);
        if (live && !values.has(c.item_id) && live.value !== null) values.set(c.item_id, live.value);
      }
    }
    for (const [id, old] of before) {
      if (!states.has(id)) {
        clearTimer(old);
        active.delete(id);
      }
    }
    const now = kernel.clock();
    for (const s of states.values()) if (s.since === null && !s.fired) judge(s, now);
  };

  return {
    reload,
    /** Whether a rule's conditions hold now. */
    isActive: (id: number) => active.has(id),
    stop() {
      for (const s of states.values()) clearTimer(s);
    },
    /** Rules in memory and items watched (the bench). */
    size: () => ({ rules: states.size, items: byItem.size }),
  };
};
export type LinkageEngine = ReturnType<typeof createLinkageEngine>;
