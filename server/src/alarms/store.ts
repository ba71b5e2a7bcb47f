import { type AlarmRow, recoveredStatus } from '@sitewatch/contract/alarms';
import { monitorState } from '@sitewatch/contract/monitoring';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AlarmLogsTable, AlarmsTable } from '../db/schema-alarms.ts';
import type { Alarm, EngineState } from './state.ts';

const stateLabel = (a: AlarmsTable): string =>
  a.end_time !== null
    ? 'recovered'
    : a.kind === 'communication'
      ? 'unknown'
      : a.status === monitorState.unknown
        ? 'unknown'
        : 'abnormal';

const jitterShown = (state: EngineState, itemId: number) => {
  const { items } = state;
  const slot = items.slotOf(itemId);
  return slot !== undefined && items.jitter.jittering[slot] === 1 ? items.jitter.percent[slot]! : 0;
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
}

/**
 * Alarm records and their log: changes are queued and written in batches (every 200 ms by the
 * engine, and at once after a person's operation); a write that fails is kept for the next one, so
 * an alarm is never lost to a busy database.
 */
export const createAlarmStore = (
  db: Kysely<Database>,
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
      kind: a.kind === 'communication' ? 'communication' : 'threshold',
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

  const columns = (a: AlarmsTable): AlarmsTable => ({
    id: a.id,
    item_id: a.item_id,
    device_id: a.device_id,
    device_group_id: a.device_group_id,
    item_name: a.item_name.slice(0, 64),
    device_name: a.device_name.slice(0, 64),
    device_group_name: a.device_group_name.slice(0, 64),
    kind: a.kind,
    status: a.status,
    level: a.level,
    color: a.color,
    info: a.info.slice(0, 300),
    value: a.value,
    start_time: a.start_time,
    end_time: a.end_time,
    last_check: a.last_check,
    handling: a.handling,
    remarks: a.remarks.slice(0, 500),
    confirmed_by: a.confirmed_by.slice(0, 64),
    confirmed_at: a.confirmed_at,
    notify_count: a.notify_count,
    escalated: a.escalated,
  });

  const writeNow = async () => {
    if (dirty.size === 0 && logs.length === 0) return;
    const rows = [...dirty].map(columns);
    dirty.clear();
    const entries = logs;
    logs = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 400) {
          await trx
            .insertInto('alarms')
            .values(rows.slice(i, i + 400))
            .onConflict((oc) =>
              oc.column('id').doUpdateSet((eb) => ({
                status: eb.ref('excluded.status'),
                info: eb.ref('excluded.info'),
                value: eb.ref('excluded.value'),
                end_time: eb.ref('excluded.end_time'),
                last_check: eb.ref('excluded.last_check'),
                handling: eb.ref('excluded.handling'),
                remarks: eb.ref('excluded.remarks'),
                confirmed_by: eb.ref('excluded.confirmed_by'),
                confirmed_at: eb.ref('excluded.confirmed_at'),
                notify_count: eb.ref('excluded.notify_count'),
                escalated: eb.ref('excluded.escalated'),
              })),
            )
            .execute();
        }
        for (let i = 0; i < entries.length; i += 400) {
          await trx
            .insertInto('alarm_logs')
            .values(entries.slice(i, i + 400))
            .execute();
        }
      });
    } catch (err) {
      // Kept for the next flush: an alarm is never lost to a busy database.
      for (const r of rows) dirty.add(state.open.get(r.id) ?? r);
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

  return { toRow, log, changed: (a) => dirty.add(a), flush };
};
