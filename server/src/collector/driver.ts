import type { DeviceOptions, DriverName, ItemSource, SerialSettings } from '@sitewatch/contract/monitoring';

/** What a driver needs to know of a device. */
export interface DriverDevice {
  id: number;
  name: string;
  ip: string;
  port: number | null;
  /** Modbus unit id (1–255). */
  protocol_id: number;
  /** SNMP v1, v2c or v3. */
  protocol_version: string;
  serial: SerialSettings;
  options: DeviceOptions;
}

/** What a driver needs to know of a monitored item. */
export interface DriverItem {
  id: number;
  value_type: 0 | 1;
  source: ItemSource;
}

/**
 * Where a session that is told values (MQTT) delivers them as they arrive: the collector routes
 * each call through the same path as a poll's answer (checked, stored, judged), for the items
 * named in it only.
 */
export interface PushSink {
  onValues(result: ReadResult, tsMs: number): void;
}

/**
 * The answer of one read: a value per item that answered, a reason per item that did not.
 * A read that rejects means the device did not answer at all. An item the device answered with
 * something that is not a usable number (text that is not a number, a float NaN) has NaN in
 * `values` and may carry the reason in `errors`: the collector checks every value (reading.ts),
 * makes the item unknown with the reason, and still counts the device as answering.
 */
export interface ReadResult {
  values: Map<number, number>;
  errors: Map<number, string>;
}

/** An open connection to one device; the collector keeps it between polls. */
export interface DriverSession {
  /**
   * A poll. A session that pushes (`pushes`) answers it with no values: the poll only checks the
   * connection and (re)subscribes the items, and their values come through the sink.
   */
  read(items: DriverItem[]): Promise<ReadResult>;
  /** Values arrive through the `PushSink` given to `connect`, each as it comes, not at polls. */
  readonly pushes?: boolean;
  /** Writes a setpoint or command; rejects when the device refuses it or cannot be written. */
  write(item: DriverItem, value: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A device protocol (STYLE.md habit 5: one interface, one file per member, one conformance suite
 * in server/test/conformance/driver.suite.ts).
 */
export interface Driver {
  readonly name: DriverName;
  /** The `source.kind` of the items this driver reads. */
  readonly sourceKind: ItemSource['kind'];
  /** `sink`: where a driver that is told values delivers them; without one it answers polls with the last values. */
  connect(device: DriverDevice, sink?: PushSink): Promise<DriverSession>;
  /**
   * A driver made by a factory: the options the collector worker makes the same driver from
   * (drivers/index.ts, `driverRecipes`); absent when it cannot be rebuilt there.
   */
  readonly workerOptions?: Record<string, number>;
}

export type DriverRegistry = Partial<Record<DriverName, Driver>>;

/**
 * A raw reading times the item's scale, with no rounding: a value keeps the precision its type
 * carries (docs/monitoring.md "Precision"). A decimal scale (0.1, 0.01, 1e-5 …) divides by its
 * whole inverse instead, which rounds once, as the decimal product would: 2351 × 0.1 is 235.1,
 * not 235.10000000000002, and 1234567891234 × 0.001 is 1234567891.234.
 */
export const scaleValue = (raw: number, scale: number): number => {
  if (scale === 1) return raw;
  const divisor = Math.round(1 / scale);
  return divisor > 1 && 1 / divisor === scale ? raw / divisor : raw * scale;
};

/** Rejects with `message` when `promise` takes longer than `ms`. */
export const withTimeout = <T>(promise: Promise<T>, ms: number, message: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });

export const errorText = (err: unknown): string => {
  // Some libraries reject with plain objects ({name, message, errno}) rather than Errors.
  const text =
    err instanceof Error
      ? err.message
      : typeof err === 'object' && err !== null && 'message' in err
        ? String((err as { message: unknown }).message)
        : String(err);
  return text.slice(0, 280) || 'error';
};
