import type { DoorNoticeKind } from '@sitewatch/contract/door-access';
import type { Services } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';
import { ControllerError, type DoorEvent } from './controller.ts';
import type { DoorSettings } from './notices.ts';

/** The controller's reasons that are alarms of the door (uhppoted's table), in the log's words. */
const alarmReasons: Record<number, { info: string; kind: DoorNoticeKind }> = {
  37: { info: '开门超时', kind: 'held' },
  38: { info: '强行开门', kind: 'forced' },
};
/** Reasons that say the door is shut or in normal use again: its alarm recovers. */
const normalReasons = new Set([1, 20, 24, 44]);

type ControllerRow = { id: number; name: string; device_group_id: number };

/**
 * Door access's alarms (docs/door-access.md, "Alarms", "Notifications"), through the alarm engine's
 * area alarms: a controller that stops answering is a communication alarm of its site, recovered by
 * its next answer; a door forced open or held open too long is an alarm of that door, recovered when
 * the controller next reports the door closed or used normally (a granted swipe, the button, a remote
 * open); a door its controller's status shows open past the held-open threshold is an alarm of its
 * own, recovered when the status shows it shut. Each alarm carries the contact group of its kind
 * when that kind is on (the notifications config), so the engine's notices reach it; an invalid
 * card (any refused swipe: no rights, wrong PIN, out of time …) is a notice alone (the notifier),
 * sent only when its kind is on, never an alarm: a typo at the reader should not stay open as one.
 */
export const createDoorAlarms = (deps: {
  db: Db;
  alarms: Services['alarms'];
  notifier: Services['notifier'];
  settings: DoorSettings;
  clock: () => number;
}) => {
  const { db, alarms, settings } = deps;
  const controllerSource = (id: number) => `door-access:controller:${id}`;
  const doorSource = (id: number, door: number) => `door-access:door:${id}:${door}`;
  const heldSource = (id: number, door: number) => `door-access:held:${id}:${door}`;
  /** `controller:door` → when the status first showed it open (epoch ms). */
  const openSince = new Map<string, number>();
  const doorNames = async (id: number) => {
    const doors = await db.kysely
      .selectFrom('door_doors')
      .select(['number', 'nickname'])
      .where('controller_id', '=', id)
      .execute();
    return (door: number) => doors.find((d) => d.number === door)?.nickname || `${door}号门`;
  };
  const siteName = async (siteId: number) =>
    (await db.kysely.selectFrom('device_groups').select('name').where('id', '=', siteId).executeTakeFirst())?.name ??
    '';
  const doorAlarm = async (row: ControllerRow, source: string, door: string, info: string, kind: DoorNoticeKind) =>
    alarms.raiseSource({
      source,
      kind: 'threshold',
      site_id: row.device_group_id,
      device_name: row.name,
      item_name: door,
      info,
      contact_group_id: await settings.groupOf(kind),
    });
  /** Refused swipes of one pass, one notice per door (a burst of retries is one notice, with its count). */
  const invalidCards = async (row: ControllerRow, events: DoorEvent[], nameOf: (door: number) => string) => {
    const group = await settings.groupOf('invalid');
    if (group === 0) return;
    const byDoor = new Map<number, DoorEvent[]>();
    for (const e of events) byDoor.set(e.door, [...(byDoor.get(e.door) ?? []), e]);
    const site = await siteName(row.device_group_id);
    for (const [door, refused] of byDoor)
      deps.notifier.enqueue({
        action: 'notice',
        contact_group_id: group,
        subject: {
          alarm_id: 0,
          item_id: 0,
          item_name: nameOf(door),
          device_name: row.name,
          device_group_id: row.device_group_id,
          device_group_name: site,
          state: 2,
          level: 1,
          value: refused.length,
          decimals: 0,
          unit: '',
          info: refused.length === 1 ? '无效卡' : `无效卡 ×${refused.length}`,
          time: Math.floor(deps.clock() / 1000),
        },
      });
  };
  return {
    /** After each sync pass: whether the controller answered, and why not. */
    async link(row: ControllerRow, error: unknown) {
      if (error === null) return alarms.recoverSource(controllerSource(row.id));
      alarms.raiseSource({
        source: controllerSource(row.id),
        kind: 'communication',
        site_id: row.device_group_id,
        device_name: row.name,
        item_name: '',
        info: error instanceof ControllerError ? error.code : 'error',
        contact_group_id: await settings.groupOf('offline'),
      });
    },
    /** The events a pass read, in their order. */
    async events(row: ControllerRow, events: DoorEvent[]) {
      const relevant = events.filter((e) => e.door > 0 && (alarmReasons[e.reason] || normalReasons.has(e.reason)));
      const invalid = events.filter((e) => e.kind === 'swipe' && !e.granted);
      if (relevant.length === 0 && invalid.length === 0) return;
      const nameOf = await doorNames(row.id);
      for (const e of relevant) {
        const reason = alarmReasons[e.reason];
        if (reason) await doorAlarm(row, doorSource(row.id, e.door), nameOf(e.door), reason.info, reason.kind);
        else alarms.recoverSource(doorSource(row.id, e.door));
      }
      if (invalid.length > 0) await invalidCards(row, invalid, nameOf);
    },
    /**
     * The doors' sensors as the controller's status shows them (read at each pass while a held-open
     * threshold is set): a door open for `thresholdS` since first seen open is held open too long.
     * Answers the ms until the next door reaches the threshold (null: none waiting), for a pass then.
     */
    async doors(row: ControllerRow, open: Record<number, boolean>, thresholdS: number): Promise<number | null> {
      const now = deps.clock();
      let next: number | null = null;
      let nameOf: ((door: number) => string) | null = null;
      for (const [key, isOpen] of Object.entries(open)) {
        const door = Number(key);
        const at = `${row.id}:${door}`;
        if (!isOpen) {
          // Recovered even when not seen open since a restart (the alarm outlives the time kept here).
          openSince.delete(at);
          alarms.recoverSource(heldSource(row.id, door));
          continue;
        }
        const since = openSince.get(at) ?? now;
        openSince.set(at, since);
        const due = since + thresholdS * 1000 - now;
        if (due > 0) {
          next = next === null ? due : Math.min(next, due);
          continue;
        }
        nameOf ??= await doorNames(row.id);
        await doorAlarm(row, heldSource(row.id, door), nameOf(door), '开门超时', 'held');
      }
      return next;
    },
    /** The held-open threshold is off: its doors' times are forgotten and their held alarms recover. */
    async heldOff(row: ControllerRow) {
      for (const key of [...openSince.keys()]) if (key.startsWith(`${row.id}:`)) openSince.delete(key);
      for (const source of await alarms.openSources(`door-access:held:${row.id}:`)) alarms.recoverSource(source);
    },
    /** A controller changed or removed: once removed, its alarms have nothing left to report. */
    async forget(id: number) {
      const still = await db.kysely.selectFrom('door_controllers').select('id').where('id', '=', id).executeTakeFirst();
      if (still) return;
      for (const key of [...openSince.keys()]) if (key.startsWith(`${id}:`)) openSince.delete(key);
      for (const source of await alarms.openSources(`door-access:`))
        if (
          source === controllerSource(id) ||
          source.startsWith(`door-access:door:${id}:`) ||
          source.startsWith(`door-access:held:${id}:`)
        )
          alarms.recoverSource(source);
    },
  };
};
export type DoorAlarms = ReturnType<typeof createDoorAlarms>;
