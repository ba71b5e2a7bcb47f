import type { AlarmPushMessage } from '@sitewatch/contract/alarms';
import type { PushServerMessage } from '@sitewatch/contract/push';
import type { EventBus } from '../bus/bus.ts';
import type { Principal } from '../http/auth.ts';
import type { DutyRoster } from '../notify/notifier.ts';
import type { PushHub } from './hub.ts';

/**
 * The sites each connected user is granted, kept for the pushers: loaded on first need, forgotten
 * on `grants.changed` (and when devices move), and re-read in the background after `ttlMs`.
 * null means every site.
 */
export interface GrantCache {
  /** The user's sites if known now (undefined: not loaded yet). */
  peek(userId: number): Set<number> | null | undefined;
  load(userId: number): Promise<Set<number> | null>;
  stop(): void;
  /** Resolves when no load is in flight (a background re-read too); true when it waited. */
  settled(): Promise<boolean>;
}

export const createGrantCache = (options: {
  grantedSites(userId: number): Promise<number[] | null>;
  bus: EventBus;
  clock?: () => number;
  ttlMs?: number;
}): GrantCache => {
  const clock = options.clock ?? Date.now;
  const ttl = options.ttlMs ?? 30_000;
  const known = new Map<number, { sites: Set<number> | null; at: number }>();
  const loading = new Map<number, Promise<Set<number> | null>>();
  const load = (userId: number) => {
    let pending = loading.get(userId);
    if (!pending) {
      pending = options
        .grantedSites(userId)
        .then((sites) => {
          const set = sites === null ? null : new Set(sites);
          known.set(userId, { sites: set, at: clock() });
          return set;
        })
        .finally(() => loading.delete(userId));
      loading.set(userId, pending);
    }
    return pending;
  };
  const subscriptions = [
    options.bus.subscribe('grants.changed', ({ user_ids }) => {
      if (user_ids === null) known.clear();
      else for (const id of user_ids) known.delete(id);
    }),
    // A device moved to another site changes which sites' values are whose.
    options.bus.subscribe('config.changed', ({ area }) => {
      if (area === 'sites') known.clear();
    }),
  ];
  return {
    peek(userId) {
      const entry = known.get(userId);
      if (!entry) return undefined;
      if (clock() - entry.at > ttl) void load(userId).catch(() => undefined);
      return entry.sites;
    },
    load,
    stop: () => {
      for (const unsubscribe of subscriptions) unsubscribe();
    },
    async settled() {
      let waited = false;
      while (loading.size > 0) {
        waited = true;
        await Promise.allSettled(loading.values());
      }
      return waited;
    },
  };
};

/**
 * Scoping in one place: a message about a site goes to the connected users granted it. Users whose
 * grants are not known yet get it as soon as they are loaded (the promise returned: done then).
 */
export const pushToSite = (
  hub: PushHub,
  grants: GrantCache,
  siteId: number,
  message: PushServerMessage,
  only: (principal: Principal) => boolean = () => true,
): Promise<void> | undefined => {
  const missing = new Set<number>();
  const allows = (sites: Set<number> | null) => sites === null || sites.has(siteId);
  hub.publish(message, (principal) => {
    if (!only(principal)) return false;
    const sites = grants.peek(principal.user_id);
    if (sites === undefined) missing.add(principal.user_id);
    return sites !== undefined && allows(sites);
  });
  if (missing.size === 0) return;
  return Promise.all([...missing].map((id) => grants.load(id).catch(() => new Set<number>()))).then(() => {
    hub.publish(message, (principal) => {
      if (!missing.has(principal.user_id) || !only(principal)) return false;
      const sites = grants.peek(principal.user_id);
      return sites !== undefined && allows(sites);
    });
  });
};

/**
 * Alarm events of the bus become the `alarm` push messages of 000 §8, to the users of the alarm's site.
 * With shift handover on (the duty roster answers users), a raise is marked `notice` for the users on
 * duty and not for the others: everyone's lists follow, only those on duty get the pop-up and sound.
 */
export const pushAlarms = (
  bus: EventBus,
  hub: PushHub,
  grants: GrantCache,
  clock: () => number = Date.now,
  roster: () => DutyRoster | null = () => null,
  log?: { warn(detail: object, message: string): void },
) => {
  const events = {
    'alarm.raised': 'raise',
    'alarm.recovered': 'recover',
    'alarm.operated': 'operation',
    'alarm.jitter': 'jitter',
  } as const;
  const send = (message: AlarmPushMessage, onDuty: number[] | null) => {
    const siteId = message.alarm.device_group_id;
    if (onDuty === null) return pushToSite(hub, grants, siteId, message);
    const on = new Set(onDuty);
    return Promise.all([
      pushToSite(hub, grants, siteId, { ...message, notice: true }, (p) => on.has(p.user_id)),
      pushToSite(hub, grants, siteId, { ...message, notice: false }, (p) => !on.has(p.user_id)),
    ]);
  };
  // A raise waits for the duty lookup; events behind it wait too, so none overtakes it.
  let pending: Promise<void> | null = null;
  const subscriptions = Object.entries(events).map(([name, event]) =>
    bus.subscribe(
      name as keyof typeof events,
      ({ alarm }) => {
        const message: AlarmPushMessage = { type: 'alarm', event, sent_ms: clock(), alarm };
        const duty = event === 'raise' ? roster() : null;
        if (!duty?.onDutyUsers && pending === null) return send(message, null);
        const users = duty?.onDutyUsers
          ? duty.onDutyUsers(Math.floor(clock() / 1000), alarm.device_group_id).catch((err: unknown) => {
              // Everyone gets the pop-up rather than no one: said in the log, not kept silent.
              log?.warn(
                { err, alarm: alarm.status_id },
                'duty lookup failed; the alarm is pushed to everyone as a notice',
              );
              return null;
            })
          : Promise.resolve(null);
        const next: Promise<void> = Promise.all([pending, users]).then(async ([, u]) => {
          await send(message, u);
        });
        pending = next;
        return next.finally(() => {
          if (pending === next) pending = null;
        });
        // Shown, not acted on: another process's alarms reach this process's browsers too (bus.ts).
      },
      { remote: true },
    ),
  );
  return () => {
    for (const unsubscribe of subscriptions) unsubscribe();
  };
};
