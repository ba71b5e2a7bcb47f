import {
  type LiveDeviceUpdate,
  type LiveItemUpdate,
  type LivePushMessage,
  liveEveryMs,
} from '@sitewatch/contract/push';
import type { EventBus } from '../bus/bus.ts';
import { createChangedIds } from '../changed-ids.ts';
import { realTimers, type Timers } from '../clock/timers.ts';
import type { PushHub } from './hub.ts';
import type { GrantCache } from './scoped.ts';

/** What the live feed reads of the collector (values it took, states the alarm engine published). */
export interface LiveValues {
  liveItem(
    itemId: number,
  ): { value: number | null; state: number; last_check: number; info: string; alarm: boolean } | undefined;
  liveDevice(deviceId: number): { state: number; reason: string; time: number } | undefined;
  deviceOfItem(itemId: number): number | undefined;
  siteOfDevice(deviceId: number): number | undefined;
}

export interface LiveFeedOptions {
  bus: EventBus;
  hub: PushHub;
  live: LiveValues;
  /** The sites each user is granted (shared with the alarm push). */
  grants: GrantCache;
  everyMs?: number;
  timers?: Timers;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * Live values by push (docs/api.md): the items and devices that changed since the last round are
 * gathered from the bus and sent, at most every `liveEveryMs`, to each browser that watches their
 * site and is granted it, in one `live` message. A browser then needs no polling while connected.
 */
export const startLiveFeed = (options: LiveFeedOptions): (() => void) => {
  const changedItems = createChangedIds();
  const changedDevices = new Set<number>();
  const subscriptions = [
    options.bus.subscribe('samples', ({ ids, from, to }) => {
      for (let i = from; i < to; i++) changedItems.add(ids[i]!);
    }),
    // Shown, not acted on: another process's states too (bus.ts).
    options.bus.subscribe('item.state', (e) => changedItems.add(e.item_id), { remote: true }),
    options.bus.subscribe('device.state', (e) => changedDevices.add(e.device_id), { remote: true }),
  ];

  const round = async () => {
    if (changedItems.size === 0 && changedDevices.size === 0) return;
    const watchers = options.hub.watching();
    const itemIds = changedItems.take();
    const deviceIds = [...changedDevices];
    changedDevices.clear();
    if (watchers.length === 0) return;
    // Only the watched sites' items are read (null: a browser watches all): with many items polled
    // each second, building rows for sites nobody watches cost the main thread most of a round.
    let wanted: Set<number> | null = new Set();
    for (const client of watchers) {
      if (client.watch === null) {
        wanted = null;
        break;
      }
      for (const site of client.watch ?? []) wanted.add(site);
    }
    const items: Array<{ site: number; row: LiveItemUpdate }> = [];
    for (const id of itemIds) {
      const device = options.live.deviceOfItem(id);
      const site = device === undefined ? undefined : options.live.siteOfDevice(device);
      if (site === undefined || (wanted && !wanted.has(site))) continue;
      const live = options.live.liveItem(id);
      if (!live) continue;
      items.push({
        site,
        row: {
          id,
          value: live.value,
          state: live.state,
          last_check: live.last_check,
          info: live.info,
          alarm: live.alarm,
        },
      });
    }
    const devices: Array<{ site: number; row: LiveDeviceUpdate }> = [];
    for (const id of deviceIds) {
      const live = options.live.liveDevice(id);
      const site = options.live.siteOfDevice(id);
      if (!live || site === undefined) continue;
      devices.push({ site, row: { id, state: live.state, state_reason: live.reason, state_time: live.time } });
    }
    // Browsers that watch the same sites with the same grants get the same text, built once.
    const texts = new Map<string, string | null>();
    for (const client of watchers) {
      const granted =
        options.grants.peek(client.principal.user_id) ??
        (await options.grants.load(client.principal.user_id).catch(() => new Set<number>()));
      const key = `${client.principal.user_id}|${client.watch === null ? '*' : (client.watch ?? []).join(',')}`;
      let text = texts.get(key);
      if (text === undefined) {
        const shows = (site: number) =>
          (granted === null || granted.has(site)) && (client.watch === null || client.watch?.includes(site) === true);
        const message: LivePushMessage = {
          type: 'live',
          items: items.filter((i) => shows(i.site)).map((i) => i.row),
          devices: devices.filter((d) => shows(d.site)).map((d) => d.row),
        };
        text = message.items.length || message.devices.length ? JSON.stringify(message) : null;
        texts.set(key, text);
      }
      if (text) client.send(text);
    }
  };

  const timers = options.timers ?? realTimers;
  let running: Promise<void> | null = null;
  const timer = timers.setInterval(() => {
    if (running) return;
    running = round()
      .catch((err) => options.log?.warn({ err }, 'live values could not be pushed'))
      .finally(() => {
        running = null;
      });
    return running;
  }, options.everyMs ?? liveEveryMs);
  timer.unref();
  return () => {
    timers.clearInterval(timer);
    for (const unsubscribe of subscriptions) unsubscribe();
  };
};
