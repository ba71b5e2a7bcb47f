import { z } from 'zod';
import { tParam } from './envelope.ts';
import { ipv4Number } from './firewall.ts';
import { defineRoute } from './route.ts';

/**
 * The box's time, network and host services (002 §2.1 /setting_time, /setting_IP; §5.1 "IP, subnet
 * mask cannot be empty", "At least one IP address must remain"; §7.1 `setting/network`,
 * `setting/time`, `setting/time/syncd`, `setting/service/{name}`; docs/time-network.md). The host is
 * changed by a privileged helper process, never by the web process.
 */

/** Message keys (texts in the shared locale files, section `timeNetwork`). */
export const timeNetworkMessages = {
  ipEmpty: 'timeNetwork.ipEmpty',
  ipFormat: 'timeNetwork.ipFormat',
  maskEmpty: 'timeNetwork.maskEmpty',
  maskFormat: 'timeNetwork.maskFormat',
  gatewayFormat: 'timeNetwork.gatewayFormat',
  gatewaySubnet: 'timeNetwork.gatewaySubnet',
  interfaceFormat: 'timeNetwork.interfaceFormat',
  dnsRequired: 'timeNetwork.dnsRequired',
  dnsFormat: 'timeNetwork.dnsFormat',
  timezoneFormat: 'timeNetwork.timezoneFormat',
  timeFormat: 'timeNetwork.timeFormat',
  ntpServerFormat: 'timeNetwork.ntpServerFormat',
} as const;

/** A usable IPv4 host address: four numbers 0–255, not 0.0.0.0, not 255.255.255.255. */
export const isHostAddress = (text: string): boolean => {
  const n = ipv4Number(text.trim());
  return n !== null && n !== 0 && n !== 0xffff_ffff;
};

/** A dotted subnet mask (`255.255.255.0`) as its prefix length, or null when its ones are not contiguous. */
export const maskPrefix = (mask: string): number | null => {
  const n = ipv4Number(mask.trim());
  if (n === null) return null;
  const ones = n.toString(2).replace(/0+$/, '');
  if (n !== 0 && ones.includes('0')) return null;
  const prefix = n === 0 ? 0 : ones.length;
  return prefix >= 1 && prefix <= 32 ? prefix : null;
};

/** The dotted mask of a prefix length. */
export const prefixMask = (prefix: number): string => {
  const n = prefix === 0 ? 0 : (0xffff_ffff << (32 - prefix)) >>> 0;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
};

/** Whether two addresses share the subnet of `prefix`. */
export const sameSubnet = (a: string, b: string, prefix: number): boolean => {
  const x = ipv4Number(a);
  const y = ipv4Number(b);
  if (x === null || y === null) return false;
  const size = 2 ** (32 - prefix);
  return Math.floor(x / size) === Math.floor(y / size);
};

/** A Linux interface name (`eth0`, `enp3s0`, `br-lan`): what `ip` accepts, never a path or an option. */
export const interfaceName = z
  .string({ error: timeNetworkMessages.interfaceFormat })
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,14}$/, { message: timeNetworkMessages.interfaceFormat });

const address = (empty: string, format: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, { message: empty })
    .max(15, { message: format })
    .refine(isHostAddress, { message: format });

/** POST setting/network/ip: one interface's IPv4 address, mask and gateway (empty: none). */
export const networkIpInput = z
  .object({
    interface: interfaceName.describe('The interface to set (a name `GET setting/network` lists).'),
    ip: address(timeNetworkMessages.ipEmpty, timeNetworkMessages.ipFormat).describe('IPv4 address.'),
    mask: z
      .string({ error: timeNetworkMessages.maskEmpty })
      .trim()
      .min(1, { message: timeNetworkMessages.maskEmpty })
      .max(15, { message: timeNetworkMessages.maskFormat })
      .refine((m) => maskPrefix(m) !== null, { message: timeNetworkMessages.maskFormat })
      .describe('Subnet mask, dotted (255.255.255.0).'),
    gateway: z
      .string()
      .trim()
      .max(15, { message: timeNetworkMessages.gatewayFormat })
      .refine((g) => g === '' || isHostAddress(g), { message: timeNetworkMessages.gatewayFormat })
      .default('')
      .describe('Default gateway on this interface, or empty for none.'),
    verify_password: z
      .string({ error: 'users.verifyPasswordEmpty' })
      .min(1, { message: 'users.verifyPasswordEmpty' })
      .max(1024)
      .describe('The verification password (encrypted like a login).'),
    confirm_lockout: z
      .boolean()
      .default(false)
      .describe('The author agreed to a change of the address they reach the console at (applied on trial).'),
  })
  .superRefine((v, ctx) => {
    const prefix = maskPrefix(v.mask);
    if (v.gateway && prefix !== null && isHostAddress(v.ip) && !sameSubnet(v.ip, v.gateway, prefix)) {
      ctx.addIssue({ code: 'custom', path: ['gateway'], message: timeNetworkMessages.gatewaySubnet });
    }
  });
export type NetworkIpInput = z.input<typeof networkIpInput>;

/** POST setting/network/dns: the name servers, in order; at least one must remain (002 §5.1). */
export const networkDnsInput = z.object({
  dns: z
    .array(z.string().trim().max(15, { message: timeNetworkMessages.dnsFormat }), {
      error: timeNetworkMessages.dnsRequired,
    })
    .transform((list) => list.filter((d) => d !== ''))
    .pipe(
      z
        .array(z.string().refine(isHostAddress, { message: timeNetworkMessages.dnsFormat }))
        .min(1, { message: timeNetworkMessages.dnsRequired })
        .max(3, { message: timeNetworkMessages.dnsFormat }),
    )
    .describe('IPv4 name servers, one to three (resolv.conf reads three).'),
  verify_password: z
    .string({ error: 'users.verifyPasswordEmpty' })
    .min(1, { message: 'users.verifyPasswordEmpty' })
    .max(1024),
});
export type NetworkDnsInput = z.input<typeof networkDnsInput>;

/** Why the host cannot be read or changed from here (docs/time-network.md, "Read-only"). */
export const hostUnavailable = z.enum(['noHelper', 'noSystemd', 'noTool', 'noPrivilege', 'managedDns', 'failed']);
export type HostUnavailable = z.infer<typeof hostUnavailable>;

export const hostAbility = z.object({
  available: z.boolean().describe('Whether the helper can change this on the host.'),
  reason: hostUnavailable.nullable(),
  detail: z.string().describe("The host's own words, or ''."),
});
export type HostAbility = z.infer<typeof hostAbility>;

export const networkInterface = z.object({
  name: z.string(),
  mac: z.string(),
  up: z.boolean(),
  /** IPv4 addresses with their prefix. */
  addresses: z.array(z.object({ ip: z.string(), prefix: z.number().int(), mask: z.string() })),
  gateway: z.string().describe("The default route's gateway through this interface, or ''."),
});
export type NetworkInterface = z.infer<typeof networkInterface>;

export const networkState = z.object({
  interfaces: z.array(networkInterface),
  dns: z.array(z.string()),
  host: hostAbility,
  dns_host: hostAbility.describe('Whether the name servers can be written (resolv.conf may be managed elsewhere).'),
  pending: z
    .object({
      interface: z.string(),
      expires_at: z.number().int().describe('Epoch seconds when the change rolls back unless kept.'),
      previous: z.object({ ip: z.string(), mask: z.string(), gateway: z.string() }),
    })
    .nullable()
    .describe('An address change applied on trial (docs/time-network.md).'),
  console_address: z.string().describe('The address of this box the caller reached the console at.'),
  ports: z
    .object({
      http: z.number().int().nullable().describe('The plain HTTP port the console listens on (a start-up setting).'),
      https: z.number().int().nullable().describe('The HTTPS port when HTTPS is on (set on /setting_port), else null.'),
    })
    .describe('The console\'s own ports (docs/time-network.md, "Ports").'),
});
export type NetworkState = z.infer<typeof networkState>;

/** An IANA zone name (`Asia/Shanghai`, `Etc/UTC`): letters, digits, `_+-` and `/`, never `..`. */
export const timezoneName = z
  .string({ error: timeNetworkMessages.timezoneFormat })
  .regex(/^(?!.*\.\.)[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/, { message: timeNetworkMessages.timezoneFormat });

/** A wall-clock time as timedatectl takes it: `YYYY-MM-DD HH:mm:ss` (in the box's zone). */
export const wallTime = z
  .string({ error: timeNetworkMessages.timeFormat })
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, {
    message: timeNetworkMessages.timeFormat,
  });

/** An NTP server: a host name or an IPv4 address, no spaces or option characters. */
export const ntpServer = z
  .string()
  .trim()
  .max(253, { message: timeNetworkMessages.ntpServerFormat })
  .regex(/^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*$/, {
    message: timeNetworkMessages.ntpServerFormat,
  });

export const ntpState = z.object({
  enabled: z.boolean().describe('Whether the host keeps its clock by NTP.'),
  synchronized: z.boolean().describe('Whether the clock is synchronised now.'),
  servers: z.array(z.string()).describe('Servers Sitewatch configured (empty: the system defaults).'),
  service: z.string().describe("The host's NTP service (systemd-timesyncd, chrony) or ''."),
  host: hostAbility,
});
export type NtpState = z.infer<typeof ntpState>;

export const timeState = z.object({
  timezone: z.string(),
  time: z.number().int().describe("The box's clock, epoch seconds."),
  local_time: z.string().describe('The same instant in the box zone, YYYY-MM-DD HH:mm:ss.'),
  ntp: ntpState,
  host: hostAbility,
});
export type TimeState = z.infer<typeof timeState>;

export const timeInput = z.object({
  timezone: timezoneName.optional().describe('New time zone (IANA name).'),
  time: wallTime.optional().describe('New wall-clock time in the box zone (refused while NTP is on).'),
});
export type TimeInput = z.input<typeof timeInput>;

export const syncdInput = z.object({
  enabled: z.boolean().describe('Keep the clock by NTP.'),
  servers: z.array(ntpServer).max(5, { message: timeNetworkMessages.ntpServerFormat }).default([]),
});
export type SyncdInput = z.input<typeof syncdInput>;

/** Services `PUT setting/service/{name}` acts on: the product's own and the host's NTP. */
export const serviceName = z.enum(['ntp', 'collector', 'alarms', 'notifier']);
export type ServiceName = z.infer<typeof serviceName>;
export const serviceAction = z.enum(['start', 'stop', 'restart']);
export const serviceState = z.object({
  name: serviceName,
  state: z.enum(['running', 'stopped', 'absent', 'unknown']),
  host: hostAbility,
});
export type ServiceState = z.infer<typeof serviceState>;

export const timeNetworkRoutes = {
  network: defineRoute({
    method: 'GET',
    path: 'setting/network',
    summary: "The box's interfaces, addresses, gateway and name servers, and whether they can be changed",
    tags: ['time-network'],
    query: z.object({ t: tParam }),
    response: networkState,
  }),
  ip: defineRoute({
    method: 'POST',
    path: 'setting/network/ip',
    summary:
      "Set an interface's address, mask and gateway (verification password; on trial when it may cut off the author)",
    tags: ['time-network'],
    body: networkIpInput,
    response: networkState,
  }),
  dns: defineRoute({
    method: 'POST',
    path: 'setting/network/dns',
    summary: 'Set the name servers (at least one; verification password)',
    tags: ['time-network'],
    body: networkDnsInput,
    response: networkState,
  }),
  keep: defineRoute({
    method: 'POST',
    path: 'setting/network/keep',
    summary: 'Keep an address change on trial (else it rolls back after 60 s)',
    tags: ['time-network'],
    body: z.object({}),
    response: networkState,
  }),
  time: defineRoute({
    method: 'GET',
    path: 'setting/time',
    summary: "The box's time zone, clock and NTP state",
    tags: ['time-network'],
    query: z.object({ t: tParam }),
    response: timeState,
  }),
  setTime: defineRoute({
    method: 'POST',
    path: 'setting/time',
    summary: "Set the box's time zone and/or clock",
    tags: ['time-network'],
    body: timeInput,
    response: timeState,
  }),
  syncd: defineRoute({
    method: 'GET',
    path: 'setting/time/syncd',
    summary: 'NTP: on or off, servers, synchronised',
    tags: ['time-network'],
    query: z.object({ t: tParam }),
    response: ntpState,
  }),
  setSyncd: defineRoute({
    method: 'POST',
    path: 'setting/time/syncd',
    summary: 'Turn NTP on or off and set its servers',
    tags: ['time-network'],
    body: syncdInput,
    response: ntpState,
  }),
  services: defineRoute({
    method: 'GET',
    path: 'setting/service',
    summary: 'State of the product services and the host NTP service',
    tags: ['time-network'],
    query: z.object({ t: tParam }),
    response: z.array(serviceState),
  }),
  service: defineRoute({
    method: 'PUT',
    path: 'setting/service/:name',
    summary: 'Start, stop or restart a service',
    tags: ['time-network'],
    params: z.object({ name: serviceName }),
    body: z.object({ action: serviceAction }),
    response: serviceState,
  }),
};
