import { type EnergyQuery, type PueAnswer, type PueMenuNode, pueCategoryOf } from '@sitewatch/contract/energy';
import { badRequest, notFound } from '../../http/errors.ts';
import { type Allowed, type EnergyContext, round3 } from './reader.ts';
import { topLevelMeters } from './site-total.ts';

/** PUE per interval with its Green Grid category (docs/energy.md "PUE"), and the PUE site menu. */
export const createPue = (ctx: EnergyContext) => {
  const { repo, visible } = ctx;
  const { metersOf, partsOf, startOf } = ctx.reader;

  return {
    async pue(q: EnergyQuery, allowed: Allowed): Promise<PueAnswer> {
      if (q.device_group_id === undefined) throw badRequest('energy.validation.siteRequired');
      if (!visible(q.device_group_id, allowed) || !(await repo.siteExists(q.device_group_id)))
        throw notFound('energy.siteNotFound');
      const meters = await metersOf(q, allowed);
      const partsBy = await partsOf(
        meters.map((m) => m.id),
        q.t1,
        q.t2,
        q.interval !== 'hour',
      );
      const energy = meters.map((meter) => ({ meter, hours: partsBy.get(meter.id) ?? [] }));
      const top = topLevelMeters(meters);
      const facility = new Set(top.meters.map((m) => m.id));
      const itPoints = meters.filter((m) => m.category === 'it').map((m) => m.measure_point);
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
          if (facility.has(e.meter.id)) into.total = (into.total ?? 0) + h.kwh;
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
        total_source: top.source,
        buckets,
        pue: it > 0 ? round3(total / it) : null,
        ppue_cooling: it > 0 ? round3((it + cooling) / it) : null,
      };
    },

    async pueMenu(allowed: Allowed): Promise<PueMenuNode[]> {
      const meters = await repo.meters(allowed);
      const sites = (await repo.siteRows()).filter((s) => visible(s.id, allowed));
      const byId = new Map(sites.map((s) => [s.id, s]));
      const counts = new Map<number, number>();
      const points = new Map<number, number[]>();
      for (const m of meters) {
        counts.set(m.device_group_id, (counts.get(m.device_group_id) ?? 0) + 1);
        if (m.category === 'it')
          points.set(m.device_group_id, [
            ...(points.get(m.device_group_id) ?? []),
            pueCategoryOf[(m.measure_point ?? 'ups_output') as keyof typeof pueCategoryOf],
          ]);
      }
      // The sites with meters and the (granted) sites above them, so the tree keeps its shape.
      const kept = new Set<number>();
      for (const id of counts.keys()) {
        let site = byId.get(id);
        while (site && !kept.has(site.id)) {
          kept.add(site.id);
          site = byId.get(site.parent_id);
        }
      }
      const nodes = new Map<number, PueMenuNode>();
      for (const s of sites)
        if (kept.has(s.id))
          nodes.set(s.id, {
            id: s.id,
            name: s.name,
            parent_id: s.parent_id,
            meter_count: counts.get(s.id) ?? 0,
            category: points.has(s.id) ? Math.min(...points.get(s.id)!) : 0,
            children: [],
          });
      const roots: PueMenuNode[] = [];
      for (const n of nodes.values()) {
        const parent = nodes.get(n.parent_id);
        if (parent) parent.children.push(n);
        else roots.push(n);
      }
      return roots;
    },
  };
};
