import type NetSnmp from 'net-snmp';
import {
  type Driver,
  type DriverDevice,
  type DriverItem,
  type DriverSession,
  errorText,
  type ReadResult,
  scaleValue,
} from '../driver.ts';
import { checkReading, parseNumberText, type Reading } from '../reading.ts';

type Varbind = NetSnmp.Varbind;

/**
 * net-snmp, loaded at the first session (here and in the IF-MIB driver): the main thread, whose
 * collector worker polls, needs it only for a port walk (issue 18, memory). Varbinds exist only
 * once it is.
 */
let snmp: typeof NetSnmp;
export const loadSnmp = async (): Promise<typeof NetSnmp> => {
  snmp ??= (await import('net-snmp')).default;
  return snmp;
};

const get = (session: NetSnmp.Session, oids: string[]) =>
  new Promise<Varbind[]>((resolve, reject) => {
    session.get(oids, (err, varbinds) => (err ? reject(err) : resolve(varbinds ?? [])));
  });

/**
 * Numbers from any SNMP value: integers, counters, gauges, time ticks, Counter64, and text in the
 * one number format of reading.ts (an OctetString "12,5" or "0x1A" is refused with the reason,
 * never cut to 12 or 0).
 */
export const snmpNumber = (vb: Varbind): Reading => {
  const v = vb.value;
  if (typeof v === 'boolean') return { ok: true, value: v ? 1 : 0 };
  if (Buffer.isBuffer(v)) {
    if (vb.type === snmp.ObjectType.Counter64) {
      let n = 0;
      for (const byte of v) n = n * 256 + byte;
      return { ok: true, value: n };
    }
    return parseNumberText(v.toString('utf8'));
  }
  // An IpAddress or OID arrives as a string: the same strict format refuses it.
  if (typeof v === 'string') return parseNumberText(v);
  return checkReading(v);
};

const normaliseOid = (oid: string) => oid.replace(/^\./, '');

/** A failure of the request itself (no answer) rather than an error status for some OIDs. */
const isNoAnswer = (err: unknown) =>
  err instanceof Error && /timed out|ECONNREFUSED|EHOSTUNREACH|closed/i.test(err.message);

/** An SNMP session of a device: v1 and v2c by community, v3 by user (shared with the IF-MIB driver). */
export const openSnmpSession = async (device: DriverDevice): Promise<NetSnmp.Session> => {
  await loadSnmp();
  const o = device.options;
  const common = { port: device.port ?? 161, retries: 0, timeout: o.timeout_ms };
  let session: NetSnmp.Session;
  if (device.protocol_version === 'v3') {
    const level = snmp.SecurityLevel[o.v3_level];
    const user: NetSnmp.User = { name: o.v3_user, level };
    if (level !== snmp.SecurityLevel.noAuthNoPriv) {
      user.authProtocol = snmp.AuthProtocols[o.v3_auth_protocol];
      user.authKey = o.v3_auth_key;
    }
    if (level === snmp.SecurityLevel.authPriv) {
      user.privProtocol = snmp.PrivProtocols[o.v3_priv_protocol];
      user.privKey = o.v3_priv_key;
    }
    session = snmp.createV3Session(device.ip, user, { ...common, version: snmp.Version3 });
  } else {
    session = snmp.createSession(device.ip, o.community, {
      ...common,
      version: device.protocol_version === 'v1' ? snmp.Version1 : snmp.Version2c,
    });
  }
  return session;
};

/** SNMP v1, v2c (community) and v3 (user, auth and privacy) GETs; SETs for writes. */
export const snmpDriver: Driver = {
  name: 'snmp',
  sourceKind: 'snmp',
  async connect(device) {
    const session = await openSnmpSession(device);
    let closed = false;
    session.on('error', () => undefined);

    const readAll = async (items: DriverItem[]): Promise<ReadResult> => {
      const result: ReadResult = { values: new Map(), errors: new Map() };
      const snmpItems = items.filter((i) => i.source.kind === 'snmp');
      for (const i of items) if (i.source.kind !== 'snmp') result.errors.set(i.id, 'not an snmp item');
      const apply = (item: DriverItem, vb: Varbind) => {
        if (item.source.kind !== 'snmp') return;
        if (snmp.isVarbindError(vb)) {
          result.errors.set(item.id, snmp.varbindError(vb));
          return;
        }
        const n = snmpNumber(vb);
        if (n.ok) result.values.set(item.id, scaleValue(n.value, item.source.scale));
        else {
          // The agent answered, with something that is not a number: the item is unknown, the device is not.
          result.values.set(item.id, Number.NaN);
          result.errors.set(item.id, n.reason);
        }
      };
      for (let i = 0; i < snmpItems.length; i += 20) {
        const group = snmpItems.slice(i, i + 20);
        const oids = group.map((it) => (it.source.kind === 'snmp' ? normaliseOid(it.source.oid) : ''));
        try {
          const varbinds = await get(session, oids);
          group.forEach((it, k) => {
            apply(it, varbinds[k]!);
          });
        } catch (err) {
          if (isNoAnswer(err) || group.length === 1) {
            if (isNoAnswer(err)) throw err;
            result.errors.set(group[0]!.id, errorText(err));
            continue;
          }
          // v1 fails the whole request for one unknown OID: ask one by one to isolate it.
          for (const it of group) {
            try {
              const [vb] = await get(session, [it.source.kind === 'snmp' ? normaliseOid(it.source.oid) : '']);
              apply(it, vb!);
            } catch (one) {
              if (isNoAnswer(one)) throw one;
              result.errors.set(it.id, errorText(one));
            }
          }
        }
      }
      return result;
    };

    const session_: DriverSession = {
      read: readAll,
      write: (item, value) =>
        new Promise<void>((resolve, reject) => {
          if (item.source.kind !== 'snmp') return reject(new Error('not an snmp item'));
          const raw = Math.round(item.source.scale ? value / item.source.scale : value);
          session.set([{ oid: normaliseOid(item.source.oid), type: snmp.ObjectType.Integer, value: raw }], (err) =>
            err ? reject(err) : resolve(),
          );
        }),
      async close() {
        if (closed) return;
        closed = true;
        try {
          session.close();
        } catch {
          // already closed
        }
      },
    };
    return session_;
  },
};
