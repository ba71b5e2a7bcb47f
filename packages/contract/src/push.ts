import { z } from 'zod';
import { alarmPushMessage } from './alarms.ts';

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
]);
export type PushClientMessage = z.infer<typeof pushClientMessage>;

/** Messages from the server to the browser; each area adds its own kinds to this union. */
export const pushServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pong'), server_time: z.number().int() }),
  z.object({ type: z.literal('ready'), user_id: z.number().int() }),
  z.object({ type: z.literal('error'), code: z.number().int(), message: z.string() }),
  alarmPushMessage,
]);
export type PushServerMessage = z.infer<typeof pushServerMessage>;
