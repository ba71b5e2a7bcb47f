import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * Start-up facts only (port, data dir, database, log level); everything else is set in the UI.
 * Read from the environment, over an optional JSON file named by SITEWATCH_CONFIG.
 */
export const configSchema = z.object({
  host: z.string().default('0.0.0.0'),
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  dataDir: z.string().default('./data'),
  databaseUrl: z.string().optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` lines for a log collector, `pretty` lines for a person; `auto`: pretty on a terminal. */
  logFormat: z.enum(['auto', 'json', 'pretty']).default('auto'),
  webDir: z.string().optional(),
  bodyLimitBytes: z.coerce.number().int().min(1024).default(1_048_576),
  /** `production` refuses test-only switches. */
  mode: z.enum(['production', 'development', 'test']).default('production'),
  shutdownGraceMs: z.coerce.number().int().min(0).default(10_000),
  /**
   * `off` starts with the login captcha switched off until an administrator turns it on: for
   * automated tests only, refused in production mode.
   */
  captcha: z.enum(['on', 'off']).default('on'),
  /** /metrics answers a `Bearer` of this token; without it (and without an allow-list) loopback only. */
  metricsToken: z.string().min(16).optional(),
  /** Addresses that may read /metrics without the token, comma-separated (loopback always may). */
  metricsAllow: z.string().optional(),
  /** A request (headers and body) must arrive within this; slow bodies are cut (ms). */
  requestTimeoutMs: z.coerce.number().int().min(1_000).default(30_000),
  /** Open connections one address may hold; beyond it a connection is closed at once. */
  maxConnectionsPerIp: z.coerce.number().int().min(1).default(200),
  /** `off`, `true`, a hop count or proxy addresses/CIDRs (comma-separated): see http/limits.ts. */
  trustProxy: z.string().default('off'),
  /** PEM certificate and key files: with both, the server answers HTTPS (and sends HSTS). */
  tlsCert: z.string().optional(),
  tlsKey: z.string().optional(),
  /** `worker`: device polling in a worker thread (the main one falls back to it when it cannot start); `main`: in-process. */
  collectorThread: z.enum(['worker', 'main']).default('worker'),
});
export type Config = z.infer<typeof configSchema>;

const envNames: Record<keyof Config, string> = {
  host: 'HOST',
  port: 'PORT',
  dataDir: 'SITEWATCH_DATA_DIR',
  databaseUrl: 'DATABASE_URL',
  logLevel: 'LOG_LEVEL',
  logFormat: 'LOG_FORMAT',
  webDir: 'SITEWATCH_WEB_DIR',
  bodyLimitBytes: 'SITEWATCH_BODY_LIMIT',
  mode: 'SITEWATCH_MODE',
  shutdownGraceMs: 'SITEWATCH_SHUTDOWN_GRACE_MS',
  captcha: 'SITEWATCH_CAPTCHA',
  metricsToken: 'SITEWATCH_METRICS_TOKEN',
  metricsAllow: 'SITEWATCH_METRICS_ALLOW',
  requestTimeoutMs: 'SITEWATCH_REQUEST_TIMEOUT_MS',
  maxConnectionsPerIp: 'SITEWATCH_MAX_CONNECTIONS_PER_IP',
  trustProxy: 'SITEWATCH_TRUST_PROXY',
  tlsCert: 'SITEWATCH_TLS_CERT',
  tlsKey: 'SITEWATCH_TLS_KEY',
  collectorThread: 'SITEWATCH_COLLECTOR_THREAD',
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const fromFile: Record<string, unknown> = env.SITEWATCH_CONFIG
    ? JSON.parse(readFileSync(env.SITEWATCH_CONFIG, 'utf8'))
    : {};
  const fromEnv: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(envNames)) {
    const value = env[name];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  const parsed = configSchema.safeParse({ ...fromFile, ...fromEnv });
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${envNames[i.path[0] as keyof Config] ?? i.path.join('.')}: ${i.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (Boolean(parsed.data.tlsCert) !== Boolean(parsed.data.tlsKey)) {
    throw new Error('Invalid configuration:\n  SITEWATCH_TLS_CERT and SITEWATCH_TLS_KEY go together');
  }
  if (parsed.data.captcha === 'off' && parsed.data.mode === 'production') {
    throw new Error(
      'Invalid configuration:\n  SITEWATCH_CAPTCHA=off is for automated tests and is refused in production mode (set SITEWATCH_MODE=test)',
    );
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.dataDir) };
};
