import { z } from 'zod';
import { alarmRow } from './alarms.ts';

/**
 * The server's in-process events (docs/architecture.md, "The spine"): what the engines and areas tell
 * each other. Kept beside the push messages because several of them become push messages, and
 * because the same shapes will travel between instances (PostgreSQL LISTEN/NOTIFY) when the server
 * scales out: every payload is plain JSON.
 */

/** One reading of one item as it arrives; `value` null when the item gave no usable value. */
export const sampleEvent = z.object({
  item_id: z.number().int(),
  value: z.number().nullable(),
  ts_ms: z.number(),
});

/**
 * The samples of one answer of one device (a poll, a message, a maximum age passing), as the
 * collector publishes them: one event per answer, not per value, so the main thread's cost per
 * value is a loop step in each consumer rather than an event (issue 18). Item ids and values are in
 * `ids[from..to)` and `values[from..to)`, all at `ts_ms`; NaN is an item that gave no usable value
 * (a `sample` with value null). The arrays are the publisher's and valid only while the event is
 * delivered: a consumer copies what it keeps. The one event that is not plain JSON (typed arrays):
 * it never leaves the process. The bus also hands a `sample` to `samples` consumers (a batch of one)
 * and a `samples` to `sample` subscribers one value at a time (bus.ts).
 */
export const samplesEvent = z.object({
  ids: z.custom<ArrayLike<number>>(),
  values: z.custom<ArrayLike<number>>(),
  from: z.number().int(),
  to: z.number().int(),
  ts_ms: z.number(),
  /**
   * Why items of the batch gave no usable value (NaN), by item id: the driver's or the edge check's
   * reason (`exception 2: illegal data address`, `no value for 300 s`); null or absent when the
   * batch has none.
   */
  reasons: z.custom<ReadonlyMap<number, string> | null>().optional(),
  /** The reason of a NaN that `reasons` does not name (absent: `no value`). */
  reason: z.string().optional(),
  /**
   * The device did not answer at all: its NaNs are the device's outage (its `device.state` unknown,
   * published first, opens the one communication alarm), not faults of each item.
   */
  outage: z.boolean().optional(),
});

/**
 * An item's shown state changed, as the alarm engine decides it (monitorState codes: 0 not ready,
 * 1 normal, 2 abnormal, 4 unknown, 6 jitter …) with why (`info`: the reason an item is unknown, or
 * `jitter N%`), and whether it is in alarm (abnormal, or an alarm of it open: a point fault while
 * unknown): the engine is the one owner of item state; the live views show what it publishes.
 */
export const itemStateEvent = z.object({
  item_id: z.number().int(),
  state: z.number().int(),
  info: z.string(),
  alarm: z.boolean(),
  ts_ms: z.number(),
});

/** A device's communication state changed (monitorState codes: 1 normal, 4 unknown …). */
export const deviceStateEvent = z.object({
  device_id: z.number().int(),
  state: z.number().int(),
  reason: z.string(),
  since: z.number().int(),
});

/**
 * An alarm record was raised, recovered, operated on by a person (000 §4.7), or its item started or
 * stopped jittering (002 §4).
 */
export const alarmEvent = z.object({ alarm: alarmRow });

/**
 * Areas whose stored configuration another part of the server keeps in memory. `ids` names the
 * rows that changed (devices for `devices`, items for `items`); null means "reload all of it".
 */
export const configArea = z.enum([
  'sites',
  'devices',
  'items',
  'alarm_settings',
  'contact_groups',
  'time_periods',
  'door_access',
]);
export type ConfigArea = z.infer<typeof configArea>;
export const configChangedEvent = z.object({ area: configArea, ids: z.array(z.number().int()).nullable() });

/** Role or user grants changed: whoever caches what a user may see forgets it (null: everyone). */
export const grantsChangedEvent = z.object({ user_ids: z.array(z.number().int()).nullable() });

/** Every event by name: the bus is typed by this map. */
export const busEvents = {
  sample: sampleEvent,
  samples: samplesEvent,
  'item.state': itemStateEvent,
  'device.state': deviceStateEvent,
  'alarm.raised': alarmEvent,
  'alarm.recovered': alarmEvent,
  'alarm.operated': alarmEvent,
  /** Confirmed by a person (one alarm, or each of a confirm-all): items' confirm actions run on it. */
  'alarm.confirmed': alarmEvent,
  'alarm.jitter': alarmEvent,
  'config.changed': configChangedEvent,
  'grants.changed': grantsChangedEvent,
} as const;
export type BusEventName = keyof typeof busEvents;
export type BusEvent<N extends BusEventName> = z.infer<(typeof busEvents)[N]>;

/**
 * Where each event travels, in one place (issue 35, step 0; docs/scale.md): samples stay in the
 * process that collects them (synchronous, typed arrays, one event per answer: never written
 * anywhere); the domain events are delivered in the process synchronously and, on PostgreSQL, also
 * to every other process on the same database (server/src/bus/bridge.ts). A new event is placed in
 * one of the two lists (the type below fails to compile otherwise).
 */
export const localEvents = ['sample', 'samples'] as const satisfies readonly BusEventName[];
export const crossProcessEvents = [
  'item.state',
  'device.state',
  'alarm.raised',
  'alarm.recovered',
  'alarm.operated',
  'alarm.confirmed',
  'alarm.jitter',
  'config.changed',
  'grants.changed',
] as const satisfies readonly BusEventName[];
export type CrossProcessEventName = (typeof crossProcessEvents)[number];
/**
 * Events every subscriber also hears from the other processes: each says a cache is stale, which
 * is as true there as here. The others (an alarm, a state) reach a subscriber from another process
 * only when it asks (`{ remote: true }`: the pushes, which show them); a subscriber that acts on
 * one (opens a work order, runs an action, writes a log row) acts on its own process's alone, or
 * two processes would both act (docs/scale.md, "Who hears whose events").
 */
export const invalidationEvents = [
  'config.changed',
  'grants.changed',
] as const satisfies readonly CrossProcessEventName[];
/** Every event is placed: `never` unless an event is in neither list. */
export type UnplacedEvent = Exclude<BusEventName, (typeof localEvents)[number] | CrossProcessEventName>;
const everyEventPlaced: UnplacedEvent extends never ? true : false = true;
void everyEventPlaced;
