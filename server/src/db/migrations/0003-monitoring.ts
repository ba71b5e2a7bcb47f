import { type Kysely, sql } from 'kysely';
import { isPostgres, withId } from '../migration-kit.ts';

/**
 * Sites, device categories and templates, devices, monitored items, time periods, serial ports,
 * the series store (per-item sample chunks and per-minute and per-hour roll-ups), history report
 * templates, and the menu pages of monitoring and device settings (docs/monitoring.md).
 */
export const up = async (db: Kysely<unknown>): Promise<void> => {
  const blob = isPostgres(db) ? 'bytea' : 'blob';
  const real = isPostgres(db) ? 'double precision' : 'real';

  await withId(db, db.schema.createTable('device_groups'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('has_device', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('longitude', real)
    .addColumn('latitude', real)
    .addColumn('background', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('scene', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('extend', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_groups_parent').on('device_groups').column('parent_id').execute();

  await db.schema
    .createTable('categorys')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('device_templates')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('category_code', 'varchar(32)', (c) => c.notNull())
    .addColumn('driver', 'varchar(16)', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('devices'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_group_id', 'integer', (c) => c.notNull().references('device_groups.id'))
    .addColumn('driver', 'varchar(16)', (c) => c.notNull())
    .addColumn('code', 'varchar(32)', (c) => c.notNull())
    .addColumn('template_id', 'integer')
    .addColumn('ip', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .addColumn('port', 'integer')
    .addColumn('protocol_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('classification_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('device_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('zigbee_enable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('zigbee_address', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('protocol_version', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('check_interval', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state_reason', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('state_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_group').on('devices').column('device_group_id').execute();

  await withId(db, db.schema.createTable('items'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('item_cell_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('unit', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('location_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('value_type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('threshold_min', real)
    .addColumn('threshold_max', real)
    .addColumn('status_threshold', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('recovery_point', real)
    .addColumn('overrun_point', real)
    .addColumn('alarm_level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('alarm_color', 'varchar(7)', (c) => c.notNull().defaultTo(''))
    .addColumn('contact_group_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('working_period_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('overrun_action_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recovery_action_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('check_interval', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('repetitions', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notification_interval', 'integer', (c) => c.notNull().defaultTo(300))
    .addColumn('check_period_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notification_period_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alarm_period_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('enable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('value', real)
    .addColumn('last_check', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('info', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('items_device').on('items').column('device_id').execute();

  await withId(db, db.schema.createTable('time_periods'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('ranges', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('serial_ports')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .execute();

  // Series store: every sample, kept as per-item chunks (one row per item per flush; ts in epoch
  // milliseconds and values as float64 arrays in `data`), and roll-ups per minute and per hour.
  await db.schema
    .createTable('sample_chunks')
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('t0', 'bigint', (c) => c.notNull())
    .addColumn('t1', 'bigint', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sample_chunks_item_t1').on('sample_chunks').columns(['item_id', 't1']).execute();
  for (const table of ['samples_1m', 'samples_1h']) {
    await db.schema
      .createTable(table)
      .addColumn('item_id', 'integer', (c) => c.notNull())
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('min', real, (c) => c.notNull())
      .addColumn('max', real, (c) => c.notNull())
      .addColumn('sum', real, (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['item_id', 'ts'])
      .execute();
  }

  await withId(db, db.schema.createTable('data_history_templates'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('item_ids', 'text', (c) => c.notNull())
    .addColumn('interval', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  for (const [i, code] of categoryCodes.entries()) {
    await sql`insert into categorys (id, code, name_key, weight) values (${i + 1}, ${code}, ${`monitoring.categories.${code}`}, ${100 - i})`.execute(
      db,
    );
  }
  for (const t of templates) {
    await sql`insert into device_templates (id, name_key, category_code, driver, items) values (${t.id}, ${`monitoring.templates.${t.key}`}, ${t.category}, ${t.driver}, ${JSON.stringify(t.items)})`.execute(
      db,
    );
  }

  // Menu pages (docs/menus.md) and their functions.
  await sql`insert into menus (id, parent_id, name_key, url, icon, weight) values
    (101, 100, 'menu.station', '/station', 'dashboard', 990),
    (211, 210, 'menu.deviceGroups', '/setting_device_groups', 'apartment', 890),
    (212, 210, 'menu.deviceManage', '/setting_device_mange', 'hdd', 880),
    (213, 210, 'menu.items', '/setting_items', 'unordered-list', 870)`.execute(db);
  const functions: Array<[number, string]> = [
    [101, 'view'],
    [101, 'control'],
    [211, 'view'],
    [211, 'add'],
    [211, 'edit'],
    [211, 'delete'],
    [211, 'copy'],
    [212, 'view'],
    [212, 'add'],
    [212, 'edit'],
    [212, 'delete'],
    [212, 'copy'],
    [212, 'export'],
    [213, 'view'],
    [213, 'add'],
    [213, 'edit'],
    [213, 'delete'],
  ];
  for (const [menu, code] of functions) {
    await sql`insert into functions (menu_id, code, name_key) values (${menu}, ${code}, ${`functions.${code}`})`.execute(
      db,
    );
  }
};

export const down = async (db: Kysely<unknown>): Promise<void> => {
  await sql`delete from functions where menu_id in (101, 211, 212, 213)`.execute(db);
  await sql`delete from menus where id in (101, 211, 212, 213)`.execute(db);
  for (const table of [
    'data_history_templates',
    'samples_1h',
    'samples_1m',
    'sample_chunks',
    'serial_ports',
    'time_periods',
    'items',
    'devices',
    'device_templates',
    'categorys',
    'device_groups',
  ]) {
    await db.schema.dropTable(table).execute();
  }
};

/** Category ids are fixed: the dashboard asks for environment devices as category 2 (000 §7). */
const categoryCodes = [
  'ups',
  'temp_hum',
  'air',
  'power_meter',
  'leak',
  'smoke',
  'door',
  'switch',
  'host',
  'other',
] as const;

// Template items: `name` is a locale key (monitoring.items.*), translated when a device is made.
type Src = Record<string, unknown>;
const item = (
  key: string,
  cell: string,
  unit: string,
  min: number | null,
  max: number | null,
  source: Src,
  status = '',
) => ({
  name: `monitoring.items.${key}`,
  item_cell_name: cell,
  unit,
  value_type: min === null ? 0 : 1,
  threshold_min: min,
  threshold_max: max,
  status_threshold: status,
  source,
});
const analog = (base: number, spread: number, noise: number, decimals = 1, period_s = 86_400): Src => ({
  kind: 'simulator',
  model: 'analog',
  base,
  spread,
  noise,
  period_s,
  fault_rate: 0,
  decimals,
});
const status = (fault_rate: number, base = 0): Src => ({
  kind: 'simulator',
  model: 'status',
  base,
  spread: 0,
  noise: 0,
  period_s: 600,
  fault_rate,
  decimals: 0,
});
const counter = (perHour: number): Src => ({
  kind: 'simulator',
  model: 'counter',
  base: perHour,
  spread: 0,
  noise: 0,
  period_s: 86_400,
  fault_rate: 0,
  decimals: 2,
});
const phases = ['a', 'b', 'c'] as const;
const modbus = (fn: number, register: number, data_type: string, scale = 1): Src => ({
  kind: 'modbus',
  function: fn,
  register,
  data_type,
  scale,
});
const snmp = (oid: string, scale = 1): Src => ({ kind: 'snmp', oid, scale });
const mqtt = (json_path: string): Src => ({
  kind: 'mqtt',
  topic: 'sitewatch/{device_id}/state',
  json_path,
  scale: 1,
  command_topic: '',
});

const templates = [
  {
    id: 1,
    key: 'simTempHum',
    category: 'temp_hum',
    driver: 'simulator',
    items: [
      item('temperature', 'TEMP', '℃', 18, 27, analog(23, 2.5, 0.15)),
      item('humidity', 'HUM', '%RH', 40, 60, analog(48, 6, 0.4)),
    ],
  },
  {
    id: 2,
    key: 'simUps',
    category: 'ups',
    driver: 'simulator',
    items: [
      ...phases.map((p) => item('inputVoltage', `UI${p}`, 'V', 198, 242, analog(221, 4, 0.8))),
      ...phases.map((p) => item('outputVoltage', `UO${p}`, 'V', 210, 230, analog(220, 0.8, 0.3))),
      ...phases.map((p) => item('load', `LOAD${p}`, '%', 0, 80, analog(42, 12, 1.2))),
      item('inputFrequency', 'FIN', 'Hz', 49.5, 50.5, analog(50, 0.05, 0.02, 2)),
      item('batteryCapacity', 'BATCAP', '%', 30, 100, analog(98, 1.5, 0.2)),
      item('batteryVoltage', 'BATV', 'V', 400, 450, analog(432, 3, 0.5)),
      item('batteryTemperature', 'BATT', '℃', 15, 35, analog(26, 2, 0.2)),
      item('backupTime', 'BACKUP', 'min', 10, 600, analog(85, 10, 1, 0)),
      item('onBattery', 'ONBAT', '', null, null, status(0.0005), '1'),
      item('bypass', 'BYPASS', '', null, null, status(0.0005), '1'),
      item('upsFault', 'UPSFAULT', '', null, null, status(0.0003), '1'),
    ],
  },
  {
    id: 3,
    key: 'simAir',
    category: 'air',
    driver: 'simulator',
    items: [
      item('supplyTemperature', 'SUPT', '℃', 14, 24, analog(18, 1.5, 0.2)),
      item('returnTemperature', 'RETT', '℃', 18, 30, analog(25, 2, 0.2)),
      item('supplyHumidity', 'SUPH', '%RH', 35, 65, analog(50, 4, 0.5)),
      item('returnHumidity', 'RETH', '%RH', 35, 65, analog(46, 4, 0.5)),
      item('temperatureSetpoint', 'SETT', '℃', 16, 28, analog(24, 0, 0, 0)),
      item('humiditySetpoint', 'SETH', '%RH', 30, 70, analog(50, 0, 0, 0)),
      item('compressorRunning', 'COMP', '', null, null, status(0.001, 1), '0'),
      item('fanRunning', 'FAN', '', null, null, status(0.0005, 1), '0'),
      item('heater', 'HEAT', '', null, null, status(0.002), '1'),
      item('humidifier', 'HUMID', '', null, null, status(0.002), '1'),
      item('highPressureAlarm', 'HPA', '', null, null, status(0.0003), '1'),
      item('lowPressureAlarm', 'LPA', '', null, null, status(0.0003), '1'),
    ],
  },
  {
    id: 4,
    key: 'simPowerMeter',
    category: 'power_meter',
    driver: 'simulator',
    items: [
      ...phases.map((p) => item('phaseVoltage', `U${p}`, 'V', 198, 242, analog(222, 3, 0.6))),
      ...phases.map((p) => item('phaseCurrent', `I${p}`, 'A', 0, 80, analog(36, 10, 1.5, 2))),
      ...phases.map((p) => item('phaseActivePower', `P${p}`, 'kW', 0, 18, analog(8, 2.2, 0.3, 2))),
      item('activePower', 'P', 'kW', 0, 50, analog(24, 6, 0.8, 2)),
      item('reactivePower', 'Q', 'kvar', 0, 20, analog(6, 1.5, 0.3, 2)),
      item('powerFactor', 'PF', '', 0.8, 1, analog(0.95, 0.02, 0.005, 3)),
      item('frequency', 'F', 'Hz', 49.5, 50.5, analog(50, 0.04, 0.01, 2)),
      item('activeEnergy', 'EP', 'kWh', 0, 1e9, counter(24)),
      item('currentImbalance', 'IUNB', '%', 0, 15, analog(4, 2, 0.4)),
      item('voltageThd', 'UTHD', '%', 0, 5, analog(2.1, 0.5, 0.1, 2)),
    ],
  },
  {
    id: 5,
    key: 'simLeak',
    category: 'leak',
    driver: 'simulator',
    items: [
      item('leak', 'LEAK', '', null, null, status(0.0005), '1'),
      item('leakPosition', 'LEAKPOS', 'm', 0, 1000, analog(0, 0, 0, 1)),
    ],
  },
  {
    id: 6,
    key: 'simSmoke',
    category: 'smoke',
    driver: 'simulator',
    items: [item('smoke', 'SMOKE', '', null, null, status(0.0002), '1')],
  },
  {
    id: 7,
    key: 'simDoor',
    category: 'door',
    driver: 'simulator',
    items: [
      item('doorContact', 'DOOR', '', null, null, status(0.004), '1'),
      item('doorLock', 'LOCK', '', null, null, status(0.001, 1), '0'),
    ],
  },
  {
    id: 8,
    key: 'simSwitch',
    category: 'switch',
    driver: 'simulator',
    items: [1, 2, 3, 4].map((n) => item('switchState', `SW${n}`, '', null, null, status(0.0005, 1), '0')),
  },
  {
    id: 20,
    key: 'modbusTempHum',
    category: 'temp_hum',
    driver: 'modbus-tcp',
    items: [
      item('temperature', 'TEMP', '℃', 18, 27, modbus(3, 0, 'int16', 0.1)),
      item('humidity', 'HUM', '%RH', 40, 60, modbus(3, 1, 'uint16', 0.1)),
    ],
  },
  {
    id: 21,
    key: 'modbusPowerMeter',
    category: 'power_meter',
    driver: 'modbus-tcp',
    items: [
      item('phaseVoltage', 'Ua', 'V', 198, 242, modbus(4, 0, 'float32')),
      item('phaseCurrent', 'Ia', 'A', 0, 80, modbus(4, 2, 'float32')),
      item('activePower', 'P', 'kW', 0, 50, modbus(4, 4, 'float32')),
      item('activeEnergy', 'EP', 'kWh', 0, 1e9, modbus(4, 6, 'uint32', 0.01)),
      item('switchState', 'SW1', '', null, null, modbus(1, 0, 'bool'), '0'),
    ],
  },
  {
    id: 22,
    key: 'modbusRtuTempHum',
    category: 'temp_hum',
    driver: 'modbus-rtu',
    items: [
      item('temperature', 'TEMP', '℃', 18, 27, modbus(3, 0, 'int16', 0.1)),
      item('humidity', 'HUM', '%RH', 40, 60, modbus(3, 1, 'uint16', 0.1)),
    ],
  },
  {
    id: 30,
    key: 'snmpHost',
    category: 'host',
    driver: 'snmp',
    items: [
      item('upTime', 'UPTIME', 's', 0, 1e10, snmp('1.3.6.1.2.1.1.3.0', 0.01)),
      item('load1', 'LOAD1', '', 0, 8, snmp('1.3.6.1.4.1.2021.10.1.3.1')),
      item('load5', 'LOAD5', '', 0, 8, snmp('1.3.6.1.4.1.2021.10.1.3.2')),
      item('load15', 'LOAD15', '', 0, 8, snmp('1.3.6.1.4.1.2021.10.1.3.3')),
      item('memAvailable', 'MEMAVAIL', 'kB', 0, 1e12, snmp('1.3.6.1.4.1.2021.4.6.0')),
    ],
  },
  {
    id: 31,
    key: 'snmpUps',
    category: 'ups',
    driver: 'snmp',
    items: [
      item('batteryCapacity', 'BATCAP', '%', 30, 100, snmp('1.3.6.1.2.1.33.1.2.4.0')),
      item('backupTime', 'BACKUP', 'min', 10, 600, snmp('1.3.6.1.2.1.33.1.2.3.0')),
      item('inputVoltage', 'UIa', 'V', 198, 242, snmp('1.3.6.1.2.1.33.1.3.3.1.3.1')),
      item('outputVoltage', 'UOa', 'V', 210, 230, snmp('1.3.6.1.2.1.33.1.4.4.1.2.1')),
      item('load', 'LOADa', '%', 0, 80, snmp('1.3.6.1.2.1.33.1.4.4.1.5.1')),
    ],
  },
  {
    id: 40,
    key: 'mqttTempHum',
    category: 'temp_hum',
    driver: 'mqtt',
    items: [
      item('temperature', 'TEMP', '℃', 18, 27, mqtt('temperature')),
      item('humidity', 'HUM', '%RH', 40, 60, mqtt('humidity')),
    ],
  },
];
