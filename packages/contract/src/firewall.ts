import { z } from 'zod';
import { tParam } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * The host firewall (002 §2.1 /firewall, §3 Firewall rule, §4 Firewall, §5.3 firewall port and
 * source rules, §7.2 `setting/maintain/firewall/*`; docs/firewall.md). Rules are kept by the server
 * and applied as one nftables table (`inet sitewatch`) by a privileged helper process.
 */

/** Message keys of 002 §5.3 (texts in the shared locale files, section `firewall`). */
export const firewallMessages = {
  portFormat: 'firewall.portFormat',
  sourceEmpty: 'firewall.sourceEmpty',
  sourceFormat: 'firewall.sourceFormat',
  ipFormat: 'firewall.ipFormat',
  maskFormat: 'firewall.maskFormat',
  mask6Format: 'firewall.mask6Format',
  segmentFormat: 'firewall.segmentFormat',
  segmentOrder: 'firewall.segmentOrder',
} as const;

const dotted = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** An IPv4 address as a number, or null when it is not four numbers 0–255. */
export const ipv4Number = (text: string): number | null => {
  if (!dotted.test(text)) return null;
  const parts = text.split('.').map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
};

/** `1.2.3.4` back from its number. */
export const ipv4Text = (n: number): string => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

/** Why an address part is refused: not dotted at all (`shape`) or a number above 255 (`ipFormat`). */
const addressProblem = (text: string, shape: string): string | null =>
  !dotted.test(text) ? shape : ipv4Number(text) === null ? firewallMessages.ipFormat : null;

/**
 * An IPv6 address as a 128-bit number, or null: eight groups of 1–4 hex digits, `::` once for a
 * run of zero groups, the last 32 bits optionally dotted (`::ffff:10.0.0.1`). No zone (`%eth0`).
 */
export const ipv6Number = (text: string): bigint | null => {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.split('::').length > 2) return null;
  let hexText = text;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    // The last 32 bits dotted: written as two groups.
    const v4 = ipv4Number(text.slice(lastColon + 1));
    if (v4 === null) return null;
    hexText = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const [head = '', rest] = hexText.split('::') as [string, string | undefined];
  const left = groupsOf(head);
  const right = rest === undefined ? [] : groupsOf(rest);
  const given = left.length + right.length;
  if (rest === undefined ? given !== 8 : given > 7) return null;
  const all = [...left, ...Array<string>(8 - given).fill('0'), ...right];
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  return all.reduce((n, g) => (n << 16n) + BigInt(Number.parseInt(g, 16)), 0n);
};

/** An IPv6 number as text, the longest run of zero groups (two or more) written `::` (RFC 5952). */
export const ipv6Text = (n: bigint): string => {
  const groups = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = [-1, 0];
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best[1]! && j - i >= 2) best = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best[0]! < 0) return hex.join(':');
  return `${hex.slice(0, best[0]).join(':')}::${hex.slice(best[0]! + best[1]!).join(':')}`;
};

const ipv6Max = (1n << 128n) - 1n;

/** A source of IPv6 addresses (it has a colon); its problem, or null. */
const source6Problem = (s: string): string | null => {
  if (s.includes('/')) {
    const [address = '', mask = '', ...rest] = s.split('/');
    if (rest.length > 0 || ipv6Number(address) === null) return firewallMessages.sourceFormat;
    return /^\d{1,3}$/.test(mask) && Number(mask) <= 128 ? null : firewallMessages.mask6Format;
  }
  if (s.includes('-')) {
    const [start = '', end = '', ...rest] = s.split('-');
    const a = ipv6Number(start.trim());
    const b = ipv6Number(end.trim());
    if (rest.length > 0 || a === null || b === null) return firewallMessages.segmentFormat;
    return a > b ? firewallMessages.segmentOrder : null;
  }
  return ipv6Number(s) === null ? firewallMessages.sourceFormat : null;
};

/** 6 for a source of IPv6 addresses, else 4. */
export const sourceFamily = (source: string): 4 | 6 => (source.includes(':') ? 6 : 4);

/** The IPv6 addresses a valid IPv6 source covers, as [first, last]. */
export const source6Span = (source: string): [bigint, bigint] => {
  const s = source.trim();
  if (s.includes('/')) {
    const [address = '', mask = '0'] = s.split('/');
    const host = 128n - BigInt(mask);
    const start = (ipv6Number(address)! >> host) << host;
    return [start, start + (1n << host) - 1n];
  }
  if (s.includes('-')) {
    const [a = '', b = ''] = s.split('-');
    return [ipv6Number(a.trim())!, ipv6Number(b.trim())!];
  }
  const n = ipv6Number(s)!;
  return [n, n];
};

/** Whether a valid source is every address (`{ip}/0`, IPv4 or IPv6): no address match at all. */
export const sourceIsEverything = (source: string): boolean => {
  if (sourceFamily(source) === 6) {
    const [first, last] = source6Span(source);
    return first === 0n && last === ipv6Max;
  }
  const [first, last] = sourceSpan(source);
  return first === 0 && last === 0xffff_ffff;
};

/**
 * The message key refusing a source address, or null when it is one IP, a CIDR block
 * (`{ip}/{0–32}`, IPv6 `{ip}/{0–128}`; `{ip}/0` is every address) or a range (`a-b`, start not
 * above end), IPv4 or IPv6.
 */
export const sourceProblem = (source: string): string | null => {
  const s = source.trim();
  if (s === '') return firewallMessages.sourceEmpty;
  if (sourceFamily(s) === 6) return source6Problem(s);
  if (s.includes('/')) {
    const [address = '', mask = '', ...rest] = s.split('/');
    if (rest.length > 0) return firewallMessages.sourceFormat;
    const problem = addressProblem(address, firewallMessages.sourceFormat);
    if (problem) return problem;
    return /^\d{1,2}$/.test(mask) && Number(mask) <= 32 ? null : firewallMessages.maskFormat;
  }
  if (s.includes('-')) {
    const [start = '', end = '', ...rest] = s.split('-');
    if (rest.length > 0) return firewallMessages.segmentFormat;
    const problem =
      addressProblem(start.trim(), firewallMessages.segmentFormat) ??
      addressProblem(end.trim(), firewallMessages.segmentFormat);
    if (problem) return problem;
    return ipv4Number(start.trim())! > ipv4Number(end.trim())! ? firewallMessages.segmentOrder : null;
  }
  return addressProblem(s, firewallMessages.sourceFormat);
};

/** The addresses a valid source covers, as [first, last] numbers. */
export const sourceSpan = (source: string): [number, number] => {
  const s = source.trim();
  if (s.includes('/')) {
    const [address = '', mask = '0'] = s.split('/');
    const bits = Number(mask);
    const size = 2 ** (32 - bits);
    const start = Math.floor(ipv4Number(address)! / size) * size;
    return [start, start + size - 1];
  }
  if (s.includes('-')) {
    const [a = '', b = ''] = s.split('-');
    return [ipv4Number(a.trim())!, ipv4Number(b.trim())!];
  }
  const n = ipv4Number(s)!;
  return [n, n];
};

/** `a:b` with 1 ≤ a ≤ b ≤ 65535 (a single port as `80:80`): [a, b], or null. */
export const portSpan = (port: string): [number, number] | null => {
  const m = /^(\d{1,5}):(\d{1,5})$/.exec(port.trim());
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a >= 1 && b <= 65535 && a <= b ? [a, b] : null;
};

export const firewallDirection = z.enum(['in', 'out']);
export type FirewallDirection = z.infer<typeof firewallDirection>;

/** One rule as an administrator writes it (002 §3): direction, source, port range, authorised, Disabled. */
export const firewallRuleInput = z.object({
  id: z.number().int().min(1).max(2_147_483_647).optional().describe('A stored rule this one replaces (kept id).'),
  direction: firewallDirection.describe('in: network access to this box; out: from this box out of the net.'),
  source: z
    .string({ error: firewallMessages.sourceEmpty })
    .max(96, { message: firewallMessages.sourceFormat })
    .superRefine((value, ctx) => {
      const problem = sourceProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => value.trim())
    .describe('One IP, a CIDR block or a range a-b; {ip}/0 is every address (for out: the remote address).'),
  port: z
    .string({ error: firewallMessages.portFormat })
    .max(16, { message: firewallMessages.portFormat })
    .refine((value) => portSpan(value) !== null, { message: firewallMessages.portFormat })
    .transform((value) => value.trim())
    .describe('a:b from 1 to 65535; one port as 80:80.'),
  authorised: z.boolean().describe('true: allowed; false: refused.'),
  Disabled: z.boolean().default(false).describe('true: kept but not applied.'),
  remark: z.string().max(64).default('').describe('A note for people.'),
});
export type FirewallRuleInput = z.input<typeof firewallRuleInput>;

export const firewallRule = z.object({
  id: z.number().int(),
  direction: firewallDirection,
  source: z.string(),
  port: z.string(),
  authorised: z.boolean(),
  Disabled: z.boolean(),
  remark: z.string(),
});
export type FirewallRule = z.infer<typeof firewallRule>;

/** Why the host's firewall cannot be read or changed from here (docs/firewall.md, "Read-only"). */
export const firewallUnavailable = z.enum(['noHelper', 'noNft', 'noPrivilege', 'failed']);
export type FirewallUnavailable = z.infer<typeof firewallUnavailable>;

export const firewallState = z.object({
  enabled: z.boolean().describe('Whether the rules are applied (002 §4: toggled through the status call).'),
  rules: z.array(firewallRule),
  host: z.object({
    available: z.boolean().describe('Whether the helper can apply rules on this host.'),
    reason: firewallUnavailable.nullable().describe('Why not, or null.'),
    detail: z.string().describe("The host's own words (nft's error), or ''."),
    /** Whether the host holds Sitewatch's table (nft -j list table inet sitewatch). */
    table: z.boolean(),
    /** Rules the host's table holds (counted from nft -j), or null when it cannot be read. */
    host_rules: z.number().int().nullable(),
  }),
  pending: z
    .object({
      expires_at: z.number().int().describe('Epoch seconds when the change rolls back unless kept.'),
      address: z.string().describe('The address the change would cut off.'),
    })
    .nullable()
    .describe('A change that would cut off its author, applied on trial (docs/firewall.md).'),
  own_address: z.string().describe("The caller's address as the server sees it."),
});
export type FirewallState = z.infer<typeof firewallState>;

const verifyPassword = z
  .string({ error: 'users.verifyPasswordEmpty' })
  .min(1, { message: 'users.verifyPasswordEmpty' })
  .max(1024);

export const firewallSave = z.object({
  rules: z.array(firewallRuleInput).max(200),
  verify_password: verifyPassword.describe('The verification password (encrypted like a login).'),
  confirm: z.boolean().default(false).describe('The author agreed to close port 80 or 22.'),
  confirm_lockout: z.boolean().default(false).describe('The author agreed to a change that cuts off their address.'),
});
export type FirewallSave = z.input<typeof firewallSave>;

export const firewallStatusParams = z.object({
  Disabled: z.enum(['0', '1']).describe('1 turns the firewall off, 0 on.'),
});
export const firewallStatusBody = z.object({
  verify_password: verifyPassword,
  confirm: z.boolean().default(false),
  confirm_lockout: z.boolean().default(false),
});

export const openPort = z.object({
  protocol: z.string(),
  address: z.string(),
  port: z.number().int(),
  process: z.string(),
});
export type OpenPort = z.infer<typeof openPort>;
export const openPorts = z.object({
  available: z.boolean(),
  reason: firewallUnavailable.nullable(),
  data: z.array(openPort),
});

/** What the rules below read of a rule. */
export type RuleShape = Pick<FirewallRule, 'direction' | 'source' | 'port' | 'authorised' | 'Disabled'>;

/** Whether an address (IPv4, IPv4-mapped IPv6 as IPv4, or IPv6) falls in a rule's source. */
const covers = (rule: RuleShape, address: string): boolean => {
  if (sourceIsEverything(rule.source)) return true;
  const v4 = address.replace(/^::ffff:(?=\d+\.)/i, '');
  if (sourceFamily(rule.source) === 6) {
    const n = v4.includes(':') ? ipv6Number(v4) : null;
    const [first, last] = source6Span(rule.source);
    return n !== null && n >= first && n <= last;
  }
  const [first, last] = sourceSpan(rule.source);
  const n = ipv4Number(v4);
  return n !== null && n >= first && n <= last;
};

/** Whether the rules refuse a new connection from `address` to this box's `port` (first match decides). */
export const refusesIncoming = (
  enabled: boolean,
  rules: readonly RuleShape[],
  address: string,
  port: number,
): boolean => {
  if (!enabled) return false;
  for (const rule of rules) {
    if (rule.Disabled || rule.direction !== 'in' || !covers(rule, address)) continue;
    const [a, b] = portSpan(rule.port)!;
    if (port >= a && port <= b) return !rule.authorised;
  }
  return false;
};

/** Ports whose closing asks for confirmation (002 §5.3): web access and SSH. */
export const guardedPorts = [80, 22] as const;

const ruleKey = (r: RuleShape) => `${r.direction}|${r.source}|${r.port}|${r.authorised}|${r.Disabled}`;

/**
 * The guarded ports (80, 22) that a changed or added rule closes: enabled, incoming, refused, its
 * range holding the port. A rule kept exactly as it was asks nothing again.
 */
export const newlyClosedGuardedPorts = (before: readonly RuleShape[], after: readonly RuleShape[]): number[] => {
  const kept = new Set(before.map(ruleKey));
  const closed = new Set<number>();
  for (const rule of after) {
    if (rule.Disabled || rule.authorised || rule.direction !== 'in' || kept.has(ruleKey(rule))) continue;
    const [a, b] = portSpan(rule.port)!;
    for (const port of guardedPorts) if (port >= a && port <= b) closed.add(port);
  }
  return [...closed].sort((x, y) => x - y);
};

export const firewallRoutes = {
  ports: defineRoute({
    method: 'GET',
    path: 'setting/maintain/firewall/ports',
    summary: 'The firewall rules, whether they are applied, and what the host can do',
    tags: ['firewall'],
    query: z.object({ t: tParam }),
    response: firewallState,
  }),
  save: defineRoute({
    method: 'POST',
    path: 'setting/maintain/firewall/ports',
    summary: 'Replace the firewall rules and apply them at once (verification password required)',
    tags: ['firewall'],
    body: firewallSave,
    response: firewallState,
  }),
  status: defineRoute({
    method: 'POST',
    path: 'setting/maintain/firewall/status/:Disabled',
    summary: 'Turn the firewall off (1) or on (0) (verification password required)',
    tags: ['firewall'],
    params: firewallStatusParams,
    body: firewallStatusBody,
    response: firewallState,
  }),
  keep: defineRoute({
    method: 'POST',
    path: 'setting/maintain/firewall/keep',
    summary: 'Keep a change that cut off its author (else it rolls back after 60 s)',
    tags: ['firewall'],
    body: z.object({}),
    response: firewallState,
  }),
  openPorts: defineRoute({
    method: 'GET',
    path: 'setting/maintain/firewall/open_ports',
    summary: 'TCP ports listening on the host',
    tags: ['firewall'],
    query: z.object({ t: tParam }),
    response: openPorts,
  }),
};
