import { defaultCommandPayload } from '@sitewatch/contract/monitoring';
import { type Driver, type DriverItem, errorText, type ReadResult, scaleValue, withTimeout } from '../driver.ts';
import { checkReading, parseNumberText, type Reading } from '../reading.ts';

/** The topic of an item on a device: `{device_id}` stands for the device's id. */
export const itemTopic = (topic: string, deviceId: number) => topic.replaceAll('{device_id}', String(deviceId));

/**
 * Whether a topic matches a subscription filter (MQTT 3.1.1 §4.7): `+` one whole level, `#` the
 * rest (and the parent itself); topics starting with `$` are not matched by a leading wildcard.
 * @example topicMatches('sensors/+/state', 'sensors/7/state') // true
 */
export const topicMatches = (filter: string, topic: string): boolean => {
  const f = filter.split('/');
  const t = topic.split('/');
  if (topic.startsWith('$') && (f[0] === '+' || f[0] === '#')) return false;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
};

/** Whether filter `a` matches every topic filter `b` matches (then subscribing to `b` too would deliver twice). */
const covers = (a: string, b: string): boolean => {
  const fa = a.split('/');
  const fb = b.split('/');
  for (let i = 0; i < fa.length; i++) {
    if (fa[i] === '#') return true;
    if (i >= fb.length || fb[i] === '#') return false;
    if (fa[i] !== '+' && fa[i] !== fb[i]) return false;
  }
  return fa.length === fb.length;
};

/** The filters to subscribe to: each once, and none another one already covers. */
export const subscriptionFilters = (filters: string[]): string[] => {
  const unique = [...new Set(filters)];
  return unique.filter((f) => !unique.some((g) => g !== f && covers(g, f)));
};

/** What an MQTT write publishes: the item's payload template with `{value}`, `{device_id}` and `{item_id}` filled in. */
export const commandPayload = (template: string | undefined, value: number, deviceId: number, itemId: number) =>
  (template ?? defaultCommandPayload)
    .replaceAll('{value}', String(value))
    .replaceAll('{device_id}', String(deviceId))
    .replaceAll('{item_id}', String(itemId));

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

/** A payload that is not JSON: its text (a bare number is read from it) and the parser's message. */
class NotJson {
  constructor(
    readonly text: string,
    readonly error: string,
  ) {}
}

const parsePayload = (message: Buffer): unknown => {
  const text = message.toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    return new NotJson(text, errorText(err).slice(0, 120));
  }
};

/**
 * The reading of `item` in a parsed payload, or null when the payload has nothing at its path. A
 * payload that is not JSON is the whole value's text for an item without a path; for an item with
 * one it is unreadable (`{"temp": 23.4, "hum":` or random bytes): the item is unknown with the
 * reason rather than left with its old value until its maximum age (issue 28, found 3).
 */
export const readingOf = (payload: unknown, path: string): Reading | null => {
  if (!(payload instanceof NotJson)) return valueAtPath(payload, path);
  if (!path) return parseNumberText(payload.text);
  return { ok: false, reason: `payload is not valid JSON: ${payload.error}` };
};

/** Parses a message as the driver does (tests). */
export const parseMessage = (message: Buffer | string): unknown =>
  parsePayload(typeof message === 'string' ? Buffer.from(message) : message);

/** Puts the reading of `item` in `payload` into `result`; false when the payload has nothing at its path. */
const readItem = (result: ReadResult, item: DriverItem, payload: unknown): boolean => {
  if (item.source.kind !== 'mqtt') return false;
  const n = readingOf(payload, item.source.json_path);
  if (n === null) return false;
  if (n.ok) result.values.set(item.id, scaleValue(n.value, item.source.scale));
  else {
    // A message came, without a usable number: the item is unknown with the reason, the device is not.
    result.values.set(item.id, Number.NaN);
    result.errors.set(item.id, n.reason);
  }
  return true;
};

/**
 * MQTT (docs/monitoring.md "MQTT"): subscribes to the topic filters of the device's items on its
 * broker (ip:port). Given a sink, every message is a sample: the items whose filter matches its
 * topic and whose path it carries are handed to the collector as it arrives, and a poll only checks
 * the connection and the subscriptions. Without one (the conformance suite), a poll answers with
 * the last message of each item. A lost broker connection makes the device unknown.
 */
export const mqttDriver: Driver = {
  name: 'mqtt',
  sourceKind: 'mqtt',
  async connect(device, sink) {
    const o = device.options;
    // Loaded at the first connection: the main thread, whose collector worker polls, never needs it (issue 18, memory).
    const { default: mqtt } = await import('mqtt');
    const client = mqtt.connect(`mqtt://${device.ip}:${device.port ?? 1883}`, {
      username: o.mqtt_username || undefined,
      password: o.mqtt_password || undefined,
      connectTimeout: o.timeout_ms,
      // The collector closes a session that lost its broker and opens a new one on its back-off.
      reconnectPeriod: 0,
      clientId: `sitewatch-${device.id}-${Math.random().toString(16).slice(2, 10)}`,
      // The client's own trace (the `debug` package, off unless DEBUG names it) is called several
      // times per message: 2–3 % of the collector thread at 60 000 messages/s.
      log: () => undefined,
    });
    client.on('error', () => undefined);
    const filterOf = (item: DriverItem) => (item.source.kind === 'mqtt' ? itemTopic(item.source.topic, device.id) : '');
    let items: DriverItem[] = [];
    // Topic → the items it feeds, worked out once per topic seen (cleared when the items change).
    const routes = new Map<string, DriverItem[]>();
    const itemsOf = (topic: string) => {
      let list = routes.get(topic);
      if (!list) {
        list = items.filter((i) => i.source.kind === 'mqtt' && topicMatches(filterOf(i), topic));
        if (routes.size > 10_000) routes.clear();
        routes.set(topic, list);
      }
      return list;
    };
    // Without a sink: the last message of each topic, for polls.
    const last = new Map<string, { payload: unknown; at: number }>();
    // With a sink, the messages of one millisecond (one socket read carries hundreds) go on as one
    // answer, so the collector walks the device's items and judges its state once per read instead
    // of once per message. An item named again within it sends the batch first: every message is
    // still its own sample, at its own time.
    let batch: ReadResult | null = null;
    let batchAt = 0;
    let scheduled = false;
    const sendBatch = () => {
      scheduled = false;
      const b = batch;
      batch = null;
      if (b && b.values.size > 0) sink?.onValues(b, batchAt);
    };
    const namedIn = (b: ReadResult, targets: DriverItem[]) => targets.some((i) => b.values.has(i.id));
    /** While a subscription waits for its retained values: the topics heard meanwhile. */
    let heard: Set<string> | null = null;
    client.on('message', (topic, message) => {
      const at = Date.now();
      heard?.add(topic);
      // A zero-length message clears a topic's retained value (MQTT 3.1.1 §3.3.1.3): not a reading.
      if (message.length === 0) {
        last.delete(topic);
        return;
      }
      if (!sink) {
        last.set(topic, { payload: parsePayload(message), at });
        return;
      }
      const targets = itemsOf(topic);
      if (targets.length === 0) return;
      const payload = parsePayload(message);
      if (batch && (at !== batchAt || namedIn(batch, targets))) sendBatch();
      if (!batch) {
        batch = { values: new Map(), errors: new Map() };
        batchAt = at;
      }
      for (const item of targets) readItem(batch, item, payload);
      if (!scheduled) {
        scheduled = true;
        setImmediate(sendBatch);
      }
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

    const subscribed = new Set<string>();
    // Worked out when the items change, not at every poll (comparing every pair of filters was 8 %
    // of the collector thread with 100 devices of 100 topics).
    let filters: string[] | null = null;
    const subscribe = async (wanted: DriverItem[]) => {
      if (wanted !== items || !filters) {
        items = wanted;
        routes.clear();
        filters = subscriptionFilters(wanted.filter((i) => i.source.kind === 'mqtt').map(filterOf));
      }
      const fresh = filters.filter((f) => !subscribed.has(f));
      if (fresh.length === 0) return;
      // Retained values arrive just after the subscription; give them a moment, so the poll that
      // subscribed reads them (polled) or has handed them on when it ends (told: a caller on a clock
      // of its own then sees them before its time moves on).
      heard = new Set();
      try {
        await client.subscribeAsync(fresh, { qos: 0 });
        for (const f of fresh) subscribed.add(f);
        const until = Date.now() + Math.min(500, o.timeout_ms / 2);
        const topics = () => (sink ? [...heard!] : [...last.keys()]);
        const seen = () => fresh.every((f) => topics().some((t) => topicMatches(f, t)));
        while (Date.now() < until && !seen()) await new Promise((r) => setTimeout(r, 20));
      } finally {
        heard = null;
      }
    };

    return {
      pushes: sink !== undefined,
      async read(wanted) {
        if (!client.connected) throw new Error('broker connection lost');
        await withTimeout(subscribe(wanted), o.timeout_ms, 'broker did not answer');
        const result: ReadResult = { values: new Map(), errors: new Map() };
        if (sink) return result;
        for (const item of wanted) {
          if (item.source.kind !== 'mqtt') {
            result.errors.set(item.id, 'not an mqtt item');
            continue;
          }
          // The newest message on a topic the item's filter matches.
          const filter = filterOf(item);
          let got: { payload: unknown; at: number } | undefined;
          for (const [topic, m] of last) if (topicMatches(filter, topic) && (!got || m.at >= got.at)) got = m;
          if (!got) result.errors.set(item.id, 'no message yet');
          else if (!readItem(result, item, got.payload))
            result.errors.set(item.id, `no number at ${item.source.json_path || 'payload'}`);
        }
        return result;
      },
      async write(item, value) {
        if (item.source.kind !== 'mqtt' || !item.source.command_topic) throw new Error('item has no command topic');
        if (!client.connected) throw new Error('broker connection lost');
        const payload = commandPayload(item.source.command_payload, value, device.id, item.id);
        await client.publishAsync(itemTopic(item.source.command_topic, device.id), payload, { qos: 1 }).catch((err) => {
          throw new Error(errorText(err));
        });
      },
      async close() {
        sendBatch();
        await client.endAsync(true).catch(() => undefined);
      },
    };
  },
};
