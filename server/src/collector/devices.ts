import {
  type DeviceOptions,
  type DriverName,
  deviceOptions,
  deviceSecretFields,
  type ItemSource,
  itemSource,
  type SerialSettings,
  serialSettings,
} from '@sitewatch/contract/monitoring';
import type { Db } from '../db/kysely.ts';
import { mapJsonFields, type SecretBox } from '../secrets/index.ts';
import { stringSharer } from '../share-strings.ts';
import type { DriverDevice, DriverItem } from './driver.ts';

/** An item as its device's loop reads it. */
export interface PolledItem extends DriverItem {
  /** Seconds between two reads of the item; 0 (or not above its device's interval): at every poll. */
  check_interval: number;
}

/** An item as the collector reads it. */
export interface CollectorItem extends PolledItem {
  device_id: number;
  /** Named in its device's state reason when it gives no usable value. */
  name?: string;
  /** Seconds a value may go unrefreshed before the item is unknown; 0: no limit. */
  max_age: number;
}

/** A device as its loop polls it (poller.ts, the collector worker): what its driver needs. */
export interface PolledDevice extends DriverDevice {
  driver: DriverName;
  check_interval: number;
  items: PolledItem[];
}

export interface CollectorDevice extends PolledDevice {
  /** The site the device stands in (live values go to browsers granted it). */
  device_group_id: number;
  items: CollectorItem[];
}

const parseJson = <T>(text: string, schema: { parse(v: unknown): T }, fallback: T): T => {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    return fallback;
  }
};

/** Item rows per page of a read. */
const pageSize = 5_000;

/** Reads every enabled device with its enabled items. */
export const loadDevices = async (db: Db, deviceId?: number, secrets?: SecretBox): Promise<CollectorDevice[]> => {
  let q = db.kysely.selectFrom('devices').selectAll().where('enable', '=', 1);
  if (deviceId !== undefined) q = q.where('id', '=', deviceId);
  const devices = await q.orderBy('id').execute();
  if (devices.length === 0) return [];
  const byDevice = new Map<number, CollectorItem[]>();
  // Items of one template carry the same source text: it is parsed once and the object shared
  // (drivers only read it), not kept once per item (issue 18, memory per item).
  const sources = new Map<string, ItemSource | null>();
  // Names repeat across devices ("Temperature", "item-7"): held once per read.
  const shareName = stringSharer();
  // Pages in id order, dropped as they go, the event loop free between them: all 100 000 rows at
  // once were the start-up's peak beside the alarm engine's own read (issue 18, memory).
  let after: number | null = null;
  for (;;) {
    let iq = db.kysely
      .selectFrom('items')
      .select(['id', 'device_id', 'name', 'value_type', 'source', 'max_age', 'check_interval'])
      .where('enable', '=', 1);
    if (deviceId !== undefined) iq = iq.where('device_id', '=', deviceId);
    if (after !== null) iq = iq.where('id', '>', after);
    const page = await iq.orderBy('id').limit(pageSize).execute();
    for (const it of page) {
      let source = sources.get(it.source);
      if (source === undefined) {
        source = parseJson<ItemSource | null>(it.source, itemSource, null);
        sources.set(it.source, source);
      }
      if (!source) continue;
      let list = byDevice.get(it.device_id);
      if (!list) {
        list = [];
        byDevice.set(it.device_id, list);
      }
      // A literal of fixed shape keeps its fields in the object (a spread left them in a side array).
      list.push({
        id: it.id,
        device_id: it.device_id,
        name: shareName(it.name),
        value_type: it.value_type === 0 ? 0 : 1,
        source,
        max_age: it.max_age,
        check_interval: it.check_interval,
      });
    }
    if (page.length < pageSize) break;
    after = page[page.length - 1]!.id;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const defaultSerial = serialSettings.parse({});
  const defaultOptions = deviceOptions.parse({});
  return devices.map((d) => ({
    id: d.id,
    name: d.name,
    driver: d.driver as DriverName,
    ip: d.ip,
    port: d.port,
    protocol_id: d.protocol_id,
    protocol_version: d.protocol_version,
    serial: parseJson<SerialSettings>(d.serial, serialSettings, defaultSerial),
    // Secrets are stored encrypted; the drivers get them in clear.
    options: parseJson<DeviceOptions>(
      secrets ? mapJsonFields(d.options, deviceSecretFields, secrets.decrypt) : d.options,
      deviceOptions,
      defaultOptions,
    ),
    check_interval: d.check_interval,
    device_group_id: d.device_group_id,
    items: byDevice.get(d.id) ?? [],
  }));
};
