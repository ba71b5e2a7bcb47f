import { monitorState } from '@sitewatch/contract/monitoring';
import type { Kysely } from 'kysely';
import type { Pending, Timer, Timers } from '../clock/timers.ts';
import type { Database } from '../db/schema.ts';
import type { AlarmLifecycle } from './lifecycle.ts';
import type { EngineState } from './state.ts';

/** What an area tells the alarm engine of one of its own alarms (docs/alarms.md, "Alarms of other areas"). */
export interface SourceAlarm {
  /** What raised it, one open alarm at most for each: `<area>:<thing>` (`video:3`, `door-access:forced:2:1`). */
  source: string;
  /** communication: something stopped answering; threshold: an event out of the normal (a door forced open). */
  kind: 'communication' | 'threshold';
  site_id: number;
  /** The thing (a camera, a door controller) and what of it (a channel, a door), shown as device and item. */
  device_name: string;
  item_name: string;
  /** 1 most severe … 5; by default the alarm settings' point-fault level (a thing that cannot be read). */
  level?: number;
  info: string;
  /** Whose channels get its notices besides the pop-up and the bell (0, the default: none). */
  contact_group_id?: number;
  /**
   * Raised only if not recovered within this many ms (a stream that drops and comes back at once
   * raises nothing); 0, the default: at once. The thing's own state still shows the drop.
   */
  holdMs?: number;
}

/**
 * Alarms other areas raise and recover by a source name, through the engine's lifecycle: the same
 * ids, rows, log, push (the users of its site), pop-up, sound, notices, confirmation and escalation
 * as the engine's own. An open one is found again by its source after a restart (loader.ts). They
 * are queued in the order told (a recovery never overtakes its raise's site lookup) and written
 * once the open alarms are loaded.
 */
export const createSourceAlarms = (deps: {
  state: EngineState;
  lifecycle: Pick<AlarmLifecycle, 'raiseNew' | 'recover'>;
  clock: () => number;
  db: Kysely<Database>;
  defaultLevel: () => number;
  /** Loads the open alarms (once). */
  loaded: () => Promise<void>;
  /** Where queued work is counted until it settles (the engine's `settled()`). */
  pending: Pending;
  timers: Timers;
  warn: (obj: object, msg: string) => void;
}) => {
  const { sources, levelColors } = deps.state;
  /** Raises waiting out their hold-off, by source. */
  const held = new Map<string, Timer>();
  const now = () => Math.floor(deps.clock() / 1000);
  let queue: Promise<void> = Promise.resolve();
  const queued = (work: () => void | Promise<void>) => {
    queue = deps.pending.track(
      queue
        .then(deps.loaded)
        .then(work)
        .catch((err) => deps.warn({ err }, 'an area alarm was not recorded')),
    );
  };
  const siteName = async (siteId: number) =>
    (await deps.db.selectFrom('device_groups').select('name').where('id', '=', siteId).executeTakeFirst())?.name ?? '';

  const raise = (input: SourceAlarm, siteName: string) => {
    const level = Math.min(5, Math.max(1, Math.round(input.level ?? deps.defaultLevel())));
    const a = deps.lifecycle.raiseNew(
      {
        item_id: 0,
        device_id: 0,
        device_group_id: input.site_id,
        item_name: input.item_name,
        device_name: input.device_name,
        device_group_name: siteName,
        kind: input.kind,
        status: input.kind === 'communication' ? monitorState.unknown : monitorState.abnormal,
        level,
        color: levelColors.get(level) ?? '',
        info: input.info,
        value: null,
        contact_group_id: input.contact_group_id ?? 0,
        unit: '',
        source: input.source,
      },
      now(),
    );
    sources.set(input.source, a);
  };

  const raiseNow = (input: SourceAlarm) =>
    queued(async () => {
      // Told again while open (a controller silent at every pass): nothing to look up or change.
      if (sources.has(input.source)) return;
      const name = await siteName(input.site_id);
      if (!sources.has(input.source)) raise(input, name);
    });

  return {
    raiseSource(input: SourceAlarm) {
      if (!input.holdMs) return raiseNow(input);
      if (held.has(input.source)) return;
      held.set(
        input.source,
        deps.timers.setTimeout(() => {
          held.delete(input.source);
          raiseNow(input);
        }, input.holdMs),
      );
    },
    recoverSource: (source: string) => {
      // Back within its hold-off: the raise waiting is dropped, nothing was raised.
      deps.timers.clearTimeout(held.get(source) ?? null);
      held.delete(source);
      queued(() => {
        const a = sources.get(source);
        if (!a) return;
        sources.delete(source);
        deps.lifecycle.recover(a, now(), null);
      });
    },
    /** Forgets the raises still waiting out their hold-off (the engine stops). */
    dropHeld() {
      for (const timer of held.values()) deps.timers.clearTimeout(timer);
      held.clear();
    },
    /** The sources of the open alarms whose source starts with `prefix` (an area reconciling at start). */
    async openSources(prefix: string) {
      await deps.loaded();
      await queue;
      return [...sources.keys()].filter((s) => s.startsWith(prefix));
    },
  };
};
