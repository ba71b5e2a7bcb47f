// A bench estate: one site with simulated devices of `perDevice` items each, written as the API
// would store them. Shared by the benchmarks so they measure the same shape of data.
import { deviceOptions, serialSettings } from '../packages/contract/src/monitoring.ts';
import type { Db } from '../server/src/db/kysely.ts';

export interface EstateOptions {
  items: number;
  perDevice?: number;
  siteName?: string;
  /** The simulator's settings of every item. */
  source?: Record<string, unknown>;
  /** Item fields that differ between benchmarks. */
  item?: { unit?: string; recovery_point?: number; alarm_level?: number; check_interval?: number };
  deviceCheckInterval?: number;
}

export const analogSource = {
  kind: 'simulator',
  model: 'analog',
  base: 22,
  spread: 2,
  noise: 0.2,
  period_s: 600,
  fault_rate: 0,
  decimals: 2,
};

/** Returns the devices with their item ids, in insertion order. */
export const seedEstate = async (db: Db, options: EstateOptions) => {
  const { items, perDevice = 100, item = {} } = options;
  const now = Math.floor(Date.now() / 1000);
  const { id: site } = await db.kysely
    .insertInto('device_groups')
    .values({
      name: options.siteName ?? 'bench',
      parent_id: 0,
      weight: 1,
      has_device: 1,
      background: '',
      scene: '',
      extend: '',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const source = JSON.stringify(options.source ?? analogSource);
  const devices: Array<{ id: number; items: number[] }> = [];
  for (let d = 0; d < Math.ceil(items / perDevice); d++) {
    const { id } = await db.kysely
      .insertInto('devices')
      .values({
        name: `dev-${d}`,
        device_group_id: site,
        driver: 'simulator',
        code: 'other',
        template_id: null,
        ip: '',
        port: null,
        protocol_id: 1,
        classification_id: 0,
        device_count: 1,
        serial: JSON.stringify(serialSettings.parse({})),
        zigbee_enable: 0,
        zigbee_address: '',
        protocol_version: '',
        options: JSON.stringify(deviceOptions.parse({})),
        check_interval: options.deviceCheckInterval ?? 1,
        enable: 1,
        state: 0,
        state_reason: '',
        state_time: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const count = Math.min(perDevice, items - d * perDevice);
    const rows = Array.from({ length: count }, (_, i) => ({
      device_id: id,
      name: `item-${i}`,
      item_cell_name: `P${i}`,
      unit: item.unit ?? '',
      location_id: 0,
      value_type: 1,
      threshold_min: 10,
      threshold_max: 30,
      status_threshold: '',
      recovery_point: item.recovery_point ?? 0,
      overrun_point: 0,
      alarm_level: item.alarm_level ?? 1,
      alarm_color: '',
      contact_group_id: 0,
      working_period_id: 0,
      overrun_action_id: 0,
      recovery_action_id: 0,
      check_interval: item.check_interval ?? 1,
      repetitions: 1,
      notification_interval: 300,
      check_period_id: 0,
      notification_period_id: 0,
      alarm_period_id: 0,
      source,
      enable: 1,
      state: 0,
      value: null,
      last_check: 0,
      info: '',
    }));
    const ids = await db.kysely.insertInto('items').values(rows).returning('id').execute();
    devices.push({ id, items: ids.map((r) => r.id) });
  }
  return { site, devices };
};
