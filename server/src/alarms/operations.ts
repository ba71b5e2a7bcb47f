import type { AlarmRow } from '@sitewatch/contract/alarms';
import { handlingState } from '@sitewatch/contract/alarms';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AlarmsTable } from '../db/schema-alarms.ts';
import type { Principal } from '../http/auth.ts';
import type { AlarmLifecycle } from './lifecycle.ts';
import type { Alarm, EngineState, OperationInput } from './state.ts';
import type { AlarmStore } from './store.ts';

/**
 * The operations people do on alarms (000 §4.7): confirm, unconfirm, disable and enable the item or
 * device, and confirm all; each on an alarm of the caller's sites, logged and published.
 */
export const createAlarmOperations = (deps: {
  db: Kysely<Database>;
  state: EngineState;
  store: AlarmStore;
  publish: AlarmLifecycle['publish'];
  clock: () => number;
  /** Loads the engine first when an operation comes before start. */
  ensureStarted: () => Promise<void>;
}) => {
  const { db, store, publish, clock, ensureStarted } = deps;
  const { open, disabledItems, disabledDevices } = deps.state;
  const { toRow, log, flush } = store;

  const siteAllowed = (siteIds: number[] | null, siteId: number) => siteIds === null || siteIds.includes(siteId);

  const findAlarm = async (statusId: number): Promise<Alarm | AlarmsTable | null> => {
    const live = open.get(statusId);
    if (live) return live;
    await flush();
    return (await db.selectFrom('alarms').selectAll().where('id', '=', statusId).executeTakeFirst()) ?? null;
  };

  return {
    async operate(principal: Principal, siteIds: number[] | null, input: OperationInput): Promise<AlarmRow | null> {
      await ensureStarted();
      const a = await findAlarm(input.status_id);
      if (!a || !siteAllowed(siteIds, a.device_group_id)) return null;
      if (input.item_id !== 0 && input.item_id !== a.item_id) return null;
      const t = Math.floor(clock() / 1000);
      const who = principal.user_name;
      const live = open.get(a.id);
      const disableKind = a.kind === 'communication' ? 'device' : 'item';
      const target = a.kind === 'communication' ? a.device_id : a.item_id;
      switch (input.alarm_action) {
        case 0:
          a.handling = handlingState.confirmed;
          a.confirmed_by = who;
          a.confirmed_at = t;
          break;
        case 1:
          a.handling = a.end_time === null ? handlingState.unprocessed : handlingState.processed;
          a.confirmed_by = '';
          a.confirmed_at = null;
          // Unhandled again: its notices start over, their times counted afresh (docs/alarms.md).
          if (live) {
            live.next_notify_at = t;
            live.notify_count = 0;
          }
          break;
        case 2:
          a.handling = handlingState.disabled;
          // An area's own alarm is disabled alone: it has no item or device of the engine's.
          if (a.source !== '') break;
          (disableKind === 'device' ? disabledDevices : disabledItems).add(target);
          await db
            .insertInto('alarm_disabled')
            .values({ kind: disableKind, target_id: target, user_name: who.slice(0, 64), time: t })
            .onConflict((oc) => oc.columns(['kind', 'target_id']).doNothing())
            .execute();
          break;
        case 3:
          if (a.handling === handlingState.disabled)
            a.handling = a.end_time === null ? handlingState.unprocessed : handlingState.processed;
          if (live) live.next_notify_at = t;
          if (a.source !== '') break;
          (disableKind === 'device' ? disabledDevices : disabledItems).delete(target);
          await db
            .deleteFrom('alarm_disabled')
            .where('kind', '=', disableKind)
            .where('target_id', '=', target)
            .execute();
          break;
      }
      a.remarks = input.remarks;
      store.changed(live ?? a);
      log(a, ['confirm', 'unconfirm', 'disable', 'enable'][input.alarm_action] ?? 'confirm', t, input.remarks, who);
      await flush();
      publish('operation', a);
      if (input.alarm_action === 0) publish('confirm', a);
      return toRow(a);
    },
    async confirmAll(principal: Principal, siteIds: number[] | null, remarks: string): Promise<number> {
      await ensureStarted();
      await flush();
      const t = Math.floor(clock() / 1000);
      const rows = await db
        .selectFrom('alarms')
        .selectAll()
        .where('end_time', 'is', null)
        .where('handling', '=', handlingState.unprocessed)
        .execute();
      let n = 0;
      for (const r of rows) {
        if (!siteAllowed(siteIds, r.device_group_id)) continue;
        const a = open.get(r.id) ?? r;
        a.handling = handlingState.confirmed;
        a.confirmed_by = principal.user_name;
        a.confirmed_at = t;
        a.remarks = remarks;
        store.changed(a);
        log(a, 'confirm_all', t, remarks, principal.user_name);
        publish('operation', a);
        publish('confirm', a);
        n += 1;
      }
      await flush();
      return n;
    },
  };
};
