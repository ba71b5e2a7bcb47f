import { z } from 'zod';
import { alarmPushMessage } from './alarms.ts';
import { workOrderPushMessage } from './work-orders.ts';

/** Push channel constants (000 §8, §9). */
export const pushPath = '/api/v1/ws';
export const pushTiming = {
  pingMs: 30_000,
  reconnectAfterCloseMs: 2_000,
  reconnectAfterErrorMs: 1_000,
  checkMs: 5_000,
  maxTries: 100,
} as const;

/** Messages from the browser to the server. */
export const pushClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(512) }),
  /**
   * Which sites' live values this browser shows now: null for every granted site, [] for none.
   * Live values of other sites (and of sites not granted) are never sent.
   */
  z.object({ type: z.literal('watch'), site_ids: z.array(z.number().int().min(1)).max(1000).nullable() }),
]);
export type PushClientMessage = z.infer<typeof pushClientMessage>;

/** A live item value and state, as the station page, data list and device pages show it. */
export const liveItemUpdate = z.object({
  id: z.number().int(),
  value: z.number().nullable(),
  state: z.number().int(),
  last_check: z.number().int(),
  info: z.string(),
  /** In alarm: abnormal, or an alarm of it open (a point fault while it cannot be read). */
  alarm: z.boolean(),
});
export type LiveItemUpdate = z.infer<typeof liveItemUpdate>;
/** A device's communication state. */
export const liveDeviceUpdate = z.object({
  id: z.number().int(),
  state: z.number().int(),
  state_reason: z.string(),
  state_time: z.number().int(),
});
export type LiveDeviceUpdate = z.infer<typeof liveDeviceUpdate>;
/** Live values that changed since the last message, of the watched and granted sites (docs/api.md). */
export const livePushMessage = z.object({
  type: z.literal('live'),
  items: z.array(liveItemUpdate),
  devices: z.array(liveDeviceUpdate),
});
export type LivePushMessage = z.infer<typeof livePushMessage>;
/** How often at most a browser gets live values (ms). */
export const liveEveryMs = 250;

/** Messages from the server to the browser; each area adds its own kinds to this union. */
export const pushServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pong'), server_time: z.number().int() }),
  z.object({ type: z.literal('ready'), user_id: z.number().int() }),
  z.object({ type: z.literal('error'), code: z.number().int(), message: z.string() }),
  alarmPushMessage,
  livePushMessage,
  workOrderPushMessage,
]);
export type PushServerMessage = z.infer<typeof pushServerMessage>;
