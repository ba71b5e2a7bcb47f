import type { ActivePowerAnswer, EnergyDevice, MeterCategory } from '@sitewatch/contract/energy';
import type { RollupBucket } from '../../series/store.ts';
import { type Allowed, type EnergyContext, round3 } from './reader.ts';
import { siteFields, withSite } from './site-total.ts';

const hour = 3600;

/** The power now per meter and site (get_active_power), and the devices whose items are meters. */
export const createOverview = (ctx: EnergyContext) => {
  const { repo, now, scope, catchUp, minutes } = ctx;

  return {
    async activePower(q: { device_group_id?: number | undefined }, allowed: Allowed): Promise<ActivePowerAnswer> {
      const meters = withSite(await repo.meters(await scope(q.device_group_id, allowed)));
      const t = now();
      // The last half hour of minute roll-ups: a power item's latest mean, a counter's rise over them.
      const rows =
        (await minutes?.(
          meters.map((m) => m.item_id),
          t - 1800,
          t,
        )) ?? [];
      const byItem = new Map<number, RollupBucket[]>();
      for (const r of rows) byItem.set(r.item_id, [...(byItem.get(r.item_id) ?? []), r]);
      // Without two recent readings (a meter polled rarely): the mean of the last whole hour's energy.
      const thisHour = t - (t % hour);
      await catchUp?.(meters.map((m) => m.id));
      const lastHour = new Map<number, { ts: number; kwh: number }>();
      for (const r of await repo.energy(
        'energy_hours',
        meters.map((m) => m.id),
        thisHour - 2 * hour,
        thisHour,
      ))
        lastHour.set(r.meter_id, r);
      const out = meters.map((m) => {
        const list = (byItem.get(m.item_id) ?? []).sort((x, y) => x.ts - y.ts);
        const last = list.at(-1);
        let kw: number | null = null;
        if (m.kind === 'power') kw = last ? round3(last.sum / last.count) : null;
        else if (list.length >= 2) {
          const rise = last!.max - list[0]!.max;
          // A counter that went down (reset, rollover) says nothing about the power now.
          kw = rise >= 0 ? round3(rise / ((last!.ts - list[0]!.ts) / hour)) : null;
        }
        const source = m.kind === 'power' ? ('power_item' as const) : ('counter' as const);
        const fallback = lastHour.get(m.id);
        if (kw === null && fallback)
          return {
            meter_id: m.id,
            name: m.name,
            category: m.category as MeterCategory,
            device_group_id: m.device_group_id,
            ...siteFields(m),
            kw: round3(fallback.kwh),
            ts: fallback.ts + hour,
            source: 'hour_energy' as const,
          };
        return {
          meter_id: m.id,
          name: m.name,
          category: m.category as MeterCategory,
          device_group_id: m.device_group_id,
          ...siteFields(m),
          kw,
          ts: kw === null || !last ? null : Number(last.ts),
          source,
        };
      });
      const facIds = new Set(meters.filter((m) => m.in_site_total).map((m) => m.id));
      const sum = (keep: (r: (typeof out)[number]) => boolean) =>
        round3(out.filter(keep).reduce((s, r) => s + (r.kw ?? 0), 0));
      return {
        meters: out,
        total_kw: sum((r) => facIds.has(r.meter_id)),
        it_kw: sum((r) => r.category === 'it'),
        cooling_kw: sum((r) => r.category === 'cooling'),
      };
    },

    /** The devices whose items are meters of the sites (and sub-sites), each with its meters. */
    async energyDevices(siteIds: number[] | undefined, allowed: Allowed): Promise<EnergyDevice[]> {
      let inScope: Allowed = allowed;
      if (siteIds !== undefined) {
        const all = new Set<number>();
        for (const id of siteIds) for (const s of (await scope(id, allowed)) ?? []) all.add(s);
        inScope = [...all];
      }
      const devices = new Map<number, EnergyDevice>();
      for (const m of await repo.meters(inScope)) {
        const d = devices.get(m.device_id) ?? {
          device_id: m.device_id,
          device_name: m.device_name,
          device_group_id: m.item_site_id,
          meters: [],
        };
        d.meters.push({
          meter_id: m.id,
          name: m.name,
          item_id: m.item_id,
          item_name: m.item_name,
          kind: m.kind as 'counter' | 'power',
          category: m.category as MeterCategory,
          device_group_id: m.device_group_id,
        });
        devices.set(m.device_id, d);
      }
      return [...devices.values()].sort((a, b) => a.device_id - b.device_id);
    },
  };
};
