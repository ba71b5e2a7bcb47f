import { type IfMetric, ifRateMetrics } from '@sitewatch/contract/monitoring';
import type NetSnmp from 'net-snmp';
import { type Driver, type DriverDevice, type DriverItem, errorText, type ReadResult } from '../driver.ts';
import { loadSnmp, openSnmpSession } from './snmp.ts';

/**
 * Ports of switches and routers over SNMP IF-MIB (RFC 2863; docs/network-devices.md): each item
 * is one metric of one port (`source: {kind: 'snmp-ifmib', if_index, metric}`). States and speeds
 * are read as the agent answers them; traffic, errors and discards are rates between two reads,
 * timed by the agent's own sysUpTime read in the same request as the counters.
 */

export const ifOid = {
  sysUpTime: '1.3.6.1.2.1.1.3.0',
  ifDescr: '1.3.6.1.2.1.2.2.1.2',
  ifSpeed: '1.3.6.1.2.1.2.2.1.5',
  ifAdminStatus: '1.3.6.1.2.1.2.2.1.7',
  ifOperStatus: '1.3.6.1.2.1.2.2.1.8',
  ifInDiscards: '1.3.6.1.2.1.2.2.1.13',
  ifInErrors: '1.3.6.1.2.1.2.2.1.14',
  ifOutDiscards: '1.3.6.1.2.1.2.2.1.19',
  ifOutErrors: '1.3.6.1.2.1.2.2.1.20',
  ifName: '1.3.6.1.2.1.31.1.1.1.1',
  ifHCInOctets: '1.3.6.1.2.1.31.1.1.1.6',
  ifHCOutOctets: '1.3.6.1.2.1.31.1.1.1.10',
  ifHighSpeed: '1.3.6.1.2.1.31.1.1.1.15',
  ifAlias: '1.3.6.1.2.1.31.1.1.1.18',
} as const;
type Column = Exclude<keyof typeof ifOid, 'sysUpTime' | 'ifDescr' | 'ifName' | 'ifAlias'>;

/** The columns one metric needs. */
const columnsOf: Record<IfMetric, Column[]> = {
  admin_status: ['ifAdminStatus'],
  oper_status: ['ifOperStatus'],
  port_down: ['ifAdminStatus', 'ifOperStatus'],
  speed_mbps: ['ifHighSpeed', 'ifSpeed'],
  in_bps: ['ifHCInOctets', 'ifHighSpeed', 'ifSpeed'],
  out_bps: ['ifHCOutOctets', 'ifHighSpeed', 'ifSpeed'],
  in_util: ['ifHCInOctets', 'ifHighSpeed', 'ifSpeed'],
  out_util: ['ifHCOutOctets', 'ifHighSpeed', 'ifSpeed'],
  in_errors: ['ifInErrors', 'ifHighSpeed', 'ifSpeed'],
  out_errors: ['ifOutErrors', 'ifHighSpeed', 'ifSpeed'],
  in_discards: ['ifInDiscards', 'ifHighSpeed', 'ifSpeed'],
  out_discards: ['ifOutDiscards', 'ifHighSpeed', 'ifSpeed'],
};

/** Counter columns and their width: the 64-bit octet counters and the 32-bit packet counters. */
const counterBits: Partial<Record<Column, 32 | 64>> = {
  ifHCInOctets: 64,
  ifHCOutOctets: 64,
  ifInErrors: 32,
  ifOutErrors: 32,
  ifInDiscards: 32,
  ifOutDiscards: 32,
};

/** One reading of a counter: its value and the agent's sysUpTime (hundredths of a second) in the same answer. */
export interface CounterReading {
  value: bigint;
  uptime_cs: number;
}

export type Rate = { ok: true; perSecond: number } | { ok: false; reason: string };

/**
 * The rate of a counter between two readings (units per second).
 * - sysUpTime went back: the agent restarted and its counters started again, so this interval
 *   has no rate (never the huge number a subtraction would give).
 * - A smaller counter with sysUpTime going on: the counter wrapped (modulo 2^bits), unless the
 *   rate that gives is more than `maxPerSecond` (the port cannot carry it: the counter was reset
 *   or replaced, a discontinuity), which again gives no rate.
 * @example counterRate({value: 2n ** 64n - 1000n, uptime_cs: 0}, {value: 500n, uptime_cs: 500}, 64) // 300/s
 */
export const counterRate = (
  prev: CounterReading,
  cur: CounterReading,
  bits: 32 | 64,
  maxPerSecond = Number.POSITIVE_INFINITY,
): Rate => {
  if (cur.uptime_cs < prev.uptime_cs) {
    return { ok: false, reason: 'counter reset: the agent restarted (sysUpTime went back), no rate for this interval' };
  }
  const seconds = (cur.uptime_cs - prev.uptime_cs) / 100;
  if (seconds <= 0) return { ok: false, reason: 'no time passed between two reads: no rate yet' };
  let delta = cur.value - prev.value;
  const wrapped = delta < 0n;
  if (wrapped) delta += 1n << BigInt(bits);
  const perSecond = Number(delta) / seconds;
  if (wrapped && perSecond > maxPerSecond) {
    return { ok: false, reason: 'counter went back (discontinuity, not a wrap): no rate for this interval' };
  }
  return { ok: true, perSecond };
};

/** Port speed in bits per second: ifHighSpeed (Mbit/s), or ifSpeed where ifHighSpeed is absent or 0. */
export const portSpeedBps = (highSpeed: number | undefined, speed: number | undefined): number | undefined => {
  if (highSpeed !== undefined && (highSpeed > 0 || !speed)) return highSpeed * 1e6;
  return speed;
};

/** Port down: administratively up but not operationally up (dormant links wait for traffic: not down). */
export const portDown = (admin: number, oper: number) => (admin === 1 && oper !== 1 && oper !== 5 ? 1 : 0);

/** net-snmp once a session opened it (snmp.ts, `loadSnmp`). */
let snmp: typeof NetSnmp;

const normalise = (oid: string) => oid.replace(/^\./, '');

/** An unsigned integer of any SNMP numeric type; Counter64 arrives as a big-endian buffer. */
const toBigInt = (vb: NetSnmp.Varbind): bigint | undefined => {
  const v = vb.value;
  if (Buffer.isBuffer(v)) {
    if (vb.type !== snmp.ObjectType.Counter64) return undefined;
    let n = 0n;
    for (const byte of v) n = (n << 8n) | BigInt(byte);
    return n;
  }
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
};

const get = (session: NetSnmp.Session, oids: string[]) =>
  new Promise<NetSnmp.Varbind[]>((resolve, reject) => {
    session.get(oids, (err, varbinds) => (err ? reject(err) : resolve(varbinds ?? [])));
  });

const isNoAnswer = (err: unknown) =>
  err instanceof Error && /timed out|ECONNREFUSED|EHOSTUNREACH|closed/i.test(err.message);

/** What one read found of one port: each column's value or why there is none, and the uptime of its answer. */
interface PortSnapshot {
  values: Map<Column, bigint>;
  errors: Map<Column, string>;
  uptime_cs: Map<Column, number>;
}

/**
 * The IF-MIB driver. Counter readings are kept per device and port across sessions (a reconnect
 * does not lose one interval's rate); the first read of a counter has no rate yet.
 */
export const createIfMibDriver = (options: { now?: () => number } = {}): Driver => {
  const now = options.now ?? Date.now;
  /** `${device id}|${address}|${ifIndex}|${column}` → the previous reading. */
  const previous = new Map<string, CounterReading>();

  return {
    name: 'snmp-ifmib',
    sourceKind: 'snmp-ifmib',
    async connect(device: DriverDevice) {
      snmp = await loadSnmp();
      const session = await openSnmpSession(device);
      session.on('error', () => undefined);
      let closed = false;
      const address = `${device.ip}:${device.port ?? 161}`;

      /** GETs the columns with sysUpTime in every request, so each counter is timed by its own answer. */
      const snapshot = async (wanted: Map<number, Set<Column>>): Promise<Map<number, PortSnapshot>> => {
        const pairs: Array<[number, Column]> = [];
        for (const [ifIndex, cols] of wanted) for (const c of cols) pairs.push([ifIndex, c]);
        const ports = new Map<number, PortSnapshot>();
        for (const ifIndex of wanted.keys()) {
          ports.set(ifIndex, { values: new Map(), errors: new Map(), uptime_cs: new Map() });
        }
        const apply = (ifIndex: number, column: Column, vb: NetSnmp.Varbind, uptime: number) => {
          const port = ports.get(ifIndex)!;
          if (snmp.isVarbindError(vb)) {
            port.errors.set(column, `${column}.${ifIndex}: ${snmp.varbindError(vb)}`);
            return;
          }
          const n = toBigInt(vb);
          if (n === undefined) port.errors.set(column, `${column}.${ifIndex}: not a number`);
          else {
            port.values.set(column, n);
            port.uptime_cs.set(column, uptime);
          }
        };
        const uptimeOf = (vb: NetSnmp.Varbind | undefined) => {
          const v = vb && !snmp.isVarbindError(vb) ? vb.value : undefined;
          // An agent without sysUpTime: our own clock in the same unit.
          return typeof v === 'number' ? v : Math.floor(now() / 10);
        };
        // 19 columns and sysUpTime per request keeps each answer well under a UDP datagram.
        for (let i = 0; i < pairs.length; i += 19) {
          const group = pairs.slice(i, i + 19);
          const oids = [ifOid.sysUpTime, ...group.map(([ifIndex, c]) => `${ifOid[c]}.${ifIndex}`)];
          try {
            const vbs = await get(session, oids);
            const uptime = uptimeOf(vbs[0]);
            group.forEach(([ifIndex, c], k) => {
              apply(ifIndex, c, vbs[k + 1]!, uptime);
            });
          } catch (err) {
            if (isNoAnswer(err)) throw err;
            // SNMPv1 refuses the whole request for one missing OID: ask one by one to isolate it.
            for (const [ifIndex, c] of group) {
              try {
                const vbs = await get(session, [ifOid.sysUpTime, `${ifOid[c]}.${ifIndex}`]);
                apply(ifIndex, c, vbs[1]!, uptimeOf(vbs[0]));
              } catch (one) {
                if (isNoAnswer(one)) throw one;
                ports.get(ifIndex)!.errors.set(c, `${c}.${ifIndex}: ${errorText(one)}`);
              }
            }
          }
        }
        return ports;
      };

      const read = async (items: DriverItem[]): Promise<ReadResult> => {
        const result: ReadResult = { values: new Map(), errors: new Map() };
        const wanted = new Map<number, Set<Column>>();
        const ours: Array<{ id: number; if_index: number; metric: IfMetric }> = [];
        for (const item of items) {
          if (item.source.kind !== 'snmp-ifmib') {
            result.errors.set(item.id, 'not an IF-MIB item');
            continue;
          }
          const { if_index, metric } = item.source;
          ours.push({ id: item.id, if_index, metric });
          const cols = wanted.get(if_index) ?? new Set<Column>();
          for (const c of columnsOf[metric]) cols.add(c);
          wanted.set(if_index, cols);
        }
        if (ours.length === 0) return result;
        const ports = await snapshot(wanted);

        // Rates of every counter read, once per port and column, then remembered for the next read.
        const rates = new Map<string, Rate>();
        for (const [ifIndex, port] of ports) {
          const speed = portSpeedBps(num(port, 'ifHighSpeed'), num(port, 'ifSpeed'));
          for (const [column, value] of port.values) {
            const bits = counterBits[column];
            if (!bits) continue;
            const key = `${device.id}|${address}|${ifIndex}|${column}`;
            const cur = { value, uptime_cs: port.uptime_cs.get(column)! };
            const prev = previous.get(key);
            previous.set(key, cur);
            // What the port could carry at most (10 % above its speed): bits for octets, minimal 64-byte frames for packets.
            const max = speed ? (bits === 64 ? (speed * 1.1) / 8 : (speed * 1.1) / 512) : undefined;
            rates.set(
              `${ifIndex}|${column}`,
              prev
                ? counterRate(prev, cur, bits, max)
                : { ok: false, reason: 'first reading of the counter: a rate needs two reads' },
            );
          }
        }

        for (const { id, if_index, metric } of ours) {
          const port = ports.get(if_index)!;
          const value = metricValue(metric, port, (c) => rates.get(`${if_index}|${c}`));
          if (value.ok) result.values.set(id, value.value);
          else result.errors.set(id, value.reason);
        }
        return result;
      };

      return {
        read,
        async write() {
          throw new Error('port metrics are read only');
        },
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
    },
  };
};

const num = (port: PortSnapshot, c: Column) => {
  const v = port.values.get(c);
  return v === undefined ? undefined : Number(v);
};

type Value = { ok: true; value: number } | { ok: false; reason: string };

const missing = (port: PortSnapshot, c: Column): Value => ({
  ok: false,
  reason: port.errors.get(c) ?? `${c}: no answer`,
});

/** One metric of one port from its snapshot and the counter rates. */
export const metricValue = (metric: IfMetric, port: PortSnapshot, rateOf: (c: Column) => Rate | undefined): Value => {
  const speed = portSpeedBps(num(port, 'ifHighSpeed'), num(port, 'ifSpeed'));
  const rate = (c: Column): Value => {
    const r = rateOf(c);
    if (!r) return missing(port, c);
    return r.ok ? { ok: true, value: r.perSecond } : r;
  };
  switch (metric) {
    case 'admin_status':
      return port.values.has('ifAdminStatus')
        ? { ok: true, value: num(port, 'ifAdminStatus')! }
        : missing(port, 'ifAdminStatus');
    case 'oper_status':
      return port.values.has('ifOperStatus')
        ? { ok: true, value: num(port, 'ifOperStatus')! }
        : missing(port, 'ifOperStatus');
    case 'port_down': {
      const admin = num(port, 'ifAdminStatus');
      const oper = num(port, 'ifOperStatus');
      if (admin === undefined) return missing(port, 'ifAdminStatus');
      if (oper === undefined) return missing(port, 'ifOperStatus');
      return { ok: true, value: portDown(admin, oper) };
    }
    case 'speed_mbps':
      return speed === undefined ? missing(port, 'ifSpeed') : { ok: true, value: speed / 1e6 };
    case 'in_bps':
    case 'out_bps': {
      const r = rate(metric === 'in_bps' ? 'ifHCInOctets' : 'ifHCOutOctets');
      return r.ok ? { ok: true, value: r.value * 8 } : r;
    }
    case 'in_util':
    case 'out_util': {
      const r = rate(metric === 'in_util' ? 'ifHCInOctets' : 'ifHCOutOctets');
      if (!r.ok) return r;
      if (!speed) return { ok: false, reason: 'port speed is 0 or unknown: no utilisation' };
      return { ok: true, value: ((r.value * 8) / speed) * 100 };
    }
    case 'in_errors':
      return rate('ifInErrors');
    case 'out_errors':
      return rate('ifOutErrors');
    case 'in_discards':
      return rate('ifInDiscards');
    case 'out_discards':
      return rate('ifOutDiscards');
  }
};

/** Whether a metric is a rate (kept here so the driver and the pages agree). */
export const isRateMetric = (metric: IfMetric) => ifRateMetrics.has(metric);

/** One port as a walk of the agent's ifTable finds it. */
export interface DiscoveredPort {
  if_index: number;
  name: string;
  descr: string;
  alias: string;
  admin_status: number | null;
  oper_status: number | null;
  speed_mbps: number | null;
}

/** Walks the ports of a device: ifIndex with names, states and speed (for adding its port items). */
export const walkPorts = async (device: DriverDevice): Promise<DiscoveredPort[]> => {
  snmp = await loadSnmp();
  const session = await openSnmpSession(device);
  session.on('error', () => undefined);
  const column = (oid: string) =>
    new Promise<Map<number, NetSnmp.Varbind>>((resolve, reject) => {
      const found = new Map<number, NetSnmp.Varbind>();
      const feed = (vbs: NetSnmp.Varbind[]) => {
        for (const vb of vbs) {
          if (snmp.isVarbindError(vb)) continue;
          const index = Number(normalise(vb.oid).slice(oid.length + 1));
          if (Number.isInteger(index) && index > 0) found.set(index, vb);
        }
      };
      session.subtree(oid, 20, feed, (err) => (err ? reject(err) : resolve(found)));
    });
  try {
    const descr = await column(ifOid.ifDescr);
    const [name, alias, admin, oper, speed, high] = await Promise.all([
      column(ifOid.ifName).catch(() => new Map<number, NetSnmp.Varbind>()),
      column(ifOid.ifAlias).catch(() => new Map<number, NetSnmp.Varbind>()),
      column(ifOid.ifAdminStatus),
      column(ifOid.ifOperStatus),
      column(ifOid.ifSpeed),
      column(ifOid.ifHighSpeed).catch(() => new Map<number, NetSnmp.Varbind>()),
    ]);
    const text = (vb: NetSnmp.Varbind | undefined) => (Buffer.isBuffer(vb?.value) ? vb.value.toString('utf8') : '');
    const int = (vb: NetSnmp.Varbind | undefined) => (typeof vb?.value === 'number' ? vb.value : undefined);
    return [...descr.keys()]
      .sort((a, b) => a - b)
      .map((ifIndex) => {
        const bps = portSpeedBps(int(high.get(ifIndex)), int(speed.get(ifIndex)));
        return {
          if_index: ifIndex,
          name: text(name.get(ifIndex)) || text(descr.get(ifIndex)),
          descr: text(descr.get(ifIndex)),
          alias: text(alias.get(ifIndex)),
          admin_status: int(admin.get(ifIndex)) ?? null,
          oper_status: int(oper.get(ifIndex)) ?? null,
          speed_mbps: bps === undefined ? null : bps / 1e6,
        };
      });
  } finally {
    try {
      session.close();
    } catch {
      // already closed
    }
  }
};

export const snmpIfMibDriver = createIfMibDriver();
