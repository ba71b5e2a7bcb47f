import type { SiteRow, SiteTreeNode, siteInput } from '@sitewatch/contract/monitoring';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import { abnormalStates, type MonitoringContext } from './context.ts';
import type { AllowedSites, MonitoringRepository } from './repository.ts';

/** Sites: list, add, edit, delete, copy and the site tree (002 §5.1, §7.1). */
export const createSiteService = (ctx: MonitoringContext) => {
  const { copyDeviceInto, copyName, deps, repo, now } = ctx;
  // ---------- sites ----------
  const toSite = (
    row: Awaited<ReturnType<MonitoringRepository['getSite']>> & object,
    devices: Array<{ id: number; category_id: number | null }>,
  ): SiteRow => ({
    id: row.id,
    name: row.name,
    parent_id: row.parent_id,
    weight: row.weight,
    has_device: row.has_device === 1,
    longitude: row.longitude,
    latitude: row.latitude,
    background: row.background,
    scene: row.scene,
    extend: row.extend,
    devices: devices.map((d) => ({ id: d.id, category_id: d.category_id ?? 0 })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  });

  const siteWithDevices = async (id: number) => {
    const row = await repo.getSite(id);
    if (!row) throw notFound();
    return toSite(row, await repo.siteDevices([id]));
  };

  const checkParent = async (id: number | null, parentId: number) => {
    if (parentId === 0) return;
    if (id !== null && parentId === id) throw badRequest('monitoring.errors.parentInvalid');
    const all = await repo.listSites({}, null);
    const byId = new Map(all.map((s) => [s.id, s]));
    if (!byId.has(parentId)) throw badRequest('monitoring.errors.parentInvalid');
    // The new parent may not be the site itself or one of its descendants.
    let cursor: number | undefined = parentId;
    for (let hops = 0; cursor && hops < 1000; hops++) {
      if (cursor === id) throw badRequest('monitoring.errors.parentInvalid');
      cursor = byId.get(cursor)?.parent_id;
    }
  };

  const siteValues = (input: z.output<typeof siteInput>) => ({
    name: input.name,
    parent_id: input.parent_id,
    weight: input.weight,
    has_device: input.has_device ? 1 : 0,
    longitude: input.longitude,
    latitude: input.latitude,
    background: input.background,
    scene: input.scene,
    extend: input.extend,
  });

  return {
    async listSites(
      query: { page: number; limit: number; name?: string | undefined; parent_id?: number | undefined },
      allowed: AllowedSites,
    ) {
      const rows = await repo.listSites(query, allowed);
      const pageRows = rows.slice((query.page - 1) * query.limit, query.page * query.limit);
      const devices = await repo.siteDevices(pageRows.map((r) => r.id));
      return {
        total: rows.length,
        data: pageRows.map((r) =>
          toSite(
            r,
            devices.filter((d) => d.device_group_id === r.id),
          ),
        ),
      };
    },
    async getSite(id: number, allowed: AllowedSites) {
      if (allowed && !allowed.includes(id)) throw notFound();
      return siteWithDevices(id);
    },
    async createSite(input: z.output<typeof siteInput>, scope: SiteScope) {
      // A top-level site belongs to no grant: only a user who reaches every site adds one.
      if (input.parent_id === 0) scope.requireAll();
      else scope.requireSites([input.parent_id]);
      await checkParent(null, input.parent_id);
      const t = now();
      const id = await repo.insertSite({ ...siteValues(input), created_at: t, updated_at: t });
      return siteWithDevices(id);
    },
    async updateSite(id: number, input: z.output<typeof siteInput>, scope: SiteScope) {
      const current = scope.has(id) ? await repo.getSite(id) : undefined;
      if (!current) throw notFound();
      if (current.parent_id !== input.parent_id) {
        if (input.parent_id === 0) scope.requireAll();
        else scope.requireSites([input.parent_id]);
      }
      await checkParent(id, input.parent_id);
      if (!input.has_device && (await repo.siteDevices([id])).length > 0) {
        throw conflict('monitoring.errors.siteHasDevices');
      }
      await repo.updateSite(id, { ...siteValues(input), updated_at: now() });
      return siteWithDevices(id);
    },
    /** Deletes sites, all or none: refused while any has devices or sub-sites (002 §8). */
    async deleteSites(ids: number[], scope: SiteScope) {
      const unique = [...new Set(ids)];
      return repo.transaction(async (r) => {
        for (const id of unique) if (!scope.has(id) || !(await r.getSite(id))) throw notFound();
        if ((await r.siteDevices(unique)).length > 0) throw conflict('monitoring.errors.siteHasDevices');
        if ((await r.childSites(unique)).some((c) => !unique.includes(c.id))) {
          throw conflict('monitoring.errors.siteHasChildren');
        }
        return r.deleteSites(unique);
      });
    },
    async copySite(id: number, input: { count: number; with_devices: boolean }, scope: SiteScope) {
      const created = await repo.transaction(async (r) => {
        const src = scope.has(id) ? await r.getSite(id) : undefined;
        if (!src) throw notFound();
        // Copies stand beside the original: under its parent, or at the top for a top-level site.
        if (src.parent_id === 0) scope.requireAll();
        else scope.requireSites([src.parent_id]);
        const ids: number[] = [];
        const devices = input.with_devices ? await r.siteDevices([id]) : [];
        const deviceRows = devices.length ? await r.listDevices({ ids: devices.map((d) => d.id) }, null) : [];
        for (let n = 1; n <= input.count; n++) {
          const t = now();
          const { id: _id, ...rest } = src;
          const newId = await r.insertSite({ ...rest, name: copyName(src.name, n), created_at: t, updated_at: t });
          for (const d of deviceRows) await copyDeviceInto(r, d.id, newId, d.name);
          ids.push(newId);
        }
        return ids;
      });
      return Promise.all(created.map(siteWithDevices));
    },
    async siteMenu(allowed: AllowedSites): Promise<SiteTreeNode[]> {
      const sites = await repo.listSites({}, allowed);
      const devices = await repo.siteDevices(sites.map((s) => s.id));
      const nodes = new Map<number, SiteTreeNode>();
      for (const s of sites) {
        const own = devices.filter((d) => d.device_group_id === s.id);
        nodes.set(s.id, {
          id: s.id,
          name: s.name,
          parent_id: s.parent_id,
          weight: s.weight,
          has_device: s.has_device === 1,
          device_count: own.length,
          abnormal_count: own.filter((d) => abnormalStates.has(deps.live?.liveDevice(d.id)?.state ?? d.state)).length,
          children: [],
        });
      }
      const roots: SiteTreeNode[] = [];
      for (const node of nodes.values()) {
        const parent = nodes.get(node.parent_id);
        if (parent && parent !== node) parent.children.push(node);
        else roots.push(node);
      }
      return roots;
    },
  };
};
