import type { Services } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { ControllerError, type DoorEvent } from './controller.ts';

/** The controller's reasons that are alarms of the door (uhppoted's table), in the log's words. */
const alarmReasons: Record<number, string> = { 37: '开门超时', 38: '强行开门' };
/** Reasons that say the door is shut or in normal use again: its alarm recovers. */
const normalReasons = new Set([1, 20, 24, 44]);

/**
 * Door access's alarms (docs/door-access.md, "Alarms"), through the alarm engine's area alarms: a
 * controller that stops answering is a communication alarm of its site, recovered by its next
 * answer; a door forced open or held open too long is an alarm of that door, recovered when the
 * controller next reports the door closed or used normally (a granted swipe, the button, a remote
 * open). The info carries the controller's reason in the log's zh_cn words.
 */
export const createDoorAlarms = (db: Db, alarms: Services['alarms']) => {
  const controllerSource = (id: number) => `door-access:controller:${id}`;
  const doorSource = (id: number, door: number) => `door-access:door:${id}:${door}`;
  return {
    /** After each sync pass: whether the controller answered, and why not. */
    link(row: { id: number; name: string; device_group_id: number }, error: unknown) {
      if (error === null) return alarms.recoverSource(controllerSource(row.id));
      alarms.raiseSource({
        source: controllerSource(row.id),
        kind: 'communication',
        site_id: row.device_group_id,
        device_name: row.name,
        item_name: '',
        info: error instanceof ControllerError ? error.code : 'error',
      });
    },
    /** The events a pass read, in their order. */
    async events(row: { id: number; name: string; device_group_id: number }, events: DoorEvent[]) {
      const relevant = events.filter((e) => e.door > 0 && (alarmReasons[e.reason] || normalReasons.has(e.reason)));
      if (relevant.length === 0) return;
      const doors = await db.kysely
        .selectFrom('door_doors')
        .select(['number', 'nickname'])
        .where('controller_id', '=', row.id)
        .execute();
      const nameOf = (door: number) => doors.find((d) => d.number === door)?.nickname || `${door}号门`;
      for (const e of relevant) {
        const info = alarmReasons[e.reason];
        if (!info) {
          alarms.recoverSource(doorSource(row.id, e.door));
          continue;
        }
        alarms.raiseSource({
          source: doorSource(row.id, e.door),
          kind: 'threshold',
          site_id: row.device_group_id,
          device_name: row.name,
          item_name: nameOf(e.door),
          info,
        });
      }
    },
    /** A controller changed or removed: once removed, its alarms have nothing left to report. */
    async forget(id: number) {
      const still = await db.kysely.selectFrom('door_controllers').select('id').where('id', '=', id).executeTakeFirst();
      if (still) return;
      for (const source of await alarms.openSources(`door-access:`))
        if (source === controllerSource(id) || source.startsWith(`door-access:door:${id}:`))
          alarms.recoverSource(source);
    },
  };
};
export type DoorAlarms = ReturnType<typeof createDoorAlarms>;
