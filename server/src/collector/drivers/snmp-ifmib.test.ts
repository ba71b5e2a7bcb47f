import { describe, expect, it } from 'vitest';
import { counterRate, metricValue, portDown, portSpeedBps } from './snmp-ifmib.ts';

const at = (value: bigint, uptime_cs: number) => ({ value, uptime_cs });
const max64 = 1n << 64n;

describe('counterRate: wrap and reset of synthetic counters', () => {
  it('is the difference over the agent time between the two readings', () => {
    const r = counterRate(at(1_000n, 10_000), at(126_000n, 10_500), 64);
    expect(r).toEqual({ ok: true, perSecond: 25_000 });
  });

  it('counts a 64-bit wrap as the distance through 2^64', () => {
    const r = counterRate(at(max64 - 1_000n, 0), at(500n, 500), 64);
    expect(r).toEqual({ ok: true, perSecond: 300 });
  });

  it('counts a 32-bit wrap of the packet counters through 2^32', () => {
    const r = counterRate(at(4_294_967_290n, 100), at(4n, 200), 32);
    expect(r).toEqual({ ok: true, perSecond: 10 });
  });

  it('gives no rate when sysUpTime went back (the agent restarted), however the counter moved', () => {
    const smaller = counterRate(at(5_000_000_000n, 900_000), at(1_200n, 300), 64);
    expect(smaller.ok).toBe(false);
    if (!smaller.ok) expect(smaller.reason).toMatch(/sysUpTime went back/);
    // Counters kept by the kernel survive an agent restart: still no rate across it.
    expect(counterRate(at(1_000n, 900_000), at(9_000n, 300), 64).ok).toBe(false);
  });

  it('refuses a "wrap" faster than the port can carry (a discontinuity), not a huge rate', () => {
    // 1 Gbit/s port, 125e6 octets/s at most: a 64-bit counter from 1e12 to 1e6 is no wrap.
    const r = counterRate(at(1_000_000_000_000n, 0), at(1_000_000n, 1000), 64, (1e9 * 1.1) / 8);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/discontinuity/);
  });

  it('gives no rate when no agent time passed', () => {
    expect(counterRate(at(1n, 500), at(2n, 500), 64).ok).toBe(false);
  });
});

describe('port metrics', () => {
  const port = (values: Record<string, bigint>) => ({
    values: new Map(Object.entries(values)) as never,
    errors: new Map() as never,
    uptime_cs: new Map() as never,
  });

  it('port down is admin up and oper not up (nor dormant)', () => {
    expect(portDown(1, 1)).toBe(0);
    expect(portDown(1, 2)).toBe(1);
    expect(portDown(1, 7)).toBe(1);
    expect(portDown(1, 5)).toBe(0);
    expect(portDown(2, 2)).toBe(0);
  });

  it('speed from ifHighSpeed, or ifSpeed where it is absent or 0', () => {
    expect(portSpeedBps(10_000, 4_294_967_295)).toBe(10e9);
    expect(portSpeedBps(undefined, 100_000_000)).toBe(100e6);
    expect(portSpeedBps(0, 512_000)).toBe(512_000);
    expect(portSpeedBps(0, 0)).toBe(0);
  });

  it('traffic in bits per second and utilisation in percent of the speed', () => {
    const p = port({ ifHighSpeed: 100n, ifAdminStatus: 1n, ifOperStatus: 2n });
    const rate = () => ({ ok: true as const, perSecond: 1_250_000 });
    expect(metricValue('in_bps', p, rate)).toEqual({ ok: true, value: 10_000_000 });
    expect(metricValue('out_util', p, rate)).toEqual({ ok: true, value: 10 });
    expect(metricValue('port_down', p, rate)).toEqual({ ok: true, value: 1 });
    expect(metricValue('speed_mbps', p, rate)).toEqual({ ok: true, value: 100 });
    const none = () => ({ ok: false as const, reason: 'first reading' });
    expect(metricValue('in_bps', p, none)).toEqual({ ok: false, reason: 'first reading' });
    expect(metricValue('in_util', port({ ifHighSpeed: 0n, ifSpeed: 0n }), rate).ok).toBe(false);
  });
});
