import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { OutboundConfig } from '@sitewatch/contract/auth';
import type { Capability, ToolResult, ToolsState } from '@sitewatch/contract/system';
import { AppError } from '../../http/errors.ts';
import { checkedAddress, OutboundRefused } from '../../notify/outbound.ts';

/**
 * The network tools of /tools (docs/system.md, "Tools"): ping, traceroute and a TCP port check from
 * the box to an address an administrator typed. Every run is bounded (count, hops, time, output),
 * runs the binary by `execFile` with an argument array (no shell ever sees the input), and goes to
 * the address the outbound guard checked, never to the name (a DNS answer that changes between check
 * and run cannot redirect it).
 */

/** Largest output kept from a tool (the rest is cut and said so). */
export const toolOutputLimit = 64 * 1024;

/**
 * The ranges the tools refuse unless an administrator allows them: the box itself (loopback,
 * unspecified) and link-local (cloud metadata services). Private and CGNAT ranges are where devices
 * live, so the tools reach them, unlike a notification channel; the administrator's deny list
 * (OUTBOUND) still wins over everything.
 */
const deviceRanges = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'];

export const toolPolicy = (outbound: OutboundConfig): OutboundConfig => ({
  deny: outbound.deny,
  allow: [...outbound.allow, ...deviceRanges],
});

/** Finds an executable on PATH (and the sbin folders, where Debian puts traceroute's helpers). */
export const findBinary = (name: string, envPath = process.env.PATH ?? ''): string | null => {
  const dirs = [...envPath.split(path.delimiter), '/usr/sbin', '/sbin', '/usr/bin', '/bin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
};

interface RunResult {
  code: number | null;
  output: string;
  truncated: boolean;
  timedOut: boolean;
}

/** Runs a binary with arguments (no shell), bounded in time and output. */
export const runBounded = (file: string, args: string[], timeoutMs: number): Promise<RunResult> =>
  new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      {
        timeout: timeoutMs,
        maxBuffer: toolOutputLimit,
        killSignal: 'SIGKILL',
        env: { LC_ALL: 'C', PATH: process.env.PATH ?? '' },
      },
      (error, stdout, stderr) => {
        const err = error as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
        const text = `${stdout}${stderr ? (stdout ? '\n' : '') + stderr : ''}`;
        const truncated = err?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' || text.length > toolOutputLimit;
        resolve({
          code: typeof err?.code === 'number' ? err.code : err ? (child.exitCode ?? null) : 0,
          output: text.slice(0, toolOutputLimit),
          truncated,
          timedOut: Boolean(err?.killed) && !truncated,
        });
      },
    );
  });

export interface ToolsDeps {
  outbound(): Promise<OutboundConfig>;
  /** Finds binaries (tests hand in a finder that finds none). */
  find?: (name: string) => string | null;
  clock?: () => number;
}

export const createTools = (deps: ToolsDeps) => {
  const find = deps.find ?? ((name: string) => findBinary(name));
  const clock = deps.clock ?? Date.now;
  // Whether ping may open its socket here (a container without CAP_NET_RAW and with a closed
  // ping_group_range cannot): learned from the first run, kept for the process.
  let pingPermitted: boolean | null = null;

  const capabilityOf = (name: 'ping' | 'traceroute'): Capability => {
    if (!find(name)) return { available: false, reason: 'binaryMissing' };
    if (name === 'ping' && pingPermitted === false) return { available: false, reason: 'notPermitted' };
    return { available: true, reason: '' };
  };

  const target = async (host: string) => {
    const bare = host.replace(/^\[|\]$/g, '');
    if (bare.includes(':') && net.isIP(bare) !== 6) throw new AppError('badRequest', 'system.validation.host');
    try {
      return await checkedAddress(bare, toolPolicy(await deps.outbound()));
    } catch (err) {
      if (err instanceof OutboundRefused) throw new AppError('badRequest', 'system.refused');
      throw new AppError('badRequest', 'system.unresolved', { host: bare });
    }
  };

  const binary = (name: 'ping' | 'traceroute') => {
    const file = find(name);
    if (!file) throw new AppError('conflict', 'system.reason.binaryMissing');
    return file;
  };

  return {
    state(): ToolsState {
      return {
        ping: capabilityOf('ping'),
        traceroute: capabilityOf('traceroute'),
        port: { available: true, reason: '' },
      };
    },

    async ping(host: string, count: number): Promise<ToolResult> {
      const file = binary('ping');
      if (pingPermitted === false) throw new AppError('conflict', 'system.reason.notPermitted');
      const { address, family } = await target(host);
      const started = clock();
      // -n numeric, -c count, -W 2 s per answer; the run as a whole ends at count × 2 s + 2 s.
      const run = await runBounded(
        file,
        [family === 6 ? '-6' : '-4', '-n', '-c', String(count), '-W', '2', address],
        count * 2000 + 2000,
      );
      if (run.code !== 0 && /operation not permitted|permission denied/i.test(run.output)) {
        pingPermitted = false;
        throw new AppError('conflict', 'system.reason.notPermitted');
      }
      pingPermitted = true;
      return {
        success: run.code === 0,
        address,
        output: run.output,
        truncated: run.truncated,
        elapsed_ms: Math.max(0, clock() - started),
      };
    },

    async traceroute(host: string, maxHops: number): Promise<ToolResult> {
      const file = binary('traceroute');
      const { address, family } = await target(host);
      const started = clock();
      // One probe a hop, 1 s each: the run ends at hops × 1 s + 2 s at most.
      const run = await runBounded(
        file,
        [family === 6 ? '-6' : '-4', '-n', '-q', '1', '-w', '1', '-m', String(maxHops), address],
        maxHops * 1000 + 2000,
      );
      const lines = run.output.trim().split('\n');
      const reached =
        run.code === 0 && new RegExp(`\\s${address.replace(/[.:]/g, '\\$&')}\\s`).test(lines.at(-1) ?? '');
      return {
        success: reached,
        address,
        output: run.output,
        truncated: run.truncated,
        elapsed_ms: Math.max(0, clock() - started),
      };
    },

    async portCheck(host: string, port: number, timeoutMs: number): Promise<ToolResult> {
      const { address } = await target(host);
      const started = clock();
      const outcome = await new Promise<'open' | 'refused' | 'timeout' | 'unreachable'>((resolve) => {
        const socket = net.connect({ host: address, port });
        const done = (o: 'open' | 'refused' | 'timeout' | 'unreachable') => {
          socket.destroy();
          resolve(o);
        };
        socket.setTimeout(timeoutMs, () => done('timeout'));
        socket.once('connect', () => done('open'));
        socket.once('error', (e: NodeJS.ErrnoException) => done(e.code === 'ECONNREFUSED' ? 'refused' : 'unreachable'));
      });
      return {
        success: outcome === 'open',
        address,
        output: outcome,
        truncated: false,
        elapsed_ms: Math.max(0, clock() - started),
      };
    },
  };
};
export type Tools = ReturnType<typeof createTools>;
