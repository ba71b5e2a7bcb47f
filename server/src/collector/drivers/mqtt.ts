import mqtt from 'mqtt';
import { type Driver, type DriverItem, errorText, type ReadResult, roundValue, withTimeout } from '../driver.ts';
import { checkReading, parseNumberText, type Reading } from '../reading.ts';

/** The topic of an item on a device: `{device_id}` stands for the device's id. */
export const itemTopic = (topic: string, deviceId: number) => topic.replaceAll('{device_id}', String(deviceId));

/**
 * The reading at a dotted path of a JSON payload (empty path: the payload itself); null when the
 * payload has nothing there. Text, in the payload or at the path, must be a number in the one
 * format of reading.ts: "12,5" and "0x1A" are refused with the reason, never cut to 12 or 0.
 */
export const valueAtPath = (payload: unknown, path: string): Reading | null => {
  let node = payload;
  for (const part of path ? path.split('.') : []) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Record<string, unknown>)[part];
  }
  if (node === undefined) return null;
  if (typeof node === 'boolean') return { ok: true, value: node ? 1 : 0 };
  if (typeof node === 'string') return parseNumberText(node);
  return checkReading(node);
};

/**
 * MQTT: subscribes to the topics of the device's items on its broker (ip:port) and answers each
 * poll with the last value received. A lost broker connection makes the device unknown; the
 * client reconnects and subscribes again by itself.
 */
export const mqttDriver: Driver = {
  name: 'mqtt',
  sourceKind: 'mqtt',
  async connect(device) {
    const o = device.options;
    const client = mqtt.connect(`mqtt://${device.ip}:${device.port ?? 1883}`, {
      username: o.mqtt_username || undefined,
      password: o.mqtt_password || undefined,
      connectTimeout: o.timeout_ms,
      reconnectPeriod: 1000,
      clientId: `sitewatch-${device.id}-${Math.random().toString(16).slice(2, 10)}`,
    });
    client.on('error', () => undefined);
    const last = new Map<string, { payload: unknown; at: number }>();
    const subscribed = new Set<string>();
    client.on('message', (topic, message) => {
      let payload: unknown;
      const text = message.toString('utf8');
      try {
        payload = JSON.parse(text);
      } catch {
        payload = text;
      }
      last.set(topic, { payload, at: Date.now() });
    });
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        client.once('connect', () => resolve());
        client.once('error', (err) => reject(err));
      }),
      o.timeout_ms,
      'broker did not answer',
    ).catch(async (err) => {
      await client.endAsync(true).catch(() => undefined);
      throw err;
    });

    const subscribe = async (items: DriverItem[]) => {
      const topics = [
        ...new Set(
          items
            .filter((i) => i.source.kind === 'mqtt')
            .map((i) => itemTopic(i.source.kind === 'mqtt' ? i.source.topic : '', device.id)),
        ),
      ].filter((t) => !subscribed.has(t));
      if (topics.length === 0) return;
      await client.subscribeAsync(topics, { qos: 0 });
      for (const t of topics) subscribed.add(t);
      // Retained values arrive just after the subscription: give them a moment on the first poll.
      const until = Date.now() + Math.min(500, o.timeout_ms / 2);
      while (Date.now() < until && topics.some((t) => !last.has(t))) await new Promise((r) => setTimeout(r, 20));
    };

    return {
      async read(items) {
        if (!client.connected) throw new Error('broker connection lost');
        await withTimeout(subscribe(items), o.timeout_ms, 'broker did not answer');
        const result: ReadResult = { values: new Map(), errors: new Map() };
        for (const item of items) {
          if (item.source.kind !== 'mqtt') {
            result.errors.set(item.id, 'not an mqtt item');
            continue;
          }
          const got = last.get(itemTopic(item.source.topic, device.id));
          if (!got) {
            result.errors.set(item.id, 'no message yet');
            continue;
          }
          const n = valueAtPath(got.payload, item.source.json_path);
          if (n === null) result.errors.set(item.id, `no number at ${item.source.json_path || 'payload'}`);
          else if (n.ok) result.values.set(item.id, roundValue(n.value * item.source.scale));
          else {
            // A message came, without a usable number: the item is unknown with the reason, the device is not.
            result.values.set(item.id, Number.NaN);
            result.errors.set(item.id, n.reason);
          }
        }
        return result;
      },
      async write(item, value) {
        if (item.source.kind !== 'mqtt' || !item.source.command_topic) throw new Error('item has no command topic');
        if (!client.connected) throw new Error('broker connection lost');
        await client
          .publishAsync(itemTopic(item.source.command_topic, device.id), JSON.stringify({ value }), { qos: 1 })
          .catch((err) => {
            throw new Error(errorText(err));
          });
      },
      async close() {
        await client.endAsync(true).catch(() => undefined);
      },
    };
  },
};
