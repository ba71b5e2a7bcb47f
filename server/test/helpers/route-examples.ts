import type { TableName } from '../../src/area.ts';
import { dispatchRule, itemBody, type MakeContext, type Maker, ownUser, unique } from './estate-rows.ts';
import { testLicenceCode } from './licence-keys.ts';
import { automationRoutes } from './route-examples-automation.ts';
import { brandingRoutes, recoveryRoutes } from './route-examples-branding.ts';
import { doorAccessRoutes } from './route-examples-door-access.ts';
import { systemRoutes } from './route-examples-system.ts';
import { timeNetworkRoutes } from './route-examples-time-network.ts';
import { videoRoutes } from './route-examples-video.ts';
import { type Estate, multipartFile, png, type Side, uploadImage } from './site-estate.ts';

/** What a route's call was given by its `prepare` (rows it needs, made first). */
export type Prepared = Record<string, string | number>;

/** How a route is called where its schema alone does not say (route-calls.ts). */
export interface Example {
  /**
   * The table of the route's rows: the one whose row the path's `:id` names (the site matrix tries
   * site B's rows of it), or the one a create writes. A global table makes the route global.
   */
  table?: TableName;
  /** How the row `:id` names is made, where the table's maker does not fit this route. */
  make?: Maker;
  /** The administrator's call uses up its row (a delete, a review): a fresh one is made for it. */
  fresh?: boolean;
  /** Global rows made before the body is written (it names them from `e.globals`). */
  needs?: TableName[];
  /**
   * Made before the call, as the administrator, once for the route (both sides' calls share it, so
   * what it makes never tells the sides apart): what the call needs besides rows.
   */
  prepare?: (c: MakeContext) => Promise<Prepared>;
  params?: (s: Side, e: Estate, p: Prepared) => Record<string, string | number>;
  /** The whole body, instead of the generated one. */
  body?: (s: Side, e: Estate, p: Prepared) => unknown;
  /** Fields laid over the generated body. */
  patch?: (s: Side, e: Estate, p: Prepared) => Record<string, unknown>;
  query?: (s: Side, e: Estate, p: Prepared) => Record<string, string | number>;
  /** A multipart upload instead of a JSON body. */
  upload?: (s: Side, e: Estate, p: Prepared) => { payload: Buffer; headers: Record<string, string> };
  /** The caller, for routes on the caller's own things: a fake authenticator's token, or the one `prepare` made. */
  token?: string | 'prepared';
}

const tariff = (mode: 'stair' | 'time' | 'both', name: string) => ({
  name,
  ...(mode !== 'time' ? { gradients: [{ start: 0, end: null, price: 1 }] } : {}),
  ...(mode !== 'stair' ? { slots: [{ start: '00:00', end: '24:00', band: 'flat', price: 1 }] } : {}),
});

const ldapSettings = (s: Side, e: Estate) => ({
  enabled: true,
  url: e.directory?.url ?? 'ldap://127.0.0.1:389',
  start_tls: false,
  tls_reject_unauthorized: true,
  bind_dn: e.directory?.bindDn ?? '',
  bind_password: e.directory?.password ?? '',
  base_dn: e.directory?.base ?? 'dc=sitewatch,dc=test',
  user_filter: '(uid={{username}})',
  attr_user_name: 'uid',
  attr_alias: 'cn',
  attr_email: 'mail',
  attr_phone: 'telephoneNumber',
  default_role_ids: [s.rows.roles],
  default_user_group_id: 1,
  auto_create: false,
  timeout_seconds: 5,
});

/** An item of the side's device (the catalogue's own). */
const item = (s: Side) => itemBody(s.device, 'catalogue item');

/** The route's own calls, by `METHOD /api/v1/path` as the app records it. */
const routes: Record<string, Example> = {
  ...systemRoutes,
  ...automationRoutes,
  ...videoRoutes,
  ...brandingRoutes,
  ...recoveryRoutes,
  ...timeNetworkRoutes,
  ...doorAccessRoutes,
  // ---------- reads that name a row ----------
  'GET /api/v1/setting/device_groups/:id': { table: 'device_groups' },
  'GET /api/v1/setting/device_templates/:id': { table: 'device_templates' },
  'GET /api/v1/setting/device_templates/:id/points': { table: 'device_templates', query: () => ({ format: 'csv' }) },
  'GET /api/v1/setting/devices/:id': { table: 'devices' },
  'GET /api/v1/setting/devices/:id/points': { table: 'devices', query: () => ({ format: 'csv' }) },
  'GET /api/v1/setting/items/:id': { table: 'items' },
  'GET /api/v1/series/items/:id': { table: 'items' },
  'GET /api/v1/setting/users/:id': { table: 'users' },
  'GET /api/v1/setting/user_groups/:id': { table: 'user_groups' },
  'GET /api/v1/setting/roles/:id': { table: 'roles' },
  'GET /api/v1/setting/contacts/:id': { table: 'contacts' },
  'GET /api/v1/setting/contact_groups/:id': { table: 'contact_groups' },
  'GET /api/v1/setting/alarm_push/:id': { table: 'notify_channels' },
  'GET /api/v1/inspection/report/:id': { table: 'inspection_reports' },
  'GET /api/v1/inspection/report/:id/export': { table: 'inspection_reports' },
  'GET /api/v1/setting/intelligent_inspection/:id': { table: 'inspection_plans' },
  'GET /api/v1/trend': {
    query: (s) => ({ device_name: `simulator_${s.device}`, item_name: `${s.label}item` }),
  },
  'GET /api/v1/work_order_info': { query: (s) => ({ id: s.rows.work_orders ?? 0 }) },
  'GET /api/v1/work_order/of_alarms': { query: (s) => ({ alarm_ids: s.rows.alarms ?? 0 }) },
  'GET /api/v1/user/roles': { query: (s) => ({ user_id: s.rows.users ?? 0 }) },
  'GET /api/v1/setting/top_view/file/:name': { params: (_s, e) => ({ name: e.image.split('/').pop()! }) },
  'GET /api/v1/work_order/file/:name': { params: (s) => ({ name: workOrderFile(s) }) },

  // ---------- monitoring ----------
  'PUT /api/v1/setting/device_groups/:id': { table: 'device_groups', patch: () => ({ name: 'edited site' }) },
  'DELETE /api/v1/setting/device_groups/:id': { table: 'device_groups', fresh: true },
  'POST /api/v1/setting/device_groups/:id/copy': { table: 'device_groups', body: () => ({ count: 1 }) },
  // A sub-site of the side's site (a top-level one needs every site).
  'POST /api/v1/setting/device_groups': { patch: (s) => ({ parent_id: s.site }) },
  'DELETE /api/v1/setting/device_groups': {
    prepare: async ({ api }) => ({
      site: (await api('POST', 'setting/device_groups', { name: unique('site'), weight: 1 })).id,
    }),
    query: (s, _e, p) => ({ ids: s.name === 'A' ? (p.site ?? 0) : s.site }),
  },
  'PUT /api/v1/setting/categorys/:code': {
    table: 'categorys',
    params: () => ({ code: 'temp_hum' }),
    body: () => ({ name: '温湿度', enable: true, weight: 1 }),
  },
  'POST /api/v1/setting/device_templates': {
    table: 'device_templates',
    body: () => ({ name: 'catalogue template', category_code: 'temp_hum', driver: 'simulator', items: [] }),
  },
  'PUT /api/v1/setting/device_templates/:id': {
    table: 'device_templates',
    body: () => ({ name: 'renamed template', category_code: 'temp_hum', driver: 'simulator', items: [] }),
  },
  'DELETE /api/v1/setting/device_templates/:id': { table: 'device_templates', fresh: true },
  'POST /api/v1/setting/devices': { patch: () => ({ code: 'temp_hum' }) },
  'PUT /api/v1/setting/devices/:id': {
    table: 'devices',
    patch: () => ({ name: 'edited device', code: 'temp_hum' }),
  },
  'DELETE /api/v1/setting/devices/:id': { table: 'devices', fresh: true, make: (c, s) => makeDevice(c, s) },
  'POST /api/v1/setting/devices/:id/copy': { table: 'devices', body: () => ({ count: 1 }) },
  'PUT /api/v1/setting/devices/bulk': { body: (s) => ({ ids: [s.device], enable: true }) },
  'POST /api/v1/setting/devices/:id/points': {
    table: 'devices',
    // Updates site A's counter by its name: on another device it names nothing there.
    body: () => ({ format: 'csv', content: 'name,unit\r\nA-counter,kWh\r\n' }),
  },
  'POST /api/v1/setting/items': { body: (s) => item(s) },
  'PUT /api/v1/setting/items/:id': { table: 'items', body: (s) => ({ ...item(s), name: 'edited item' }) },
  'DELETE /api/v1/setting/items/:id': {
    table: 'items',
    fresh: true,
    make: async ({ api }, s) => (await api('POST', 'setting/items', { ...item(s), name: unique('item') })).id,
  },
  'PUT /api/v1/setting/items/bulk': { body: (s) => ({ ids: [s.item], set: { threshold_max: 31 } }) },
  'POST /api/v1/setting/time_periods': { table: 'time_periods' },
  'POST /api/v1/setting/serial_port': { table: 'serial_ports' },
  'PUT /api/v1/setting/time_periods/:id': {
    table: 'time_periods',
    body: () => ({ name: 'every day', ranges: [{ weekdays: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59' }] }),
  },
  'DELETE /api/v1/setting/time_periods/:id': { table: 'time_periods', fresh: true },
  'PUT /api/v1/device_groups/device/item': { body: (s) => ({ item_id: s.item, value: 21 }) },

  // ---------- series, reports ----------
  'DELETE /api/v1/data_history_template/:id': { table: 'data_history_templates', fresh: true },

  // ---------- auth, tokens, settings ----------
  'POST /api/v1/setting/gc': {
    body: () => ({ k: 'OUTBOUND', v: { allow: ['127.0.0.0/8', '::1'], deny: [] } }),
  },
  'POST /api/v1/pub/license': {
    // A permanent code with quotas far above any estate, for this installation's serial number.
    prepare: async ({ api }) => ({ sn: (await api('GET', 'pub/license')).sn }),
    body: (_s, _e, p) => ({ code: testLicenceCode(String(p.sn)) }),
  },
  'POST /api/v1/pub/login/safe': {
    body: (_s, e) => ({
      user_name: e.encrypt('admin'),
      password: e.encrypt(e.password),
      captcha_id: '',
      captcha_code: '',
    }),
  },
  'POST /api/v1/pub/login/auto': {
    prepare: async ({ t, estate }) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/pub/login/safe',
        payload: {
          user_name: estate.encrypt('admin'),
          password: estate.encrypt(estate.password),
          captcha_id: '',
          captcha_code: '',
          auto_login_period: 2,
        },
      });
      return { token: res.json().data.device_token };
    },
    body: (_s, _e, p) => ({ device_token: p.token }),
  },
  'PUT /api/v1/user/password': {
    prepare: async (c) => ownUser(c),
    token: 'prepared',
    body: (_s, e) => ({ old_password: e.encrypt('Own-Pass-123'), new_password: e.encrypt('Own-Pass-456!x') }),
  },
  'PUT /api/v1/user/password_without_login': {
    prepare: async (c) => ownUser(c),
    body: (_s, e, p) => ({
      user_name: p.name,
      old_password: e.encrypt('Own-Pass-123'),
      new_password: e.encrypt('Own-Pass-789!y'),
      captcha_id: '',
      captcha_code: '',
    }),
  },
  'DELETE /api/v1/user/device_tokens/:id': { table: 'device_tokens', fresh: true },
  'DELETE /api/v1/user/api_tokens/:id': { table: 'api_tokens', fresh: true },

  // ---------- users ----------
  'POST /api/v1/setting/users': {
    body: (s, e) => ({
      user_name: 'catalogue-user',
      alias: 'catalogue',
      password: e.encrypt('Catalogue-Pass-1'),
      role_ids: [s.rows.roles],
      user_group_ids: [1],
    }),
  },
  'PUT /api/v1/setting/users/:id': {
    table: 'users',
    body: (s) => ({ alias: 'edited', role_ids: [s.rows.roles], user_group_ids: [1] }),
  },
  'DELETE /api/v1/setting/users/:id': { table: 'users', fresh: true },
  'POST /api/v1/setting/user_groups': { table: 'user_groups' },
  'PUT /api/v1/setting/user_groups/:id': { table: 'user_groups', body: () => ({ name: 'renamed group' }) },
  'DELETE /api/v1/setting/user_groups/:id': { table: 'user_groups', fresh: true },
  'POST /api/v1/setting/roles': {
    body: (s, e) => ({ name: 'catalogue role', site_ids: [s.site], menu_ids: [e.menu], function_ids: [e.func] }),
  },
  'PUT /api/v1/setting/roles/:id': {
    table: 'roles',
    body: (s, e) => ({ name: 'edited role', site_ids: [s.site], menu_ids: [e.menu], function_ids: [e.func] }),
  },
  'DELETE /api/v1/setting/roles/:id': { table: 'roles', fresh: true },
  // The side's user (who holds the side's role) is blocked.
  'POST /api/v1/setting/account_blocks': { body: (s) => ({ user_ids: [s.rows.users], reason: 'test', days: 1 }) },
  'DELETE /api/v1/setting/account_blocks/:id': { table: 'account_blocks', fresh: true },
  'DELETE /api/v1/operation_record': { body: (_s, e) => ({ verify_password: e.encrypt(e.password) }) },
  'PUT /api/v1/setting/ldap': { body: (s, e) => ldapSettings(s, e) },
  // A connection test saves nothing: the roles it names are the administrator's side's.
  'POST /api/v1/setting/ldap/test': { body: (_s, e) => ldapSettings(e.a, e) },
  'POST /api/v1/setting/ldap/import': {
    prepare: async ({ api, estate }) => {
      await api('PUT', 'setting/ldap', ldapSettings(estate.a, estate));
      return {};
    },
    body: () => ({ user_names: ['ldap-user'] }),
  },
  'POST /api/v1/pub/login/ldap': {
    prepare: async ({ api, estate }) => {
      await api('PUT', 'setting/ldap', { ...ldapSettings(estate.a, estate), auto_create: true });
      return {};
    },
    body: (_s, e) => ({
      user_name: e.encrypt('ldap-user'),
      password: e.encrypt('Ldap-Pass-123'),
      captcha_id: '',
      captcha_code: '',
    }),
  },

  // ---------- alarms, notify ----------
  'POST /api/v1/setting/alarm_levels': {
    table: 'alarm_levels',
    body: () => ({ name: 'catalogue level', level: 5, color: '#123456' }),
  },
  'PUT /api/v1/setting/alarm_levels/:id': {
    table: 'alarm_levels',
    body: () => ({ name: 'renamed level', level: 5, color: '#654321' }),
  },
  'DELETE /api/v1/setting/alarm_levels/:id': { table: 'alarm_levels', fresh: true },
  'PUT /api/v1/setting/alarm_commons': { table: 'alarm_settings' },
  'POST /api/v1/warning_operation': {
    body: (s) => ({ alarm_action: 0, remarks: 'seen', item_id: s.item, status_id: s.rows.alarms }),
  },
  'DELETE /api/v1/alarm_log': { body: (_s, e) => ({ verify_password: e.encrypt(e.password) }) },
  'DELETE /api/v1/notification_log': { body: (_s, e) => ({ verify_password: e.encrypt(e.password) }) },
  'POST /api/v1/setting/contacts': { table: 'contacts' },
  'POST /api/v1/setting/contact_groups': { table: 'contact_groups' },
  'PUT /api/v1/setting/contacts/:id': {
    table: 'contacts',
    body: () => ({ name: 'renamed contact', sms_number: '13800000008' }),
  },
  'DELETE /api/v1/setting/contacts/:id': { table: 'contacts', fresh: true },
  'PUT /api/v1/setting/contact_groups/:id': {
    table: 'contact_groups',
    body: (_s, e) => ({ name: 'renamed group', contact_ids: [e.contact] }),
  },
  'DELETE /api/v1/setting/contact_groups/:id': { table: 'contact_groups', fresh: true },
  'POST /api/v1/setting/alarm_push': {
    table: 'notify_channels',
    body: (_s, e) => ({ name: 'catalogue hook', kind: 'webhook', config: { url: e.hook } }),
  },
  'PUT /api/v1/setting/alarm_push/:id': {
    table: 'notify_channels',
    body: (_s, e) => ({ name: 'renamed hook', kind: 'webhook', config: { url: `${e.hook}2` } }),
  },
  'DELETE /api/v1/setting/alarm_push/:id': { table: 'notify_channels', fresh: true },
  'POST /api/v1/setting/alarm_push/:id/test': { table: 'notify_channels' },
  'PUT /api/v1/setting/email_service': { table: 'alarm_settings' },
  'POST /api/v1/setting/email_service': { table: 'alarm_settings', body: () => ({ to: 'ops@example.com' }) },
  'PUT /api/v1/setting/notice_tpl': { table: 'alarm_settings' },
  'PUT /api/v1/setting/recover_tpl': { table: 'alarm_settings' },

  // ---------- site map ----------
  'POST /api/v1/setting/top_view/background': { body: (s, e) => ({ device_group_id: s.site, background: e.image }) },
  'PUT /api/v1/setting/top_view/background/:id': {
    table: 'top_view_backgrounds',
    // A picture's save replaces its background: the one of now.
    make: async ({ db }, s) =>
      (
        await db.kysely
          .selectFrom('top_view_backgrounds')
          .select('id')
          .where('device_group_id', '=', s.site)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      ).id,
    body: (s, e) => ({ device_group_id: s.site, background: e.image }),
  },
  'PUT /api/v1/setting/top_view/device': {
    body: (s, e) => ({ device_group_id: s.site, background: { background: e.image }, components: [] }),
  },
  'DELETE /api/v1/setting/top_view/device/:id': {
    table: 'device_groups',
    fresh: true,
    make: async (c) => {
      const site = (await c.api('POST', 'setting/device_groups', { name: unique('site'), weight: 1 })).id;
      await c.api('POST', 'setting/top_view/background', { device_group_id: site, background: c.estate.image });
      return site;
    },
  },
  'POST /api/v1/pub/top_view/ticket': {
    prepare: async ({ api }) => ({ ticket: (await api('POST', 'setting/top_view/ticket', {})).ticket }),
    body: (_s, _e, p) => ({ ticket: p.ticket }),
  },
  'POST /api/v1/setting/top_view/image_backgroup': {
    upload: () => multipartFile('image', 'back.png', png, 'image/png'),
  },
  'POST /api/v1/setting/top_view/normal_icon': { upload: () => multipartFile('image', 'icon.png', png, 'image/png') },
  // The library is global rows; who may see and delete which image is site-map-library.int.test.ts.
  'DELETE /api/v1/setting/top_view/images/:id': {
    table: 'top_view_images',
    fresh: true,
    make: async ({ t, db }) => {
      const file = (await uploadImage(t)).split('/').pop()!;
      const row = await db.kysely
        .selectFrom('top_view_images')
        .select('id')
        .where('file', '=', file)
        .executeTakeFirst();
      return row!.id;
    },
  },
  'PUT /api/v1/gis': { body: (s) => ({ sites: [{ id: s.site, longitude: 120, latitude: 30 }] }) },

  // ---------- inspection ----------
  'POST /api/v1/inspection/report/:id/review': {
    table: 'inspection_reports',
    fresh: true,
    body: () => ({ result: 'passed', comment: '' }),
  },
  'PUT /api/v1/setting/intelligent_inspection/:id': {
    table: 'inspection_plans',
    patch: () => ({ name: 'edited plan', start_time: 4_000_000_000 }),
  },
  'DELETE /api/v1/setting/intelligent_inspection/:id': { table: 'inspection_plans', fresh: true },
  'POST /api/v1/setting/intelligent_inspection': { patch: () => ({ start_time: 4_000_000_000 }) },

  // ---------- energy ----------
  'POST /api/v1/setting/energy': { patch: (s) => ({ item_id: s.item }) },
  'PUT /api/v1/setting/energy/:id': {
    table: 'energy_meters',
    patch: (s) => ({ name: 'edited meter', item_id: s.item2 }),
  },
  'DELETE /api/v1/setting/energy/:id': {
    table: 'energy_meters',
    fresh: true,
    make: async ({ api }, s) => {
      const counter = await api('POST', 'setting/items', { ...item(s), name: unique('counter') });
      const meter = {
        name: unique('meter'),
        item_id: counter.id,
        kind: 'counter',
        category: 'it',
        device_group_id: s.site,
      };
      return (await api('POST', 'setting/energy', meter)).id;
    },
  },
  'PUT /api/v1/energy_cost_set/:id': {
    table: 'device_groups',
    needs: ['energy_tariffs'],
    body: (_s, e) => ({ tariff_id: e.globals.energy_tariffs, valid_from: 3600 }),
  },
  ...tariffCrud('stairstep', 'stair'),
  ...tariffCrud('time_sharing_system', 'time'),
  ...tariffCrud('stemp_time', 'both'),

  // ---------- duty ----------
  'POST /api/v1/on_duty_table': {
    body: (s, e) => ({ date: e.today, shift_id: s.rows.duty_shifts, contact_ids: [e.contact] }),
  },
  'POST /api/v1/on_duty_table/rotation': {
    body: (s, e) => ({
      shift_id: s.rows.duty_shifts,
      contact_ids: [e.contact],
      start_date: e.today,
      weeks: 1,
      horizon_weeks: 1,
    }),
  },
  'PUT /api/v1/on_duty_time_schedule/:id': { table: 'duty_shifts', patch: () => ({ name: 'edited shift' }) },
  'DELETE /api/v1/on_duty_time_schedule/:id': { table: 'duty_shifts', fresh: true },
  'DELETE /api/v1/on_duty_table/:id': { table: 'duty_table', fresh: true },
  'PUT /api/v1/on_duty_memorandum/:id': { table: 'duty_memos', patch: () => ({ content: 'edited memo' }) },
  'DELETE /api/v1/on_duty_memorandum/:id': { table: 'duty_memos', fresh: true },
  'POST /api/v1/on_duty_handover': { patch: (_s, e) => ({ successor_id: e.colleague }) },
  'PUT /api/v1/on_duty_handover/:id': {
    table: 'duty_handovers',
    fresh: true,
    // Confirmed by its successor: a handover to the administrator.
    make: async ({ api, estate }, s) =>
      (
        await api(
          'POST',
          'on_duty_handover',
          { successor_id: 1, events: 'to admin', device_group_id: s.site },
          estate.colleagueToken,
        )
      ).id,
    body: () => ({}),
  },
  'DELETE /api/v1/on_duty_handover/:id': { table: 'duty_handovers', fresh: true },

  // ---------- work orders ----------
  'PUT /api/v1/work_order/:id': { table: 'work_orders', fresh: true, body: () => ({ action: 'receive' }) },
  'DELETE /api/v1/work_order/:id': { table: 'work_orders', fresh: true },
  'PUT /api/v1/work_order_set/:id': { table: 'work_order_sets', body: (s) => dispatchRule('edited rule', [s.site]) },
  'POST /api/v1/work_order/file': {
    // Files go on a received order: site A's is received first.
    prepare: async ({ api, estate }) => {
      await api('PUT', `work_order/${estate.a.rows.work_orders}`, { action: 'receive' }).catch(() => undefined);
      return {};
    },
    upload: (s) => {
      const { payload, headers } = multipartFile('file', 'photo.png', png, 'image/png');
      const boundary = headers['content-type'].split('boundary=')[1]!;
      const field = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n${s.rows.work_orders}\r\n`,
      );
      return { payload: Buffer.concat([field, payload]), headers };
    },
  },

  // ---------- electrical safety ----------
  'PUT /api/v1/electricity_safe/meters/:id': {
    table: 'devices',
    body: (s) => ({ switches: [{ item_id: s.item, name: 'switch' }] }),
  },
  'DELETE /api/v1/electricity_safe/meters/:id': { table: 'devices', fresh: true, make: (c, s) => makeDevice(c, s) },
  'PUT /api/v1/setting/power_safety_settings': { body: () => ({ control_enabled: false, limits: {} }) },
  'POST /api/v1/electricity_safe/switch_opt': {
    prepare: async ({ api, estate }) => {
      await api('PUT', 'setting/power_safety_settings', {
        control_enabled: true,
        limits: {},
        new_password: estate.encrypt('Switch-Pass-1'),
        old_password: estate.encrypt('Switch-Pass-1'),
      });
      return {};
    },
    body: (s, e) => ({ item_id: s.item, value: 1, password: e.encrypt('Switch-Pass-1') }),
  },
};

/** The stored name of the side's work-order file (site-estate.ts inserts it). */
const workOrderFile = (s: Side) => `${'f'.repeat(31)}${s.name === 'A' ? 'a' : 'b'}.png`;

/** A device of the side with nothing else on it (a call that deletes it). */
const makeDevice: Maker = async ({ api }, s) =>
  (
    await api('POST', 'setting/devices', {
      name: unique('device'),
      device_group_id: s.site,
      driver: 'simulator',
      code: 'temp_hum',
    })
  ).id;

/** The calls of one tariff mode's routes (stair, time-sharing, both). */
function tariffCrud(path: string, mode: 'stair' | 'time' | 'both'): Record<string, Example> {
  const make: Maker = async ({ api, db }) => {
    await api('POST', path, tariff(mode, unique(path)));
    return (await db.kysely.selectFrom('energy_tariffs').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow())
      .id;
  };
  return {
    [`POST /api/v1/${path}`]: { table: 'energy_tariffs', body: () => tariff(mode, `catalogue ${path}`) },
    [`PUT /api/v1/${path}/:id`]: { table: 'energy_tariffs', make, body: () => tariff(mode, `renamed ${path}`) },
    [`DELETE /api/v1/${path}/:id`]: { table: 'energy_tariffs', make, fresh: true },
  };
}

export const examples = { routes };
