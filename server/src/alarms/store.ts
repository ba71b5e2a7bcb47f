import { type AlarmKind, type AlarmRow, recoveredStatus } from '@sitewatch/contract/alarms';
import { monitorState } from '@sitewatch/contract/monitoring';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Dialect } from '../db/kysely.ts';
import type { Database } from '../db/schema.ts';
import type { AlarmLogsTable, AlarmsTable } from '../db/schema-alarms.ts';
import type { Alarm, EngineState } from './state.ts';

const stateLabel = (a: AlarmsTable): string =>
  a.end_time !== null
    ? 'recovered'
    : a.kind === 'point_fault'
      ? 'point_fault'
      : a.kind === 'communication' || a.status === monitorState.unknown
        ? 'unknown'
        : 'abnormal';
const kindOf = (kind: string): AlarmKind => (kind === 'communication' || kind === 'point_fault' ? kind : 'threshold');

const jitterShown = (state: EngineState, itemId: number) => {
  const { items } = state;
  const slot = items.slotOf(itemId);
  return slot !== undefined && items.jitter.jittering[slot] === 1 ? items.jitter.percent[slot]! : 0;
};

/** The columns written, in the order `bindAlarm` binds them; those an upsert updates. */
const alarmColumns = [
  'id',
  'item_id',
  'device_id',
  'device_group_id',
  'item_name',
  'device_name',
  'device_group_name',
  'kind',
  'status',
  'level',
  'color',
  'info',
  'value',
  'start_time',
  'end_time',
  'last_check',
  'handling',
  'remarks',
  'confirmed_by',
  'confirmed_at',
  'notify_count',
  'escalated',
  'source',
] as const satisfies readonly (keyof AlarmsTable)[];
const updatedColumns = [
  'status',
  'info',
  'value',
  'end_time',
  'last_check',
  'handling',
  'remarks',
  'confirmed_by',
  'confirmed_at',
  'notify_count',
  'escalated',
] as const;
const logColumns = [
  'time',
  'alarm_id',
  'item_id',
  'device_group_id',
  'item_name',
  'device_name',
  'device_group_name',
  'state',
  'action',
  'result',
  'detail',
  'user_name',
  'attempts',
] as const satisfies readonly (keyof AlarmLogsTable)[];
/** Rows per statement, largest first (23 values each: far below either database's parameter limit). */
const chunkSizes = [200, 50, 10, 1];

const texts = new Map<string, string>();
/** The insert of `rows` alarm records (an upsert by id) or log entries, built once per count. */
const statementText = (dialect: Dialect, kind: 'alarms' | 'logs', rows: number): string => {
  const key = `${dialect}:${kind}:${rows}`;
  let text = texts.get(key);
  if (text) return text;
  const columns = kind === 'alarms' ? alarmColumns : logColumns;
  let n = 0;
  const tuple = () => `(${columns.map(() => (dialect === 'postgres' ? `$${++n}` : '?')).join(', ')})`;
  const values = Array.from({ length: rows }, tuple).join(', ');
  text = `insert into "${kind === 'alarms' ? 'alarms' : 'alarm_logs'}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${values}`;
  if (kind === 'alarms')
    text += ` on conflict ("id") do update set ${updatedColumns.map((c) => `"${c}" = excluded."${c}"`).join(', ')}`;
  texts.set(key, text);
  return text;
};

export interface AlarmStore {
  /** The row of an alarm as the API and the push answer it. */
  toRow(a: AlarmsTable): AlarmRow;
  /** Queues a log entry of an alarm. */
  log(a: AlarmsTable, action: string, t: number, detail?: string, userName?: string, result?: number): void;
  /** Queues an alarm record to be written. */
  changed(a: Alarm | AlarmsTable): void;
  /** Writes the queued records and log entries now (one writer at a time). */
  flush(): Promise<void>;
  /** Whether records or log entries wait to be written, or a write is running. */
  busy(): boolean;
  /** Forgets the queued records and log entries (a restore replaced the rows they were for). */
  discard(): void;
}

/**
 * Alarm records and their log: changes are queued and written in batches (every 200 ms by the
 * engine, and at once after a person's operation); a write that fails is kept for the next one, so
 * an alarm is never lost to a busy database.
 */
export const createAlarmStore = (
  db: Kysely<Database>,
  dialect: Dialect,
  state: EngineState,
  warn: (obj: object, msg: string) => void = () => undefined,
): AlarmStore => {
  const dirty = new Set<Alarm | AlarmsTable>();
  let logs: Omit<AlarmLogsTable, 'id'>[] = [];
  let flushing: Promise<void> | null = null;

  const toRow = (a: AlarmsTable): AlarmRow => {
    const roles = [1, ...(state.siteRoles.get(a.device_group_id) ?? [])];
    return {
      status_id: a.id,
      item_id: a.item_id,
      device_id: a.device_id,
      device_group_id: a.device_group_id,
      device_group_name: a.device_group_name,
      device_name: a.device_name,
      item_name: a.item_name,
      kind: kindOf(a.kind),
      status: a.end_time !== null ? recoveredStatus : a.status,
      status_label: stateLabel(a),
      level: a.level,
      color: a.color,
      info: a.info,
      value: a.value,
      start_time: a.start_time,
      end_time: a.end_time,
      last_check: a.last_check,
      handling: a.handling,
      remarks: a.remarks,
      confirmed_by: a.confirmed_by,
      // The percent shows only while jitter is detected, not the flips that led up to a first raise.
      jitter: jitterShown(state, a.item_id),
      roles: JSON.stringify([...new Set(roles)]),
      users: '[]',
      videos: '[]',
    };
  };

  const log = (a: AlarmsTable, action: string, t: number, detail = '', userName = '', result = 1) => {
    logs.push({
      time: t,
      alarm_id: a.id,
      item_id: a.item_id,
      device_group_id: a.device_group_id,
      item_name: a.item_name.slice(0, 64),
      device_name: a.device_name.slice(0, 64),
      device_group_name: a.device_group_name.slice(0, 64),
      state: a.end_time !== null ? recoveredStatus : a.status,
      action,
      result,
      detail: detail.slice(0, 2000),
      user_name: userName.slice(0, 64),
      attempts: 1,
    });
  };

  /** The row's values in `alarmColumns` order, cut to the columns' lengths, appended to `out`. */
  const bindAlarm = (a: AlarmsTable, out: unknown[]) => {
    out.push(
      a.id,
      a.item_id,
      a.device_id,
      a.device_group_id,
      a.item_name.slice(0, 64),
      a.device_name.slice(0, 64),
      a.device_group_name.slice(0, 64),
      a.kind,
      a.status,
      a.level,
      a.color,
      a.info.slice(0, 300),
      a.value,
      a.start_time,
      a.end_time,
      a.last_check,
      a.handling,
      a.remarks.slice(0, 500),
      a.confirmed_by.slice(0, 64),
      a.confirmed_at,
      a.notify_count,
      a.escalated,
      a.source,
    );
  };
  const bindLog = (e: Omit<AlarmLogsTable, 'id'>, out: unknown[]) => {
    for (const c of logColumns) out.push(e[c]);
  };

  const writeNow = async () => {
    if (dirty.size === 0 && logs.length === 0) return;
    const alarms = [...dirty];
    // The values are taken now (a later change marks the alarm dirty again), bound as flat lists
    // into statements built once per row count: no query tree per row and value (issue 18).
    const statements: CompiledQuery[] = [];
    const queue = <T>(kind: 'alarms' | 'logs', rows: T[], bind: (row: T, out: unknown[]) => void) => {
      for (let i = 0; i < rows.length; ) {
        // A few statement sizes only: each is prepared once and stays in SQLite's statement cache.
        const size = chunkSizes.find((c) => c <= rows.length - i)!;
        const slice = rows.slice(i, i + size);
        i += size;
        const params: unknown[] = [];
        for (const r of slice) bind(r, params);
        statements.push(CompiledQuery.raw(statementText(dialect, kind, slice.length), params));
      }
    };
    queue('alarms', alarms, bindAlarm);
    dirty.clear();
    const entries = logs;
    logs = [];
    queue('logs', entries, bindLog);
    try {
      await db.transaction().execute(async (trx) => {
        for (const q of statements) await trx.executeQuery(q);
      });
    } catch (err) {
      // Kept for the next flush: an alarm is never lost to a busy database.
      for (const a of alarms) dirty.add(state.open.get(a.id) ?? a);
      logs = [...entries, ...logs];
      warn({ err }, 'could not write alarms');
    }
  };
  const flush = async () => {
    while (flushing) await flushing;
    flushing = writeNow().finally(() => {
      flushing = null;
    });
    await flushing;
  };

  const busy = () => dirty.size > 0 || logs.length > 0 || flushing !== null;
  const discard = () => {
    dirty.clear();
    logs = [];
  };
  return { toRow, log, changed: (a) => dirty.add(a), flush, busy, discard };
};
