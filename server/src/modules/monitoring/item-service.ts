import { type Language, sharedText } from '@sitewatch/contract';
import {
  checkItemRules,
  type DriverName,
  type ItemValues,
  type itemBulkUpdate,
  itemSource,
  type SerialSettings,
  serialSettings,
  timePeriodInput,
} from '@sitewatch/contract/monitoring';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { SiteScope } from '../access/index.ts';
import { type MonitoringContext, offsetOf, type Page, parse, sourceKindOf } from './context.ts';
import type { AllowedSites } from './repository.ts';

/** Monitored items, time periods and serial ports (002 §7.1). */
export const createItemService = (ctx: MonitoringContext) => {
  const { deps, repo, defaultSerial, toItem, getItem, itemValues } = ctx;
  /**
   * The device an item is put on: one that exists (400 otherwise) in a site the caller holds, as any
   * target of a write (403 `access.siteNotGranted`, docs/users.md "Site grants on writes").
   */
  const targetDevice = async (input: ItemValues, scope: SiteScope) => {
    const [device] = await repo.listDevices({ ids: [input.device_id] }, null);
    if (!device) throw badRequest('monitoring.errors.deviceMissing');
    scope.requireSites([device.device_group_id]);
    if (sourceKindOf(device.driver as DriverName) !== input.source.kind)
      throw badRequest('monitoring.errors.sourceKind');
    if (!(await ctx.locationsFor(device.device_group_id))(input.location_id))
      throw badRequest('monitoring.errors.locationInvalid');
    return device;
  };

  return {
    async listItems(
      query: Page & {
        device_id?: number | undefined;
        device_group_id?: number | undefined;
        name?: string | undefined;
        state?: number | undefined;
      },
      allowed: AllowedSites,
    ) {
      const [total, rows] = await Promise.all([
        repo.countItems(query, allowed),
        repo.listItems(query, allowed, offsetOf(query)),
      ]);
      return { total, data: rows.map(toItem) };
    },
    getItem,
    async createItem(input: ItemValues, scope: SiteScope) {
      await targetDevice(input, scope);
      const [id] = await repo.insertItems([itemValues(input, input.device_id)]);
      return getItem(id!, scope.sites);
    },
    async updateItem(id: number, input: ItemValues, scope: SiteScope) {
      const [current] = await repo.listItems({ ids: [id] }, scope.sites);
      if (!current) throw notFound();
      await targetDevice(input, scope);
      const { state: _s, value: _v, last_check: _l, info: _i, ...values } = itemValues(input, input.device_id);
      // A purpose left out is kept (clients that predate it send none).
      await repo.updateItem(id, input.purpose === undefined ? { ...values, purpose: current.purpose } : values);
      return getItem(id, scope.sites);
    },
    /** The same settings for many items; an item the change would make invalid is listed and kept as it was. */
    async bulkUpdateItems(input: z.output<typeof itemBulkUpdate>, lang: Language, scope: SiteScope) {
      // All or nothing as to grants: one item of a site outside the grant refuses the whole request (404).
      const rows = await repo.listItems({ ids: input.ids }, null);
      if (rows.some((r) => !scope.has(r.device_group_id))) throw notFound();
      const found = new Map(rows.map((r) => [r.id, r]));
      const failed: Array<{ id: number; message: string }> = [];
      const flag = (on: boolean | undefined) => (on === undefined ? undefined : on ? 1 : 0);
      const { enable, fault_alarm, ...plain } = input.set;
      const set = {
        ...plain,
        ...(enable !== undefined ? { enable: flag(enable) } : {}),
        ...(fault_alarm !== undefined ? { fault_alarm: flag(fault_alarm) } : {}),
      };
      let updated = 0;
      await repo.transaction(async (r) => {
        for (const id of input.ids) {
          const row = found.get(id);
          if (!row) {
            failed.push({ id, message: sharedText(lang, 'errors.notFound') });
            continue;
          }
          const merged = {
            ...row,
            ...input.set,
            value_type: row.value_type === 0 ? (0 as const) : (1 as const),
            telemetry_only: row.telemetry_only === 1,
            source: parse(row.source, itemSource, null) ?? undefined,
          };
          const problems: string[] = [];
          const ctx = {
            addIssue: (issue: { message?: string }) =>
              problems.push(sharedText(lang, issue.message ?? 'errors.badRequest')),
          } as unknown as z.RefinementCtx;
          checkItemRules(merged, ctx);
          if (problems.length) {
            failed.push({ id, message: problems.join(' ') });
            continue;
          }
          await r.updateItem(id, set as never);
          updated += 1;
        }
      });
      return { updated, failed };
    },
    async deleteItem(id: number, scope: SiteScope) {
      const [row] = await repo.listItems({ ids: [id] }, scope.sites);
      if (!row) throw notFound();
      await repo.deleteItem(id);
      return null;
    },

    // ---------- time periods and serial ports ----------
    async listPeriods(query: Page) {
      const rows = await repo.listPeriods();
      return {
        total: rows.length,
        data: rows
          .slice((query.page - 1) * query.limit, query.page * query.limit)
          .map((p) => ({ id: p.id, name: p.name, ranges: parse(p.ranges, timePeriodInput.shape.ranges, []) })),
      };
    },
    async createPeriod(input: z.output<typeof timePeriodInput>) {
      const id = await repo.insertPeriod({ name: input.name, ranges: JSON.stringify(input.ranges) });
      return { id, ...input };
    },
    async updatePeriod(id: number, input: z.output<typeof timePeriodInput>) {
      if (!(await repo.getPeriod(id))) throw notFound();
      await repo.updatePeriod(id, { name: input.name, ranges: JSON.stringify(input.ranges) });
      return { id, ...input };
    },
    async deletePeriod(id: number) {
      if (!(await repo.getPeriod(id))) throw notFound();
      if ((await repo.itemsUsingPeriod(id)) > 0) throw conflict('monitoring.errors.periodInUse');
      await repo.deletePeriod(id);
      return null;
    },
    async listSerialPorts() {
      const host = new Set((await deps.listHostSerialPorts?.()) ?? []);
      const saved = await repo.listSerialPorts();
      const out = new Map<string, SerialSettings & { present: boolean }>();
      for (const s of saved) {
        out.set(s.name, {
          ...parse(s.settings, serialSettings, defaultSerial),
          name: s.name,
          present: host.has(s.name),
        });
      }
      for (const name of host) if (!out.has(name)) out.set(name, { ...defaultSerial, name, present: true });
      return [...out.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
    async saveSerialPort(input: SerialSettings) {
      await repo.saveSerialPort(input.name, JSON.stringify(input));
      const host = new Set((await deps.listHostSerialPorts?.()) ?? []);
      return { ...input, present: host.has(input.name) };
    },
  };
};
