import { z } from 'zod';
import { tParam } from './envelope.ts';
import { licenceState } from './licence.ts';
import { defineRoute } from './route.ts';

/**
 * The system pages of 002 §2.1 that are not backup, firewall, time or network (docs/system.md):
 * /sys_information (the product, its database and estate, the licence; the host's figures come from
 * `get_system_info`), /tools (ping, traceroute and a port check from the box, administrators only),
 * /download_protocol (the point-table templates and the API document), the debug-log download and
 * /secret_list (the SM4 key of setting/maintain/sm4).
 */

const tags = ['system'];
const msg = (key: string) => `system.validation.${key}`;

/** Why a feature that needs the host cannot run here; '' when it can. The web names each reason. */
export const hostReason = z.enum(['', 'binaryMissing', 'notPermitted', 'noLogSource']);
export type HostReason = z.infer<typeof hostReason>;

export const capability = z.object({
  available: z.boolean().describe('Whether the feature can run on this host now.'),
  reason: hostReason.describe("Why not, when it cannot ('' when it can)."),
});
export type Capability = z.infer<typeof capability>;

export const sysInformation = z.object({
  version: z.string().describe('Version of the Sitewatch server.'),
  node_version: z.string().describe('Version of the Node.js runtime.'),
  started_at: z.number().int().describe('When the server process started (epoch seconds).'),
  server_uptime: z.number().int().describe('Seconds since the server process started.'),
  database: z.object({
    kind: z.enum(['sqlite', 'postgres']).describe('Database kind.'),
    size_bytes: z
      .number()
      .nullable()
      .describe('Size of the database (SQLite: file and journal; PostgreSQL: pg_database_size); null when unreadable.'),
  }),
  counts: z.object({
    sites: z.number().int(),
    devices: z.number().int(),
    items: z.number().int(),
  }),
  licence: z.object({
    state: licenceState.describe("The licence area's status (pub/license)."),
  }),
});
export type SysInformation = z.infer<typeof sysInformation>;

/** A host name (RFC 1123 labels) or an IPv4 or IPv6 address; never an option (no leading '-'). */
const hostLabel = /^(?=.{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?$/;
const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const ipv6 = /^[0-9A-Fa-f:.]{2,45}$/;
export const toolHost = z
  .string({ error: msg('host') })
  .trim()
  .min(1, { message: msg('hostRequired') })
  .max(253, { message: msg('host') })
  .refine((h) => ipv4.test(h) || (h.includes(':') && ipv6.test(h)) || (hostLabel.test(h) && !/^[\d.]+$/.test(h)), {
    message: msg('host'),
  })
  .describe('Host name or IP address to reach from the server.');

export const pingInput = z.strictObject({
  host: toolHost,
  count: z
    .number({ error: msg('count') })
    .int({ message: msg('count') })
    .min(1, { message: msg('count') })
    .max(10, { message: msg('count') })
    .default(4)
    .describe('Echo requests to send, 1–10 (default 4).'),
});
export const tracerouteInput = z.strictObject({
  host: toolHost,
  max_hops: z
    .number({ error: msg('hops') })
    .int({ message: msg('hops') })
    .min(1, { message: msg('hops') })
    .max(30, { message: msg('hops') })
    .default(15)
    .describe('Largest number of hops, 1–30 (default 15).'),
});
export const portCheckInput = z.strictObject({
  host: toolHost,
  port: z
    .number({ error: msg('port') })
    .int({ message: msg('port') })
    .min(1, { message: msg('port') })
    .max(65535, { message: msg('port') })
    .describe('TCP port, 1–65535.'),
  timeout_ms: z
    .number({ error: msg('timeout') })
    .int({ message: msg('timeout') })
    .min(100, { message: msg('timeout') })
    .max(10_000, { message: msg('timeout') })
    .default(3000)
    .describe('How long to wait for the connection, 100–10000 ms (default 3000).'),
});

export const toolResult = z.object({
  /** ping: an answer came back; traceroute: the destination was reached; port: it accepted a connection. */
  success: z.boolean(),
  /** The address the host was resolved to and checked (the tool ran against it, not the name). */
  address: z.string(),
  /** The tool's own output (at most 64 KB), or for a port check one of open, refused, timeout, unreachable. */
  output: z.string(),
  truncated: z.boolean(),
  elapsed_ms: z.number().int(),
});
export type ToolResult = z.infer<typeof toolResult>;

export const toolsState = z.object({
  ping: capability,
  traceroute: capability,
  port: capability,
});
export type ToolsState = z.infer<typeof toolsState>;

/** The SM4 key's settings as answered: never the key itself (docs/system.md, "The SM4 key"). */
export const sm4State = z.object({
  enabled: z.boolean().describe('Whether downloads of debug logs are encrypted with the key.'),
  key_set: z.boolean().describe('Whether a key is stored.'),
  fingerprint: z
    .string()
    .describe("First 8 hex digits of the key's SHA-256, to compare keys without showing them; '' without a key."),
  updated_at: z.number().int().describe('When the settings last changed (epoch seconds); 0: never.'),
});
export type Sm4State = z.infer<typeof sm4State>;

export const sm4KeyPattern = /^[0-9a-fA-F]{32}$/;
export const sm4Input = z.strictObject({
  enabled: z.boolean({ error: msg('enabled') }),
  /** 128-bit key as 32 hex digits; '' or absent keeps the stored key. */
  key: z
    .string()
    .trim()
    .refine((k) => k === '' || sm4KeyPattern.test(k), { message: msg('sm4Key') })
    .optional()
    .describe("The 128-bit key as 32 hex digits; '' or absent keeps the stored one."),
  verify_password: z
    .string({ error: 'users.verifyPasswordEmpty' })
    .min(1, { message: 'users.verifyPasswordEmpty' })
    .max(1024)
    .describe("The caller's own password, encrypted like a login password (002 §5.3)."),
});
export type Sm4Input = z.input<typeof sm4Input>;

export const debugLogQuery = z.object({
  mb: z.coerce
    .number({ error: msg('mb') })
    .int({ message: msg('mb') })
    .min(1, { message: msg('mb') })
    .max(50, { message: msg('mb') })
    .default(5)
    .describe('Megabytes from the end of the log, 1–50 (default 5).'),
  t: tParam,
});

export const debugLogState = capability.extend({
  source: z.enum(['file', 'journal', '']).describe("Where the server's log is read from; '' when nowhere."),
  encrypted: z.boolean().describe('Whether the download is encrypted with the SM4 key.'),
});
export type DebugLogState = z.infer<typeof debugLogState>;

/** The path of the debug-log download (a blob, 002 §7.2). */
export const debugLogPath = '/api/v1/setting/maintain/debug_log';

export const systemRoutes = {
  sysInformation: defineRoute({
    method: 'GET',
    path: 'setting/maintain/sys_information',
    summary: 'Version, uptime, database, estate counts and licence of this server (the host figures: get_system_info)',
    tags,
    query: z.object({ t: tParam }),
    response: sysInformation,
  }),
  toolsState: defineRoute({
    method: 'GET',
    path: 'setting/maintain/tools',
    summary: 'Which network tools this host can run, and why not',
    tags,
    query: z.object({ t: tParam }),
    response: toolsState,
  }),
  ping: defineRoute({
    method: 'POST',
    path: 'setting/maintain/tools/ping',
    summary: 'Ping an address from the server (bounded count and time)',
    tags,
    body: pingInput,
    response: toolResult,
  }),
  traceroute: defineRoute({
    method: 'POST',
    path: 'setting/maintain/tools/traceroute',
    summary: 'Trace the route to an address from the server (bounded hops and time)',
    tags,
    body: tracerouteInput,
    response: toolResult,
  }),
  portCheck: defineRoute({
    method: 'POST',
    path: 'setting/maintain/tools/port',
    summary: 'Whether a TCP port of an address accepts a connection from the server',
    tags,
    body: portCheckInput,
    response: toolResult,
  }),
  debugLogState: defineRoute({
    method: 'GET',
    path: 'setting/maintain/debug_log/state',
    summary: "Whether the server's log can be downloaded here, from where, and whether encrypted",
    tags,
    query: z.object({ t: tParam }),
    response: debugLogState,
  }),
  debugLog: defineRoute({
    method: 'GET',
    path: 'setting/maintain/debug_log',
    summary: "The last megabytes of the server's log, secrets redacted (a text file, or SM4-encrypted)",
    tags,
    query: debugLogQuery,
    response: z.null(),
  }),
  sm4: defineRoute({
    method: 'GET',
    path: 'setting/maintain/sm4',
    summary: 'The SM4 key settings (never the key)',
    tags,
    query: z.object({ t: tParam }),
    response: sm4State,
  }),
  saveSm4: defineRoute({
    method: 'POST',
    path: 'setting/maintain/sm4',
    summary: 'Change the SM4 key settings (needs the verification password)',
    tags,
    body: sm4Input,
    response: sm4State,
  }),
};

/** Menu ids of the system pages (docs/menus.md). */
export const systemMenus = {
  sysInformation: 410,
  tools: 411,
  downloadProtocol: 412,
  secretList: 413,
  weekTime: 414,
} as const;
