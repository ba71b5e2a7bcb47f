import { defaultSafetyLimits, safetyLimits } from '@sitewatch/contract/electrical-safety';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/kysely.ts';
import { personName } from '../../db/person-name.ts';
import { createSettingsStore } from '../../db/settings-store.ts';

/** The device categories read as electrical devices without a stored mapping (migration 0003 codes). */
export const electricalCodes = ['power_meter', 'switch'];
/** The operation log's module of a switch operation: the item-write module, so the device log shows it. */
export const switchLogModule = 'device_groups/device/item' as const;
export const switchLogAction = 'switch_opt' as const;
/** What is stored under module_settings `power_safety`. */
const storedSettings = z.object({
  control_enabled: z.boolean().default(false),
  password_hash: z.string().default(''),
  password_updated_at: z.number().int().default(0),
  limits: safetyLimits.default(defaultSafetyLimits),
});
export type StoredSettings = z.infer<typeof storedSettings>;

export type DeviceRow = {
  id: number;
  name: string;
  code: string;
  device_group_id: number;
  state: number;
  device_group_name: string;
};
export type ItemRow = {
  id: number;
  device_id: number;
  name: string;
  item_cell_name: string;
  unit: string;
  source: string;
  state: number;
  value: number | null;
  last_check: number;
};

/** Kysely only: devices, items, stored mappings, the settings row, switch operations and open alarms. */
export const createElectricalSafetyRepository = (db: Db, clock?: () => number) => {
  const k = db.kysely;
  const devices = () =>
    k
      .selectFrom('devices')
      .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id')
      .select([
        'devices.id',
        'devices.name',
        'devices.code',
        'devices.device_group_id',
        'devices.state',
        'device_groups.name as device_group_name',
      ]);
  return {
    sites: () => k.selectFrom('device_groups').select(['id', 'parent_id', 'name']).execute(),
    /** Devices of these sites (null: all) that have a stored mapping or an electrical category. */
    async candidateDevices(siteIds: number[] | null, deviceId?: number): Promise<DeviceRow[]> {
      if (siteIds && siteIds.length === 0) return [];
      let q = devices().where((eb) =>
        eb.or([
          eb('devices.code', 'in', electricalCodes),
          eb('devices.id', 'in', eb.selectFrom('electrical_meters').select('device_id')),
        ]),
      );
      if (siteIds) q = q.where('devices.device_group_id', 'in', siteIds);
      if (deviceId !== undefined) q = q.where('devices.id', '=', deviceId);
      return q.orderBy('devices.device_group_id').orderBy('devices.name').orderBy('devices.id').execute();
    },
    device: (id: number) => devices().where('devices.id', '=', id).executeTakeFirst(),
    async items(deviceIds: number[]): Promise<ItemRow[]> {
      if (deviceIds.length === 0) return [];
      return k
        .selectFrom('items')
        .select(['id', 'device_id', 'name', 'item_cell_name', 'unit', 'source', 'state', 'value', 'last_check'])
        .where('device_id', 'in', deviceIds)
        .orderBy('id')
        .execute();
    },
    item: (id: number) =>
      k
        .selectFrom('items')
        .select(['id', 'device_id', 'name', 'item_cell_name', 'unit', 'source', 'state', 'value', 'last_check'])
        .where('id', '=', id)
        .executeTakeFirst(),
    async mappings(deviceIds: number[]) {
      if (deviceIds.length === 0) return [];
      return k.selectFrom('electrical_meters').selectAll().where('device_id', 'in', deviceIds).execute();
    },
    async saveMapping(deviceId: number, points: string, switches: string, now: number) {
      await k
        .insertInto('electrical_meters')
        .values({ device_id: deviceId, points, switches, updated_at: now })
        .onConflict((oc) => oc.column('device_id').doUpdateSet({ points, switches, updated_at: now }))
        .execute();
    },
    removeMapping: (deviceId: number) => k.deleteFrom('electrical_meters').where('device_id', '=', deviceId).execute(),
    /** The power safety settings (module_settings `power_safety`), cached. */
    settings: createSettingsStore({
      db,
      table: 'module_settings',
      schemas: { power_safety: storedSettings },
      defaults: { power_safety: storedSettings.parse({}) },
      clock,
    }),
    /** Open alarms per device. */
    async openAlarms(deviceIds: number[]): Promise<Map<number, number>> {
      if (deviceIds.length === 0) return new Map();
      const rows = await k
        .selectFrom('alarms')
        .select(['device_id', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('end_time', 'is', null)
        .where('device_id', 'in', deviceIds)
        .groupBy('device_id')
        .execute();
      return new Map(rows.map((r) => [r.device_id, Number(r.n)]));
    },
    /** Switch operations on these items, newest first. */
    async switchLog(itemIds: number[], offset: number, limit: number) {
      if (itemIds.length === 0) return { total: 0, rows: [] };
      const base = k
        .selectFrom('operation_logs as o')
        .where('o.module', '=', switchLogModule)
        .where('o.action', '=', switchLogAction)
        .where(
          'o.target',
          'in',
          itemIds.map((i) => String(i)),
        );
      const [count, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst(),
        base
          // The operator by their alias (issue 38); the log keeps the login name written then.
          .leftJoin('users as p', 'p.id', 'o.user_id')
          .select([
            'o.id',
            'o.time',
            personName('p', sql.ref('o.user_name')).as('user_name'),
            'o.target',
            'o.detail',
            'o.result',
          ])
          .orderBy('o.time', 'desc')
          .orderBy('o.id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
      ]);
      return { total: Number(count?.n ?? 0), rows };
    },
  };
};
export type ElectricalSafetyRepository = ReturnType<typeof createElectricalSafetyRepository>;
