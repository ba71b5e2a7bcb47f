import {
  type EnergyQuery,
  type MeterCategory,
  type MeterEnergy,
  type MeterInput,
  type MeterRow,
  type PueAnswer,
  pueCategoryOf,
  type TariffInput,
  type TariffMode,
  type TariffRow,
  tariffInput,
} from '@sitewatch/contract/energy';
import { readJson } from '../../db/json.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { RollupBucket } from '../../series/store.ts';
import { type CounterEvent, counterEnergy } from './counters.ts';
import type { EnergyRepository } from './repository.ts';
import { costHours, type LocalClock, type TariffPeriod, tariffProblems, toCents, zoneClock } from './tariff.ts';

type Allowed = number[] | null;
const hour = 3600;
/** How far before the range the last closing reading is looked for (the baseline of the first hour). */
const lookBack = 48 * hour;

export interface EnergyDeps {
  repo: EnergyRepository;
  /** The series store's hourly roll-ups (min, max, sum, count of each hour of each item). */
  hourly: (itemIds: number[], t1: number, t2: number) => Promise<RollupBucket[]>;
  zone?: string;
  now?: () => number;
}

interface HourlyEnergy {
  hours: Array<{ ts: number; kwh: number; estimated: boolean }>;
  events: CounterEvent[];
}

/**
 * Hourly energy of one meter from its item's hourly roll-ups. A counter's hour closes at the hour's
 * highest reading (the last one of a rising counter); the differences of those closings go through
 * the counter rules. A power item's hour is its mean kW over one hour.
 */
export const meterHours = (
  meter: { kind: string; rollover_at: number | null; max_power_kw: number | null },
  rows: RollupBucket[],
  t1: number,
  t2: number,
): HourlyEnergy => {
  if (meter.kind === 'power') {
    const hours = rows
      .filter((r) => r.ts >= t1 - (t1 % hour) && r.ts <= t2 && r.count > 0)
      .map((r) => ({ ts: r.ts, kwh: Math.max(0, r.sum / r.count), estimated: false }));
    return { hours, events: [] };
  }
  const result = counterEnergy(
    rows.map((r) => ({ ts: r.ts + hour, value: r.max })),
    { rolloverAt: meter.rollover_at, maxPowerKw: meter.max_power_kw, gapSeconds: 1.5 * hour, bucketSeconds: hour },
  );
  const from = t1 - (t1 % hour);
  return {
    hours: result.buckets.filter((b) => b.ts >= from && b.ts <= t2),
    events: result.events.filter((e) => e.ts > from && e.ts <= t2 + hour),
  };
};

/** Start of the interval holding `ts` on the local clock. */
export const intervalStart = (ts: number, interval: EnergyQuery['interval'], clock: LocalClock) => {
  if (interval === 'hour') return ts - (ts % hour);
  const off = clock.offsetMinutes(ts) * 60;
  const local = new Date((ts + off) * 1000);
  const y = local.getUTCFullYear();
  const start =
    interval === 'day'
      ? Date.UTC(y, local.getUTCMonth(), local.getUTCDate())
      : interval === 'month'
        ? Date.UTC(y, local.getUTCMonth(), 1)
        : Date.UTC(y, 0, 1);
  return start / 1000 - off;
};

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export const createEnergyService = (deps: EnergyDeps) => {
  const { repo } = deps;
  const clock = zoneClock(deps.zone ?? (process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone));
  const now = () => Math.floor((deps.now?.() ?? Date.now()) / 1000);

  /** The site and its sub-sites, within the allowed ones (all allowed sites without a site). */
  const scope = async (siteId: number | undefined, allowed: Allowed): Promise<Allowed> => {
    if (siteId === undefined) return allowed;
    const sites = await repo.sites();
    const found = new Set<number>([siteId]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const s of sites)
        if (found.has(s.parent_id) && !found.has(s.id)) {
          found.add(s.id);
          grew = true;
        }
    }
    return [...found].filter((id) => allowed === null || allowed.includes(id));
  };
  const visible = (siteId: number, allowed: Allowed) => allowed === null || allowed.includes(siteId);

  const toMeterRow = (m: Awaited<ReturnType<EnergyRepository['meters']>>[number]): MeterRow => ({
    id: m.id,
    name: m.name,
    item_id: m.item_id,
    item_name: m.item_name,
    device_id: m.device_id,
    device_name: m.device_name,
    kind: m.kind as MeterRow['kind'],
    category: m.category as MeterCategory,
    device_group_id: m.device_group_id,
    device_group_name: m.device_group_name ?? '',
    measure_point: m.measure_point as MeterRow['measure_point'],
    rollover_at: m.rollover_at === null ? null : Number(m.rollover_at),
    max_power_kw: m.max_power_kw === null ? null : Number(m.max_power_kw),
  });

  const checkMeter = async (input: MeterInput, allowed: Allowed, selfId?: number) => {
    const itemSite = await repo.itemSite(input.item_id);
    if (itemSite === undefined || !visible(itemSite, allowed)) throw notFound('energy.itemNotFound');
    if (!(await repo.siteExists(input.device_group_id)) || !visible(input.device_group_id, allowed))
      throw notFound('energy.siteNotFound');
    const other = await repo.meterOfItem(input.item_id);
    if (other && other.id !== selfId) throw conflict('energy.itemIsMeter');
    return {
      name: input.name,
      item_id: input.item_id,
      kind: input.kind,
      category: input.category,
      device_group_id: input.device_group_id,
      measure_point: input.category === 'it' ? (input.measure_point ?? 'ups_output') : null,
      rollover_at: input.rollover_at,
      max_power_kw: input.max_power_kw,
    };
  };
  const ownMeter = async (id: number, allowed: Allowed) => {
    const m = await repo.meter(id);
    if (!m || !visible(m.device_group_id, allowed)) throw notFound('energy.meterNotFound');
    return m;
  };

  /** Hourly energy of the meters in scope over [t1, t2]. */
  const energyOf = async (q: EnergyQuery, allowed: Allowed) => {
    let meters = await repo.meters(await scope(q.device_group_id, allowed));
    if (q.meter_id !== undefined) meters = meters.filter((m) => m.id === q.meter_id);
    const rows = await deps.hourly(
      meters.map((m) => m.item_id),
      q.t1 - lookBack,
      q.t2,
    );
    const byItem = new Map<number, RollupBucket[]>();
    for (const r of rows) {
      const list = byItem.get(r.item_id);
      if (list) list.push(r);
      else byItem.set(r.item_id, [r]);
    }
    return meters.map((m) => ({ meter: m, ...meterHours(m, byItem.get(m.item_id) ?? [], q.t1, q.t2) }));
  };

  const starts = {
    hour: new Map<number, number>(),
    day: new Map<number, number>(),
    month: new Map<number, number>(),
    year: new Map<number, number>(),
  };
  /** intervalStart, remembered (a year of hours of many meters asks for the same few thousand). */
  const startOf = (ts: number, interval: EnergyQuery['interval']) => {
    const cache = starts[interval];
    let v = cache.get(ts);
    if (v === undefined) {
      if (cache.size > 100_000) cache.clear();
      v = intervalStart(ts, interval, clock);
      cache.set(ts, v);
    }
    return v;
  };
  const sumBy = <T extends { ts: number }>(
    items: T[],
    interval: EnergyQuery['interval'],
    add: (into: Record<string, number>, x: T) => void,
  ) => {
    const out = new Map<number, Record<string, number>>();
    for (const x of items) {
      const key = startOf(x.ts, interval);
      const into = out.get(key) ?? {};
      add(into, x);
      out.set(key, into);
    }
    return [...out.entries()].sort((a, b) => a[0] - b[0]);
  };

  const tariffRow = (t: NonNullable<Awaited<ReturnType<EnergyRepository['tariff']>>>): TariffRow => {
    const parsed = tariffInput.parse({
      name: t.name,
      summer_months: readJson(t.summer_months, { parse: (v: unknown) => v as number[] }, []),
      gradients: readJson(t.gradients, { parse: (v: unknown) => v as TariffInput['gradients'] }, []),
      slots: readJson(t.slots, { parse: (v: unknown) => v as TariffInput['slots'] }, []),
    });
    return { id: t.id, mode: t.mode as TariffMode, ...parsed };
  };

  const checkTariff = async (mode: TariffMode, input: TariffInput, selfId?: number) => {
    const problems = tariffProblems(mode, input);
    if (problems.length > 0)
      throw badRequest(
        problems[0]!.key,
        {},
        problems.map((p) => ({ path: p.path, message: p.key })),
      );
    const same = await repo.tariffNamed(input.name);
    if (same && same.id !== selfId)
      throw badRequest('energy.validation.nameTaken', {}, [{ path: 'name', message: 'energy.validation.nameTaken' }]);
    return {
      name: input.name,
      summer_months: JSON.stringify([...new Set(input.summer_months)].sort((a, b) => a - b)),
      gradients: JSON.stringify(input.gradients),
      slots: JSON.stringify(input.slots),
      updated_at: now(),
    };
  };

  /** Tariff periods per site, for costing. */
  const periodsBySite = async (siteIds: number[]) => {
    const sets = await repo.tariffSets(siteIds);
    const tariffs = new Map((await repo.tariffs()).map((t) => [t.id, tariffRow(t)]));
    const out = new Map<number, TariffPeriod[]>();
    for (const s of sets) {
      const t = tariffs.get(s.tariff_id);
      if (!t) continue;
      out.set(s.device_group_id, [
        ...(out.get(s.device_group_id) ?? []),
        { validFrom: Number(s.valid_from), tariff: t },
      ]);
    }
    return out;
  };

  return {
    async meters(q: { device_group_id?: number | undefined }, allowed: Allowed): Promise<MeterRow[]> {
      return (await repo.meters(await scope(q.device_group_id, allowed))).map(toMeterRow);
    },
    async createMeter(input: MeterInput, allowed: Allowed): Promise<MeterRow> {
      const row = await checkMeter(input, allowed);
      const id = await repo.insertMeter({ ...row, created_at: now() });
      return toMeterRow((await repo.meter(id))!);
    },
    async updateMeter(id: number, input: MeterInput, allowed: Allowed): Promise<MeterRow> {
      await ownMeter(id, allowed);
      await repo.updateMeter(id, await checkMeter(input, allowed, id));
      return toMeterRow((await repo.meter(id))!);
    },
    async removeMeter(id: number, allowed: Allowed) {
      const m = await ownMeter(id, allowed);
      await repo.deleteMeter(id);
      return m.name;
    },

    async used(q: EnergyQuery, allowed: Allowed): Promise<MeterEnergy[]> {
      return (await energyOf(q, allowed)).map(({ meter, hours, events }) => {
        const buckets = sumBy(hours, q.interval, (into, h) => {
          into.kwh = (into.kwh ?? 0) + h.kwh;
          if (h.estimated) into.estimated = 1;
        }).map(([ts, v]) => ({ ts, kwh: round3(v.kwh ?? 0), estimated: v.estimated === 1 }));
        return {
          meter_id: meter.id,
          name: meter.name,
          category: meter.category as MeterCategory,
          device_group_id: meter.device_group_id,
          total_kwh: round3(hours.reduce((s, h) => s + h.kwh, 0)),
          buckets,
          events: events.map((e) => ({ ...e, from: round3(e.from), to: round3(e.to), kwh: round3(e.kwh) })),
        };
      });
    },

    async ranking(q: EnergyQuery, allowed: Allowed) {
      return (await energyOf(q, allowed))
        .map(({ meter, hours }) => ({
          meter_id: meter.id,
          name: meter.name,
          category: meter.category as MeterCategory,
          device_group_id: meter.device_group_id,
          kwh: round3(hours.reduce((s, h) => s + h.kwh, 0)),
        }))
        .sort((a, b) => b.kwh - a.kwh || a.meter_id - b.meter_id);
    },
    async ratio(q: EnergyQuery, allowed: Allowed) {
      const by = new Map<MeterCategory, number>();
      for (const { meter, hours } of await energyOf(q, allowed)) {
        if (meter.category === 'total') continue;
        const c = meter.category as MeterCategory;
        by.set(c, (by.get(c) ?? 0) + hours.reduce((s, h) => s + h.kwh, 0));
      }
      const sum = [...by.values()].reduce((s, v) => s + v, 0);
      return [...by.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([category, kwh]) => ({ category, kwh: round3(kwh), percent: sum > 0 ? round3((kwh / sum) * 100) : 0 }));
    },
    async cost(q: EnergyQuery, allowed: Allowed) {
      // The stair counts from the start of the month: the month's earlier hours are costed too, then left out.
      const from = q.t1 - (q.t1 % hour);
      const energy = await energyOf({ ...q, t1: Math.min(from, intervalStart(q.t1, 'month', clock)) }, allowed);
      const periods = await periodsBySite([...new Set(energy.map((e) => e.meter.device_group_id))]);
      return energy.map(({ meter, hours }) => {
        const costed = costHours(hours, periods.get(meter.device_group_id) ?? [], clock).filter((h) => h.ts >= from);
        let uncosted = 0;
        const buckets = sumBy(costed, q.interval, (into, h) => {
          into.wh = (into.wh ?? 0) + h.wh;
          if (h.cost === null) uncosted += h.wh;
          else into.cost = (into.cost ?? 0) + h.cost;
        }).map(([ts, v]) => ({ ts, kwh: (v.wh ?? 0) / 1000, cost_cents: toCents(v.cost ?? 0) }));
        const totalUnits = costed.reduce((s, h) => s + (h.cost ?? 0), 0);
        return {
          meter_id: meter.id,
          name: meter.name,
          category: meter.category as MeterCategory,
          device_group_id: meter.device_group_id,
          kwh: costed.reduce((s, h) => s + h.wh, 0) / 1000,
          cost_cents: toCents(totalUnits),
          buckets,
          uncosted_kwh: uncosted / 1000,
        };
      });
    },

    async pue(q: EnergyQuery, allowed: Allowed): Promise<PueAnswer> {
      if (q.device_group_id === undefined) throw badRequest('energy.validation.siteRequired');
      if (!visible(q.device_group_id, allowed) || !(await repo.siteExists(q.device_group_id)))
        throw notFound('energy.siteNotFound');
      const energy = await energyOf(q, allowed);
      const hasTotal = energy.some((e) => e.meter.category === 'total');
      const itPoints = energy.filter((e) => e.meter.category === 'it').map((e) => e.meter.measure_point);
      // The figure is only as good as its least precise IT meter: the lowest category among them.
      const category =
        itPoints.length === 0
          ? 0
          : Math.min(...itPoints.map((p) => pueCategoryOf[(p ?? 'ups_output') as keyof typeof pueCategoryOf]));
      const sums = new Map<number, Record<string, number>>();
      for (const e of energy) {
        const category = e.meter.category;
        for (const h of e.hours) {
          const key = startOf(h.ts, q.interval);
          let into = sums.get(key);
          if (!into) {
            into = {};
            sums.set(key, into);
          }
          if (category === 'total' || !hasTotal) into.total = (into.total ?? 0) + h.kwh;
          if (category === 'it') into.it = (into.it ?? 0) + h.kwh;
          if (category === 'cooling') into.cooling = (into.cooling ?? 0) + h.kwh;
          if (h.estimated) into.estimated = 1;
        }
      }
      const buckets = [...sums.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([ts, v]) => {
          const it = v.it ?? 0;
          return {
            ts,
            total_kwh: round3(v.total ?? 0),
            it_kwh: round3(it),
            cooling_kwh: round3(v.cooling ?? 0),
            pue: it > 0 ? round3((v.total ?? 0) / it) : null,
            ppue_cooling: it > 0 ? round3((it + (v.cooling ?? 0)) / it) : null,
            estimated: v.estimated === 1,
          };
        });
      const it = buckets.reduce((s, b) => s + b.it_kwh, 0);
      const total = buckets.reduce((s, b) => s + b.total_kwh, 0);
      const cooling = buckets.reduce((s, b) => s + b.cooling_kwh, 0);
      return {
        device_group_id: q.device_group_id,
        category,
        total_source: hasTotal ? 'total_meters' : 'sum_of_parts',
        buckets,
        pue: it > 0 ? round3(total / it) : null,
        ppue_cooling: it > 0 ? round3((it + cooling) / it) : null,
      };
    },

    async tariffs(mode: TariffMode) {
      return (await repo.tariffs(mode)).map(tariffRow);
    },
    async createTariff(mode: TariffMode, input: TariffInput) {
      const row = await checkTariff(mode, input);
      const id = await repo.insertTariff({ ...row, mode });
      return tariffRow((await repo.tariff(id))!);
    },
    async updateTariff(mode: TariffMode, id: number, input: TariffInput) {
      const t = await repo.tariff(id);
      if (!t || t.mode !== mode) throw notFound('energy.tariffNotFound');
      await repo.updateTariff(id, await checkTariff(mode, input, id));
      return tariffRow((await repo.tariff(id))!);
    },
    async removeTariff(mode: TariffMode, id: number) {
      const t = await repo.tariff(id);
      if (!t || t.mode !== mode) throw notFound('energy.tariffNotFound');
      if (await repo.tariffInUse(id)) throw conflict('energy.tariffInUse');
      await repo.deleteTariff(id);
      return t.name;
    },
    async costSets(q: { device_group_id?: number | undefined }, allowed: Allowed) {
      return (await repo.tariffSets(await scope(q.device_group_id, allowed))).map((s) => ({
        ...s,
        valid_from: Number(s.valid_from),
      }));
    },
    async setCost(siteId: number, input: { tariff_id: number; valid_from: number }, allowed: Allowed) {
      if (!visible(siteId, allowed) || !(await repo.siteExists(siteId))) throw notFound('energy.siteNotFound');
      if (!(await repo.tariff(input.tariff_id))) throw notFound('energy.tariffNotFound');
      await repo.setTariff(siteId, input.tariff_id, input.valid_from);
      const sets = await repo.tariffSets([siteId]);
      const s = sets.find((x) => Number(x.valid_from) === input.valid_from)!;
      return { ...s, valid_from: Number(s.valid_from) };
    },
  };
};
export type EnergyService = ReturnType<typeof createEnergyService>;
