import type { TableName } from '../../src/area.ts';
import type { Db } from '../../src/db/kysely.ts';
import { encodeChunks } from '../../src/series/codec.ts';
import { fakeTokens, type TestApp } from './build-app.ts';
import { createUser } from './login.ts';
import { automationMakers } from './route-examples-automation.ts';
import { doorCard, doorController, doorSimulator } from './route-examples-door-access.ts';
import { videoMakers } from './route-examples-video.ts';
import type { Api, Estate, Side } from './site-estate.ts';

/**
 * How a row of each declared site-bound table is made on a side of the matrices' estate
 * (site-estate.ts), and again, fresh, for a call that spends its row: through the API where a
 * route makes it, else inserted as the engine or the store would. Every name of site B's rows
 * starts with the canary.
 */
/** What a maker of rows is given. */
export interface MakeContext {
  t: TestApp;
  api: Api;
  db: Db;
  estate: Estate;
}

/** A numeric item of a simulated device. */
export const itemBody = (device: number, name: string) => ({
  device_id: device,
  name,
  value_type: 1,
  threshold_min: 10,
  threshold_max: 30,
  overrun_point: 0,
  recovery_point: 1,
  source: { kind: 'simulator', model: 'analog', base: 20 },
});

let alarmIds = 9000;
let tariffs = 0;
const nextTariff = () => {
  tariffs += 1;
  return tariffs;
};
const alarmRow = (s: Side, id: number, now: number) => ({
  id,
  item_id: s.item,
  device_id: s.device,
  device_group_id: s.site,
  item_name: `${s.label}item`,
  device_name: `${s.label}device`,
  device_group_name: `${s.label}site`,
  kind: 'threshold',
  status: 2,
  level: 2,
  color: '#fa541c',
  info: `${s.label}alarm`,
  value: 40,
  start_time: now - 600,
  end_time: null,
  last_check: now - 600,
  handling: 0,
  remarks: '',
  confirmed_by: '',
  confirmed_at: null,
  notify_count: 0,
  escalated: 0,
});

const lastId = async (db: Db, table: 'duty_rotations' | 'duty_table' | 'energy_tariffs') =>
  (await db.kysely.selectFrom(table).select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;

/**
 * How a row of each site-bound table is made on a side (and again, fresh, for a call that spends it):
 * through the API where a route makes it, else inserted as the engine or the store would.
 */
export const makers: { [T in TableName]?: (c: MakeContext, s: Side) => Promise<number | undefined> } = {
  device_groups: async ({ api }, s) =>
    (await api('POST', 'setting/device_groups', { name: `${s.label}site`, weight: 1 })).id,
  devices: async ({ api }, s) =>
    (
      await api('POST', 'setting/devices', {
        name: `${s.label}device`,
        device_group_id: s.site,
        driver: 'simulator',
        code: 'temp_hum',
      })
    ).id,
  items: async ({ api }, s) => (await api('POST', 'setting/items', itemBody(s.device, `${s.label}item`))).id,
  alarms: async ({ db, estate }, s) => {
    alarmIds += 1;
    await db.kysely
      .insertInto('alarms')
      .values(alarmRow(s, alarmIds, estate.now))
      .execute();
    return alarmIds;
  },
  alarm_logs: async ({ db, estate }, s) => {
    const { id } = await db.kysely
      .insertInto('alarm_logs')
      .values({
        time: estate.now - 600,
        alarm_id: s.rows.alarms ?? 0,
        item_id: s.item,
        device_group_id: s.site,
        item_name: `${s.label}item`,
        device_name: `${s.label}device`,
        device_group_name: `${s.label}site`,
        state: 2,
        action: 'raise',
        result: 1,
        detail: `${s.label}log`,
        user_name: 'admin',
        attempts: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  },
  device_state_logs: async ({ db, estate }, s) => {
    const { id } = await db.kysely
      .insertInto('device_state_logs')
      .values({
        device_id: s.device,
        device_group_id: s.site,
        time: estate.now - 300,
        state: 4,
        prev_state: 1,
        reason: `${s.label}reason`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  },
  notification_logs: async ({ db, estate }, s) => {
    const { id } = await db.kysely
      .insertInto('notification_logs')
      .values({
        time: estate.now - 500,
        alarm_id: s.rows.alarms ?? 0,
        item_id: s.item,
        item_name: `${s.label}item`,
        device_name: `${s.label}device`,
        device_group_name: `${s.label}site`,
        state: 2,
        action: 'raise',
        channel: 'email',
        target: `${s.label}target@example.com`,
        result: 1,
        detail: '',
        attempts: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  },
  duty_shifts: async ({ api }, s) =>
    (
      await api('POST', 'on_duty_time_schedule', {
        name: `${s.label}shift`,
        start: '08:00',
        end: '20:00',
        device_group_id: s.site,
      })
    ).id,
  duty_rotations: async ({ api, db, estate }, s) => {
    await api('POST', 'on_duty_table/rotation', {
      shift_id: s.rows.duty_shifts,
      contact_ids: [estate.contact],
      start_date: estate.today,
      weeks: 1,
      horizon_weeks: 1,
    });
    return lastId(db, 'duty_rotations');
  },
  duty_table: async ({ api, db, estate }, s) => {
    await api('POST', 'on_duty_table', {
      date: estate.today,
      shift_id: s.rows.duty_shifts,
      contact_ids: [estate.contact],
    });
    return lastId(db, 'duty_table');
  },
  duty_memos: async ({ api, estate }, s) =>
    (
      await api('POST', 'on_duty_memorandum', {
        date: estate.today,
        content: `${s.label}memo`,
        device_group_id: s.site,
      })
    ).id,
  duty_handovers: async ({ api, estate }, s) =>
    (
      await api('POST', 'on_duty_handover', {
        successor_id: estate.colleague,
        events: `${s.label}handover`,
        device_group_id: s.site,
      })
    ).id,
  // Door access (docs/door-access.md): a controller at the shared loopback simulator, its first
  // door, a card with permission over it, that permission, and a log row.
  door_controllers: async ({ api }, s) =>
    (await api('POST', 'access_control/device', doorController(s, (await doorSimulator()).port))).id,
  door_doors: async ({ db }, s) =>
    (
      await db.kysely
        .selectFrom('door_doors')
        .select('id')
        .where('controller_id', '=', s.rows.door_controllers ?? 0)
        .orderBy('number')
        .executeTakeFirstOrThrow()
    ).id,
  door_cards: async ({ api }, s) =>
    (await api('POST', 'access_control/card', doorCard(s, s.rows.door_doors ? [s.rows.door_doors] : []))).id,
  door_permissions: async ({ db }, s) =>
    (
      await db.kysely
        .selectFrom('door_permissions')
        .select('id')
        .where('card_id', '=', s.rows.door_cards ?? 0)
        .executeTakeFirstOrThrow()
    ).id,
  door_logs: async ({ db, estate }, s) =>
    (
      await db.kysely
        .insertInto('door_logs')
        .values({
          controller_id: s.rows.door_controllers ?? 0,
          device_group_id: s.site,
          event_index: 1,
          kind: 'swipe',
          granted: 1,
          door: 1,
          direction: 'in',
          card: 0,
          time: estate.now - 60,
          reason: 1,
          gap_to: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  electrical_meters: async ({ api }, s) => {
    await api('PUT', `electricity_safe/meters/${s.device}`, {});
    return s.device;
  },
  energy_tariffs: async ({ api, db }, s) => {
    await api('POST', 'stairstep', {
      name: `${s.name} tariff ${nextTariff()}`,
      gradients: [{ start: 0, end: null, price: 1 }],
    });
    return lastId(db, 'energy_tariffs');
  },
  energy_meters: async ({ api }, s) =>
    (
      await api('POST', 'setting/energy', {
        name: `${s.label}meter`,
        item_id: s.item2,
        kind: 'counter',
        category: 'total',
        device_group_id: s.site,
      })
    ).id,
  // The tariff is global: one for both sites.
  energy_tariff_sets: async (c, s) => {
    c.estate.globals.energy_tariffs ??= await makers.energy_tariffs!(c, s);
    const set = { tariff_id: c.estate.globals.energy_tariffs, valid_from: 0 };
    return (await c.api('PUT', `energy_cost_set/${s.site}`, set)).id;
  },
  energy_hours: async ({ db, estate }, s) => {
    const row = {
      meter_id: s.rows.energy_meters!,
      ts: estate.now - (estate.now % 3600) - 3600,
      kwh: 1.5,
      estimated: 0,
    };
    await db.kysely.insertInto('energy_hours').values(row).execute();
    return undefined;
  },
  energy_days: async ({ db, estate }, s) => {
    const row = {
      meter_id: s.rows.energy_meters!,
      ts: estate.now - (estate.now % 86400) - 86400,
      kwh: 36,
      estimated: 0,
    };
    await db.kysely
      .insertInto('energy_days')
      .values({ ...row, hours: '[]' })
      .execute();
    return undefined;
  },
  energy_events: async ({ db, estate }, s) => {
    const row = {
      meter_id: s.rows.energy_meters!,
      ts: estate.now - 1800,
      rule: 'reset',
      from_value: 9,
      to_value: 1,
      kwh: 1,
    };
    await db.kysely.insertInto('energy_events').values(row).execute();
    return undefined;
  },
  energy_fill: async ({ db, estate }, s) => {
    const row = { meter_id: s.rows.energy_meters!, last_ts: estate.now - 60, last_count: 10, dirty_from: null };
    await db.kysely.insertInto('energy_fill').values(row).execute();
    return undefined;
  },
  inspection_plans: async ({ api, estate }, s) =>
    (
      await api('POST', 'setting/intelligent_inspection', {
        name: `${s.label}plan`,
        device_group_ids: [s.site],
        rule: 'daily',
        start_time: estate.now + 3600,
      })
    ).id,
  inspection_reports: async ({ api }, s) =>
    (await api('POST', 'inspection/manual', { device_group_ids: [s.site], summary: `${s.label}report` })).id,
  data_history_templates: async ({ api }, s) =>
    (await api('POST', 'data_history_template', { name: `${s.label}template`, item_ids: [s.item], site_id: s.site }))
      .id,
  sample_chunks: async ({ db, estate }, s) => {
    const ts = new Float64Array([(estate.now - 120) * 1000, (estate.now - 60) * 1000]);
    const [data] = encodeChunks(ts, new Float64Array([21, 22]), [0, 2]);
    const row = { item_id: s.item, t0: ts[0]!, t1: ts[1]!, n: 2, data: data! };
    await db.kysely.insertInto('sample_chunks').values(row).execute();
    return undefined;
  },
  samples_1m: async ({ db, estate }, s) => {
    const row = { item_id: s.item, ts: estate.now - (estate.now % 60) - 60, min: 21, max: 22, sum: 43, count: 2 };
    await db.kysely.insertInto('samples_1m').values(row).execute();
    return undefined;
  },
  samples_1h: async ({ db, estate }, s) => {
    const row = { item_id: s.item, ts: estate.now - (estate.now % 3600) - 3600, min: 20, max: 23, sum: 43, count: 2 };
    await db.kysely.insertInto('samples_1h').values(row).execute();
    return undefined;
  },
  top_view_backgrounds: async ({ api, estate }, s) =>
    (await api('POST', 'setting/top_view/background', { device_group_id: s.site, background: estate.image })).id,
  top_view_components: async ({ api, db, estate }, s) => {
    await api('PUT', 'setting/top_view/device', {
      device_group_id: s.site,
      background: { background: estate.image },
      components: [
        {
          device_id: s.device,
          width: 10,
          height: 10,
          top: 0,
          left: 0,
          item_ids: [s.item],
          extend: { component: 'Cdefault', label: `${s.label}component` },
        },
      ],
    });
    const row = await db.kysely
      .selectFrom('top_view_components')
      .select('id')
      .where('device_group_id', '=', s.site)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  },
  // A picture's background names the estate's image: the site's use of it.
  top_view_image_uses: async ({ api, estate }, s) => {
    await api('POST', 'setting/top_view/background', { device_group_id: s.site, type: 1, background: estate.image });
    return undefined;
  },
  role_sites: async ({ api, db, estate }, s) => {
    // Roles are global (their list shows every role): the name is no site's.
    const role = await api('POST', 'setting/roles', {
      name: `role of site ${s.name}`,
      site_ids: [s.site],
      menu_ids: [estate.menu],
      function_ids: [estate.func],
    });
    s.rows.roles = role.id;
    // A user of the site (their role's), blocked once: the users area's rows of each side.
    s.rows.users = await createUser(db, `user-of-${s.name}`, 'Some-Pass-123', [role.id]);
    await api('POST', 'setting/account_blocks', { user_ids: [s.rows.users], reason: 'estate', days: 1 });
    s.rows.account_blocks = (
      await db.kysely
        .selectFrom('account_blocks')
        .select('id')
        .where('user_id', '=', s.rows.users)
        .executeTakeFirstOrThrow()
    ).id;
    return role.id;
  },
  work_orders: async ({ api }, s) =>
    (
      await api('POST', 'work_order', {
        description: `${s.label}order`,
        priority: 2,
        handler_id: 1,
        reviewer_id: 1,
        deadline_hours: 2,
        device_group_id: s.site,
      })
    ).id,
  work_order_history: async ({ db }, s) =>
    (
      await db.kysely
        .selectFrom('work_order_history')
        .select('id')
        .where('order_id', '=', s.rows.work_orders!)
        .executeTakeFirstOrThrow()
    ).id,
  work_order_files: async ({ db, estate }, s) => {
    const { id } = await db.kysely
      .insertInto('work_order_files')
      .values({
        order_id: s.rows.work_orders!,
        file: `${'f'.repeat(31)}${s.name === 'A' ? 'a' : 'b'}.png`,
        name: `${s.label}file.png`,
        content_type: 'image/png',
        size: 4,
        user_id: 1,
        created_at: estate.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  },
  work_order_sets: async ({ api }, s) =>
    (await api('PUT', 'work_order_set/0', dispatchRule(`${s.label}rule`, [s.site]))).id,
  ...automationMakers,
  ...videoMakers,
};

/** A dispatch rule over `sites` (none: every site). */
export const dispatchRule = (name: string, sites: number[]) => ({
  name,
  enable: true,
  levels: [1, 2, 3, 4, 5],
  device_group_ids: sites,
  handler_id: 1,
  reviewer_id: 1,
  priority: 2,
  deadline_hours: 2,
  require_recovered: false,
});

/** The order tables are made in: a row after the rows it stands on. */
export const makeOrder: TableName[] = [
  'alarms',
  'alarm_logs',
  'notification_logs',
  'device_state_logs',
  'duty_shifts',
  'duty_rotations',
  'duty_table',
  'duty_memos',
  'duty_handovers',
  'electrical_meters',
  'energy_meters',
  'energy_tariff_sets',
  'energy_hours',
  'energy_days',
  'energy_events',
  'energy_fill',
  'inspection_plans',
  'inspection_reports',
  'data_history_templates',
  'sample_chunks',
  'samples_1m',
  'samples_1h',
  'top_view_components',
  'top_view_backgrounds',
  'top_view_image_uses',
  'role_sites',
  'work_orders',
  'work_order_history',
  'work_order_files',
  'work_order_sets',
  'automation_actions',
  'automation_runs',
  'automation_linkages',
  'automation_tasks',
  'automation_task_log',
  'video_devices',
  'door_controllers',
  'door_doors',
  'door_cards',
  'door_permissions',
  'door_logs',
];

export type Maker = (c: MakeContext, s: Side) => Promise<number | undefined>;

let made = 0;
/** A name no other row has (makers run more than once). */
export const unique = (what: string) => {
  made += 1;
  return `${what} ${made}`;
};

/** A user with a known password and a token of the fake authenticator (its own calls). */
export const ownUser = async ({ db }: MakeContext) => {
  const name = unique('own').replace(' ', '-');
  const id = await createUser(db, name, 'Own-Pass-123');
  fakeTokens[`${name}-token`] = { user_id: id, user_name: name, session_id: 20_000 + id };
  return { id, name, token: `${name}-token` };
};

/** Rows of global tables the calls name, made on first use (and again for a call that spends one). */
export const globalMakers: { [T in TableName]?: Maker } = {
  time_periods: async ({ api }) =>
    (
      await api('POST', 'setting/time_periods', {
        name: unique('hours'),
        ranges: [{ weekdays: [1], start: '08:00', end: '18:00' }],
      })
    ).id,
  device_templates: async ({ api }) =>
    (
      await api('POST', 'setting/device_templates', {
        name: unique('template'),
        category_code: 'temp_hum',
        driver: 'simulator',
        items: [
          {
            name: 'T',
            value_type: 1,
            threshold_min: 0,
            threshold_max: 50,
            source: { kind: 'simulator', model: 'analog', base: 20 },
          },
        ],
      })
    ).id,
  contacts: async ({ api }) =>
    (await api('POST', 'setting/contacts', { name: unique('contact'), sms_number: '13800000009' })).id,
  contact_groups: async ({ api, estate }) =>
    (await api('POST', 'setting/contact_groups', { name: unique('group'), contact_ids: [estate.contact] })).id,
  notify_channels: async ({ api, estate }) =>
    (
      await api('POST', 'setting/alarm_push', {
        name: unique('hook'),
        kind: 'webhook',
        config: { url: estate.hook },
      })
    ).id,
  alarm_levels: async ({ api }) =>
    (await api('POST', 'setting/alarm_levels', { name: unique('level'), level: 5, color: '#123456' })).id,
  users: async (c) => (await ownUser(c)).id,
  user_groups: async ({ api }) => (await api('POST', 'setting/user_groups', { name: unique('user group') })).id,
  roles: async ({ api, estate }, s) =>
    (
      await api('POST', 'setting/roles', {
        name: unique('role'),
        site_ids: [s.site],
        menu_ids: [estate.menu],
        function_ids: [estate.func],
      })
    ).id,
  account_blocks: async (c) => {
    const user = await ownUser(c);
    await c.api('POST', 'setting/account_blocks', { user_ids: [user.id], reason: 'test', days: 1 });
    const row = await c.db.kysely
      .selectFrom('account_blocks')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    return row.id;
  },
  api_tokens: async ({ api }) => (await api('POST', 'user/api_tokens', { name: unique('token') })).id,
  device_tokens: async ({ db, estate }) => {
    const { id } = await db.kysely
      .insertInto('device_tokens')
      .values({
        user_id: 1,
        token_hash: unique('hash'),
        period: 2,
        expires_at: null,
        ip: '127.0.0.1',
        user_agent: 'matrix',
        created_at: estate.now,
        last_used_at: null,
        revoked_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  },
};
