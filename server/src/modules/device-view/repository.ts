import type { DeviceLogKind } from '@sitewatch/contract/device-view';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import { personName } from '../../db/person-name.ts';
import type { Database } from '../../db/schema.ts';

/** Operation-log modules that concern one device (target: the device id). */
export const deviceModules = ['setting/devices', 'setting/devices/copy'];
/** Operation-log modules that concern one item (target: the item id). */
export const itemModules = ['setting/items', 'device_groups/device/item'];

export interface LogFilter {
  deviceId: number;
  itemIds: number[];
  kinds: DeviceLogKind[];
  t1?: number | undefined;
  t2?: number | undefined;
}

export interface LogRow {
  kind: DeviceLogKind;
  id: number;
  time: number;
  action: string;
  state: number;
  prev_state: number;
  item_id: number;
  item_name: string;
  user_name: string;
  detail: string;
  result: number;
  module: string;
  target: string;
}

/** Reads of the device pages (Kysely only): a device with its site, items and alarms, and its log. */
export const createDeviceViewRepository = (db: Db) => {
  const k: Kysely<Database> = db.kysely;

  /** The three sources of a device's log, one SELECT each with the same columns. */
  const logBranches = (f: LogFilter) => {
    const when = <Q extends { where: (...args: never[]) => Q }>(q: Q, column: string): Q => {
      let out = q;
      // biome-ignore lint/suspicious/noExplicitAny: the column is one of the branch's own
      if (f.t1 !== undefined) out = (out as any).where(column, '>=', f.t1);
      // biome-ignore lint/suspicious/noExplicitAny: as above
      if (f.t2 !== undefined) out = (out as any).where(column, '<=', f.t2);
      return out;
    };
    const branches = [];
    if (f.kinds.includes('state')) {
      branches.push(
        when(
          k
            .selectFrom('device_state_logs')
            .select([
              sql<string>`'state'`.as('kind'),
              'id',
              'time',
              sql<string>`''`.as('action'),
              'state',
              'prev_state',
              sql<number>`0`.as('item_id'),
              sql<string>`''`.as('item_name'),
              sql<string>`''`.as('user_name'),
              'reason as detail',
              sql<number>`1`.as('result'),
              sql<string>`''`.as('module'),
              sql<string>`''`.as('target'),
            ])
            .where('device_id', '=', f.deviceId),
          'time',
        ),
      );
    }
    if (f.kinds.includes('alarm')) {
      branches.push(
        when(
          k
            .selectFrom('alarm_logs')
            .innerJoin('alarms', 'alarms.id', 'alarm_logs.alarm_id')
            // People by their alias (issue 38): the log keeps the login name written then.
            .leftJoin('users as p', 'p.user_name', 'alarm_logs.user_name')
            .select([
              sql<string>`'alarm'`.as('kind'),
              'alarm_logs.id',
              'alarm_logs.time',
              'alarm_logs.action',
              'alarm_logs.state',
              sql<number>`-1`.as('prev_state'),
              'alarm_logs.item_id',
              'alarm_logs.item_name',
              personName('p', sql.ref('alarm_logs.user_name')).as('user_name'),
              'alarm_logs.detail',
              'alarm_logs.result',
              sql<string>`''`.as('module'),
              sql<string>`''`.as('target'),
            ])
            .where('alarms.device_id', '=', f.deviceId),
          'alarm_logs.time',
        ),
      );
    }
    if (f.kinds.includes('operation')) {
      const itemTargets = f.itemIds.map(String);
      branches.push(
        when(
          k
            .selectFrom('operation_logs as o')
            .leftJoin('users as p', 'p.id', 'o.user_id')
            .select([
              sql<string>`'operation'`.as('kind'),
              'o.id',
              'o.time',
              'o.action',
              sql<number>`-1`.as('state'),
              sql<number>`-1`.as('prev_state'),
              sql<number>`0`.as('item_id'),
              sql<string>`''`.as('item_name'),
              personName('p', sql.ref('o.user_name')).as('user_name'),
              'o.detail',
              'o.result',
              'o.module',
              'o.target',
            ])
            .where((eb) =>
              eb.or([
                eb.and([eb('o.target', '=', String(f.deviceId)), eb('o.module', 'in', deviceModules)]),
                ...(itemTargets.length
                  ? [eb.and([eb('o.target', 'in', itemTargets), eb('o.module', 'in', itemModules)])]
                  : []),
              ]),
            ),
          'o.time',
        ),
      );
    }
    return branches;
  };

  return {
    device: (id: number) =>
      k
        .selectFrom('devices')
        .leftJoin('device_templates', 'device_templates.id', 'devices.template_id')
        .leftJoin('categorys', 'categorys.code', 'devices.code')
        .select([
          'devices.id',
          'devices.name',
          'devices.device_group_id',
          'devices.driver',
          'devices.code',
          'devices.template_id',
          'devices.ip',
          'devices.port',
          'devices.protocol_id',
          'devices.protocol_version',
          'devices.serial',
          'devices.zigbee_enable',
          'devices.zigbee_address',
          'devices.options',
          'devices.check_interval',
          'devices.enable',
          'devices.state',
          'devices.state_reason',
          'devices.state_time',
          'device_templates.name_key as template_key',
          'device_templates.name as template_name',
          'categorys.name as category_name',
          'categorys.name_key as category_key',
        ])
        .where('devices.id', '=', id)
        .executeTakeFirst(),
    sites: () => k.selectFrom('device_groups').select(['id', 'name', 'parent_id']).execute(),
    items: (deviceId: number) =>
      k
        .selectFrom('items')
        .select(['id', 'name', 'unit', 'state', 'last_check', 'source'])
        .where('device_id', '=', deviceId)
        .orderBy('id')
        .execute(),
    /** A device's open alarms, the confirming person by their alias (issue 38). */
    openAlarms: (deviceId: number) =>
      k
        .selectFrom('alarms as a')
        .leftJoin('users as p', 'p.user_name', 'a.confirmed_by')
        .select([
          'a.id',
          'a.item_id',
          'a.item_name',
          'a.kind',
          'a.status',
          'a.level',
          'a.color',
          'a.info',
          'a.value',
          'a.start_time',
          'a.handling',
          personName('p', sql.ref('a.confirmed_by')).as('confirmed_by'),
        ])
        .where('a.device_id', '=', deviceId)
        .where('a.end_time', 'is', null)
        .orderBy('a.start_time', 'desc')
        .orderBy('a.id', 'desc')
        .execute(),
    /** Items with their device, for curves: only those in `allowed` sites (null: all). */
    curveItems: (ids: number[], allowed: number[] | null) => {
      let q = k
        .selectFrom('items')
        .innerJoin('devices', 'devices.id', 'items.device_id')
        .select(['items.id', 'items.name', 'items.unit', 'devices.id as device_id', 'devices.name as device_name'])
        .where('items.id', 'in', ids.length ? ids : [0]);
      if (allowed) q = q.where('devices.device_group_id', 'in', allowed.length ? allowed : [0]);
      return q.execute();
    },
    async log(f: LogFilter, page: number, limit: number): Promise<{ total: number; rows: LogRow[] }> {
      const branches = logBranches(f);
      if (branches.length === 0) return { total: 0, rows: [] };
      let union = branches[0]!;
      // biome-ignore lint/suspicious/noExplicitAny: the branches have the same columns by construction
      for (const b of branches.slice(1)) union = (union as any).unionAll(b);
      const all = k.selectFrom(union.as('u'));
      const count = await all.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await all
        .selectAll()
        .orderBy('time', 'desc')
        .orderBy('kind')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      return {
        total: Number(count?.n ?? 0),
        rows: rows.map((r) => ({
          ...(r as unknown as LogRow),
          id: Number(r.id),
          time: Number(r.time),
          state: Number(r.state),
          prev_state: Number(r.prev_state),
          item_id: Number(r.item_id),
          result: Number(r.result),
        })),
      };
    },
  };
};
export type DeviceViewRepository = ReturnType<typeof createDeviceViewRepository>;
