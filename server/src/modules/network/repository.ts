import type { Db } from '../../db/kysely.ts';

/** Devices read by the IF-MIB driver are the network devices. */
export const networkDriver = 'snmp-ifmib';

/** Network devices, their port items and open alarms; every read limited to the allowed sites. */
export const createNetworkRepository = (db: Db) => {
  const k = db.kysely;
  return {
    sites: () => k.selectFrom('device_groups').select(['id', 'parent_id']).execute(),

    devices: (siteIds: number[] | null, deviceId?: number) => {
      let q = k
        .selectFrom('devices')
        .innerJoin('device_groups', 'device_groups.id', 'devices.device_group_id')
        .select([
          'devices.id',
          'devices.name',
          'devices.device_group_id',
          'device_groups.name as device_group_name',
          'devices.ip',
          'devices.enable',
          'devices.state',
          'devices.state_reason',
        ])
        .where('devices.driver', '=', networkDriver);
      if (siteIds !== null) {
        if (siteIds.length === 0) return Promise.resolve([]);
        q = q.where('devices.device_group_id', 'in', siteIds);
      }
      if (deviceId !== undefined) q = q.where('devices.id', '=', deviceId);
      return q.orderBy('devices.name').orderBy('devices.id').execute();
    },

    items: (deviceIds: number[]) =>
      deviceIds.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('items')
            .select(['id', 'device_id', 'item_cell_name', 'source', 'value', 'state', 'info', 'last_check', 'enable'])
            .where('device_id', 'in', deviceIds)
            .orderBy('id')
            .execute(),

    /** Open alarms of these devices: one row per alarm (item 0 for communication alarms). */
    openAlarms: (deviceIds: number[]) =>
      deviceIds.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('alarms')
            .select(['device_id', 'item_id'])
            .where('device_id', 'in', deviceIds)
            .where('end_time', 'is', null)
            .execute(),
  };
};
export type NetworkRepository = ReturnType<typeof createNetworkRepository>;
