import type { PolledDevice } from './devices.ts';
import type { DriverRecipe } from './drivers/index.ts';

/** What the collector worker is started with. */
export interface WorkerData {
  recipes: DriverRecipe[];
  maxBackoffMs?: number | undefined;
}

/** Main thread → worker. `req` pairs a request with its reply. */
export type ToWorker =
  /** Devices to poll, in parts of at most `installPartItems` items (worker-host.ts). */
  | { type: 'install'; devices: Array<{ device: PolledDevice; gen: number }> }
  | { type: 'remove'; req: number; deviceId: number }
  | { type: 'write'; req: number; deviceId: number; itemId: number; value: number }
  | { type: 'stop'; req: number }
  /** A batch was taken: `n` its answers plus values. */
  | { type: 'ack'; n: number };

/** A device loop's event other than an answer; `at`: the number of answer segments before it. */
export type LoopEvent =
  | { k: 'empty'; at: number; d: number; g: number }
  | { k: 'alive'; at: number; d: number; g: number; recovered: boolean }
  | { k: 'opened'; at: number; d: number; g: number; since: number; pushes: boolean }
  | { k: 'failed'; at: number; d: number; g: number; reason: string; ts: number; failures: number };

/**
 * Worker → main thread. A batch holds the answers of the polls and messages since the last one,
 * as segments: `h` has five numbers a segment (device id, gen, time ms, pushed 0/1, count), `ids`
 * and `values` the answered items segment after segment (transferred, not copied), `errors`
 * (segment, item id, reason) the reasons, `reads` the items of polls that read only some;
 * `events` the loops' other events, in order with them.
 */
export type FromWorker =
  | { type: 'ready' }
  | {
      type: 'batch';
      h: Float64Array;
      ids: Float64Array;
      values: Float64Array;
      errors: Array<[number, number, string]>;
      /** (segment, item ids) of the polls that read only some of their device's items. */
      reads: Array<[number, number[]]>;
      events: LoopEvent[];
    }
  | { type: 'reply'; req: number; error?: string; plain?: boolean };
