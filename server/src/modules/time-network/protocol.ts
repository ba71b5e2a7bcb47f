import {
  hostUnavailable,
  interfaceName,
  isHostAddress,
  networkInterface,
  ntpServer,
  timezoneName,
  wallTime,
} from '@sitewatch/contract/time-network';
import { z } from 'zod';

/**
 * The host helper's protocol (docs/time-network.md, "The helper"): one JSON object per line over a
 * unix socket, one answer line per request, validated on both sides. Every value that reaches a
 * command is checked here again (names, addresses, zones), and commands get argument lists, never a
 * shell line.
 */
const ip = z.string().max(15).refine(isHostAddress);

export const hostRequest = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('timeState') }),
  z.strictObject({ op: z.literal('setTimezone'), timezone: timezoneName }),
  z.strictObject({ op: z.literal('setTime'), time: wallTime }),
  z.strictObject({ op: z.literal('setNtp'), enabled: z.boolean(), servers: z.array(ntpServer).max(5) }),
  z.strictObject({ op: z.literal('netState') }),
  z.strictObject({
    op: z.literal('setIp'),
    interface: interfaceName,
    ip,
    prefix: z.number().int().min(1).max(32),
    gateway: z.union([ip, z.literal('')]),
  }),
  z.strictObject({ op: z.literal('setDns'), dns: z.array(ip).min(1).max(3) }),
  z.strictObject({ op: z.literal('ntpService'), action: z.enum(['start', 'stop', 'restart', 'state']) }),
]);
export type HostRequest = z.infer<typeof hostRequest>;

export const hostFailure = z.object({ ok: z.literal(false), reason: hostUnavailable, detail: z.string() });

const ability = z.object({ available: z.boolean(), reason: hostUnavailable.nullable(), detail: z.string() });

export const hostTime = z.object({
  timezone: z.string(),
  time: z.number().int(),
  ntp_enabled: z.boolean(),
  synchronized: z.boolean(),
  servers: z.array(z.string()),
  service: z.string(),
  /** Whether zone, clock and NTP can be changed (timedatectl answers, the helper is root). */
  time_host: ability,
});
export type HostTime = z.infer<typeof hostTime>;

export const hostNetwork = z.object({
  interfaces: z.array(networkInterface),
  dns: z.array(z.string()),
  host: ability,
  dns_host: ability,
});
export type HostNetwork = z.infer<typeof hostNetwork>;

export const hostService = z.object({ state: z.enum(['running', 'stopped', 'absent', 'unknown']) });

/** What each request answers on success. */
export const hostData = {
  timeState: hostTime,
  setTimezone: hostTime,
  setTime: hostTime,
  setNtp: hostTime,
  netState: hostNetwork,
  setIp: hostNetwork,
  setDns: hostNetwork,
  ntpService: hostService,
} as const;

export const maxHostLineBytes = 16 * 1024;
