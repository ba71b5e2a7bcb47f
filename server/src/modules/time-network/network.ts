import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import {
  type HostAbility,
  type HostUnavailable,
  maskPrefix,
  type NetworkInterface,
  type NetworkState,
  prefixMask,
} from '@sitewatch/contract/time-network';
import { z } from 'zod';
import type { Timer, Timers } from '../../clock/timers.ts';
import type { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../http/errors.ts';
import type { TimeNetworkHost } from './client.ts';
import { parseResolv } from './host.ts';

/** What Sitewatch set on the host (module_settings `host_network`), set again at start. */
export const hostNetworkSettings = z.object({
  interfaces: z
    .record(z.string(), z.object({ ip: z.string(), prefix: z.number().int(), gateway: z.string() }))
    .default({}),
  dns: z.array(z.string()).default([]),
});
export type HostNetworkSettings = z.infer<typeof hostNetworkSettings>;

/** How long an address change that may cut off its author stays applied unless kept (as the firewall). */
export const networkRollbackAfterMs = 60_000;
const rollbackRetryMs = 10_000;

/** Who changes: the address of this box they reached the console at. */
export interface NetworkAuthor {
  consoleAddress: string;
  /** The console's ports as the request's server sees them. */
  ports?: { http: number | null; https: number | null };
}

interface Address {
  ip: string;
  prefix: number;
  gateway: string;
}
interface Pending {
  interface: string;
  previous: Address;
  expiresAt: number;
  timer: Timer;
}

const plain = (address: string) => address.replace(/^::ffff:/i, '');
export const reasonKey = (reason: HostUnavailable) => `timeNetwork.${reason}`;
const unavailable = (reason: HostUnavailable, detail: string): HostAbility => ({ available: false, reason, detail });

/** Without the helper: what the server process may read by itself (interfaces, default routes, resolv.conf). */
export const readOnlyNetwork = (): { interfaces: NetworkInterface[]; dns: string[] } => {
  let routes = '';
  let resolv = '';
  try {
    routes = readFileSync('/proc/net/route', 'utf8');
  } catch {}
  try {
    resolv = readFileSync('/etc/resolv.conf', 'utf8');
  } catch {}
  const gateways = new Map<string, string>();
  for (const line of routes.split('\n').slice(1)) {
    const [dev, destination, gateway] = line.trim().split(/\s+/);
    if (dev && destination === '00000000' && gateway && gateway !== '00000000') {
      const n = Number.parseInt(gateway, 16);
      gateways.set(dev, [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24].join('.'));
    }
  }
  const interfaces = Object.entries(networkInterfaces())
    .filter(([, list]) => (list ?? []).every((a) => !a.internal))
    .map(([name, list]) => {
      const v4 = (list ?? []).filter((a) => a.family === 'IPv4');
      return {
        name,
        mac: list?.[0]?.mac ?? '',
        up: true,
        addresses: v4.map((a) => {
          const prefix = maskPrefix(a.netmask) ?? 32;
          return { ip: a.address, prefix, mask: prefixMask(prefix) };
        }),
        gateway: gateways.get(name) ?? '',
      };
    });
  return { interfaces, dns: parseResolv(resolv) };
};

/**
 * The box's addresses and name servers (docs/time-network.md): read and changed by the host helper;
 * an address change of the interface the author reached the console through is applied on trial
 * and rolled back after 60 s on the kernel's clock unless kept (the firewall's rule).
 */
export const createNetworkService = (deps: {
  store: SettingsStore<{ host_network: HostNetworkSettings }>;
  host: TimeNetworkHost;
  timers: Timers;
  clock: () => number;
  onRolledBack?: (iface: string, restored: Address) => Promise<void>;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}) => {
  let pending: Pending | null = null;
  let work: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = work.then(run);
    work = next.catch(() => undefined);
    return next;
  };

  const state = async (author: NetworkAuthor): Promise<NetworkState> => {
    const read = await deps.host.ask({ op: 'netState' });
    const base = read.ok
      ? read.data
      : {
          ...readOnlyNetwork(),
          host: unavailable(read.reason, read.detail),
          dns_host: unavailable(read.reason, read.detail),
        };
    return {
      ...base,
      pending: pending
        ? {
            interface: pending.interface,
            expires_at: Math.floor(pending.expiresAt / 1000),
            previous: {
              ip: pending.previous.ip,
              mask: prefixMask(pending.previous.prefix),
              gateway: pending.previous.gateway,
            },
          }
        : null,
      console_address: plain(author.consoleAddress),
      ports: author.ports ?? { http: null, https: null },
    };
  };

  /** The host as it is, or 409 with why it cannot be changed. */
  const writableHost = async (part: 'host' | 'dns_host') => {
    const read = await deps.host.ask({ op: 'netState' });
    if (!read.ok) throw new AppError('conflict', reasonKey(read.reason), { detail: read.detail });
    const ability = read.data[part];
    if (!ability.available)
      throw new AppError('conflict', reasonKey(ability.reason ?? 'failed'), { detail: ability.detail });
    return read.data;
  };

  const applyAddress = async (iface: string, next: Address) => {
    const result = await deps.host.ask({ op: 'setIp', interface: iface, ...next });
    if (!result.ok) throw new AppError('conflict', reasonKey(result.reason), { detail: result.detail });
    const stored = await deps.store.get('host_network');
    await deps.store.set('host_network', { ...stored, interfaces: { ...stored.interfaces, [iface]: next } });
  };

  const rollback = async () => {
    const trial = pending;
    if (!trial) return;
    try {
      await applyAddress(trial.interface, trial.previous);
    } catch (err) {
      deps.log?.error({ err }, 'address roll-back refused by the host; trying again');
      trial.timer = deps.timers.setTimeout(() => void serial(rollback), rollbackRetryMs);
      return;
    }
    pending = null;
    await deps.onRolledBack?.(trial.interface, trial.previous);
  };

  const restoreNow = async () => {
    const stored = await deps.store.get('host_network');
    if (Object.keys(stored.interfaces).length === 0 && stored.dns.length === 0) return;
    const read = await deps.host.ask({ op: 'netState' });
    if (!read.ok || !read.data.host.available) return;
    for (const [name, want] of Object.entries(stored.interfaces)) {
      const now = read.data.interfaces.find((i) => i.name === name);
      if (!now) continue;
      const same =
        now.addresses.length === 1 &&
        now.addresses[0]!.ip === want.ip &&
        now.addresses[0]!.prefix === want.prefix &&
        now.gateway === want.gateway;
      if (same) continue;
      const result = await deps.host.ask({ op: 'setIp', interface: name, ...want });
      if (!result.ok) deps.log?.warn({ reason: result.reason, detail: result.detail }, 'address not set again');
    }
    if (stored.dns.length && read.data.dns_host.available && stored.dns.join() !== read.data.dns.join()) {
      const result = await deps.host.ask({ op: 'setDns', dns: stored.dns });
      if (!result.ok) deps.log?.warn({ reason: result.reason, detail: result.detail }, 'name servers not set again');
    }
  };

  return {
    state,

    /** One interface's address, mask and gateway; on trial when the author reached the console through it. */
    setIp: (
      input: { interface: string; ip: string; mask: string; gateway: string; confirm_lockout: boolean },
      author: NetworkAuthor,
    ) =>
      serial(async () => {
        const host = await writableHost('host');
        const current = host.interfaces.find((i) => i.name === input.interface);
        if (!current) throw new AppError('badRequest', 'timeNetwork.noInterface', { name: input.interface });
        const next: Address = { ip: input.ip, prefix: maskPrefix(input.mask)!, gateway: input.gateway };
        const reached = plain(author.consoleAddress);
        const first = current.addresses[0];
        const previous: Address | null = first
          ? { ip: first.ip, prefix: first.prefix, gateway: current.gateway }
          : null;
        const changes =
          !previous || previous.ip !== next.ip || previous.prefix !== next.prefix || previous.gateway !== next.gateway;
        const cutsOff = changes && current.addresses.some((a) => a.ip === reached);
        if (cutsOff && !input.confirm_lockout)
          throw new AppError('badRequest', 'timeNetwork.confirmLockout', { address: reached });
        await applyAddress(input.interface, next);
        if (cutsOff && previous) {
          // A second trial keeps the first's starting point: a roll-back returns to an address the author reached.
          const start = pending?.interface === input.interface ? pending.previous : previous;
          if (pending) deps.timers.clearTimeout(pending.timer);
          pending = {
            interface: input.interface,
            previous: start,
            expiresAt: deps.clock() + networkRollbackAfterMs,
            timer: deps.timers.setTimeout(() => void serial(rollback), networkRollbackAfterMs),
          };
        }
        return state(author);
      }),

    setDns: (dns: string[], author: NetworkAuthor) =>
      serial(async () => {
        await writableHost('dns_host');
        const result = await deps.host.ask({ op: 'setDns', dns });
        if (!result.ok) throw new AppError('conflict', reasonKey(result.reason), { detail: result.detail });
        const stored = await deps.store.get('host_network');
        await deps.store.set('host_network', { ...stored, dns });
        return state(author);
      }),

    keep: (author: NetworkAuthor) =>
      serial(async () => {
        if (!pending) throw new AppError('badRequest', 'timeNetwork.nothingPending');
        deps.timers.clearTimeout(pending.timer);
        pending = null;
        return state(author);
      }),

    /** At start: what Sitewatch set, set again where the host differs (runtime addresses do not survive a reboot). */
    restore: () => serial(() => restoreNow()),

    stop() {
      if (pending) deps.timers.clearTimeout(pending.timer);
    },
    settled: async () => {
      const before = work;
      await work;
      return before !== work;
    },
  };
};
export type NetworkService = ReturnType<typeof createNetworkService>;
