import type { Db } from '../../db/kysely.ts';

/** What the collector's onDeviceState hook hands over. */
export interface DeviceStateChange {
  state: number;
  reason: string;
  /** Epoch seconds. */
  time: number;
}

export interface DeviceStateLog {
  /** Records a change of one device's state (called from the collector's hook; never throws). */
  record(deviceId: number, change: DeviceStateChange): void;
  /** Resolves when every change recorded so far is written. */
  flush(): Promise<void>;
  /** Removes the rows of devices that no longer exist. */
  pruneOrphans(): Promise<number>;
}

export interface DeviceStateLogOptions {
  /** Rows kept per device; older ones are removed as new ones arrive. */
  keepPerDevice?: number;
  /** How many inserts of one device between two trims of its rows. */
  trimEvery?: number;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * The device state log (migration 0009): one row per change of a device's state as the collector
 * sees it (not ready, normal, abnormal, unknown with the reason). Writes are queued one after the
 * other so rows keep their order; a restart does not repeat a state the log already ends with; each
 * device keeps its newest `keepPerDevice` rows (1000 by default), so the table stays bounded.
 */
export const createDeviceStateLog = (db: Db, options: DeviceStateLogOptions = {}): DeviceStateLog => {
  const k = db.kysely;
  const keep = options.keepPerDevice ?? 1000;
  const trimEvery = options.trimEvery ?? 100;
  const last = new Map<number, number>();
  const sinceTrim = new Map<number, number>();
  let queue: Promise<void> = Promise.resolve();

  const trim = async (deviceId: number) => {
    const edge = await k
      .selectFrom('device_state_logs')
      .select('id')
      .where('device_id', '=', deviceId)
      .orderBy('id', 'desc')
      .offset(keep - 1)
      .limit(1)
      .executeTakeFirst();
    if (edge) {
      await k.deleteFrom('device_state_logs').where('device_id', '=', deviceId).where('id', '<', edge.id).execute();
    }
  };

  const write = async (deviceId: number, change: DeviceStateChange) => {
    let prev = last.get(deviceId);
    if (prev === undefined) {
      const row = await k
        .selectFrom('device_state_logs')
        .select('state')
        .where('device_id', '=', deviceId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      prev = row?.state ?? -1;
    }
    if (prev === change.state) return;
    const device = await k
      .selectFrom('devices')
      .select('device_group_id')
      .where('id', '=', deviceId)
      .executeTakeFirst();
    if (!device) return;
    await k
      .insertInto('device_state_logs')
      .values({
        device_id: deviceId,
        device_group_id: device.device_group_id,
        time: change.time,
        state: change.state,
        prev_state: prev,
        reason: change.reason.slice(0, 300),
      })
      .execute();
    last.set(deviceId, change.state);
    const n = (sinceTrim.get(deviceId) ?? 0) + 1;
    sinceTrim.set(deviceId, n % trimEvery);
    if (n >= trimEvery) await trim(deviceId);
  };

  return {
    record(deviceId, change) {
      queue = queue
        .then(() => write(deviceId, change))
        .catch((err) => options.log?.warn({ err, deviceId }, 'could not record device state'));
    },
    flush: () => queue,
    async pruneOrphans() {
      const r = await k
        .deleteFrom('device_state_logs')
        .where('device_id', 'not in', k.selectFrom('devices').select('id'))
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
};
