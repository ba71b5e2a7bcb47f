import { spawn } from 'node:child_process';
import { chmodSync, chownSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { type HelperRequest, helperRequest, type ListeningPort, maxLineBytes, type TableState } from './protocol.ts';
import { renderRuleset, tableFamily, tableName } from './render.ts';

/**
 * The privileged firewall helper (docs/firewall.md, "The helper"): a small process run as root that
 * the server talks to over a unix socket. It is the only part that runs `nft` and `ss`; it renders
 * the ruleset itself from validated rule data and touches only the `inet sitewatch` table.
 *
 *   node server/dist/firewall-helper.js --socket /run/sitewatch/firewall.sock [--gid 998]
 */

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}
/** Runs a program (argument list, no shell) with optional standard input; rejects with ENOENT when absent. */
export type CommandRunner = (command: string, args: readonly string[], input?: string) => Promise<CommandResult>;

export const runCommand: CommandRunner = (command, args, input) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    if (child.stdin) {
      // A program that exits without reading its input must not take the helper down with EPIPE.
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
  });

type Answer = { ok: true; data: unknown } | { ok: false; reason: 'noNft' | 'noPrivilege' | 'failed'; detail: string };

const failure = (result: CommandResult): Answer => ({
  ok: false,
  reason: /not permitted|permission denied/i.test(result.stderr) ? 'noPrivilege' : 'failed',
  detail: result.stderr.trim().slice(0, 500),
});

/** Sitewatch's table read with `nft -j`: whether it exists and how many rules it holds. */
const readTable = async (run: CommandRunner): Promise<Answer> => {
  const result = await run('nft', ['-j', 'list', 'table', tableFamily, tableName]);
  if (result.code !== 0) {
    if (/No such file or directory/i.test(result.stderr)) return { ok: true, data: { table: false, rules: 0 } };
    return failure(result);
  }
  const parsed = JSON.parse(result.stdout) as { nftables?: Record<string, unknown>[] };
  const items = parsed.nftables ?? [];
  const state: TableState = { table: items.some((i) => 'table' in i), rules: items.filter((i) => 'rule' in i).length };
  return { ok: true, data: state };
};

/** The listening sockets of one protocol, in port order. */
const byPort = (a: ListeningPort, b: ListeningPort) =>
  a.port - b.port || a.protocol.localeCompare(b.protocol) || a.address.localeCompare(b.address);

/**
 * `ss -Hltnp` lines (`LISTEN 0 511 0.0.0.0:80 0.0.0.0:* users:(("node",pid=1,fd=20))`) or, with
 * `udp`, `ss -Hlunp` lines (`UNCONN 0 0 0.0.0.0:161 0.0.0.0:* users:(("snmpd",…))`): the same columns.
 */
export const parseListening = (text: string, protocol: 'tcp' | 'udp' = 'tcp'): ListeningPort[] =>
  text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 5)
    .flatMap((cols) => {
      const local = cols[3]!;
      const at = local.lastIndexOf(':');
      const port = Number(local.slice(at + 1));
      if (at < 0 || !Number.isInteger(port)) return [];
      const process = /users:\(\("([^"]+)"/.exec(cols.slice(5).join(' '))?.[1] ?? '';
      return [{ protocol, address: local.slice(0, at).replace(/%\S+$/, ''), port, process }];
    })
    .sort(byPort);

/** Answers one validated request. */
export const handleRequest = async (request: HelperRequest, run: CommandRunner): Promise<Answer> => {
  try {
    if (request.op === 'probe') {
      const version = await run('nft', ['--version']);
      if (version.code !== 0) return failure(version);
      // Listing needs the same privilege as writing (CAP_NET_ADMIN).
      const list = await run('nft', ['list', 'tables']);
      if (list.code !== 0) return failure(list);
      return { ok: true, data: { nft: version.stdout.trim() } };
    }
    if (request.op === 'apply') {
      const script = renderRuleset(request.enabled, request.rules);
      const result = await run('nft', ['-f', '-'], script);
      if (result.code !== 0) return failure(result);
      return readTable(run);
    }
    if (request.op === 'state') return readTable(run);
    // TCP and UDP sockets listening (docs/firewall.md): a rule covers both protocols.
    const tcp = await run('ss', ['-Hltnp']);
    if (tcp.code !== 0) return failure(tcp);
    const udp = await run('ss', ['-Hlunp']);
    if (udp.code !== 0) return failure(udp);
    return { ok: true, data: [...parseListening(tcp.stdout), ...parseListening(udp.stdout, 'udp')].sort(byPort) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'noNft', detail: String((err as Error).message) };
    return { ok: false, reason: 'failed', detail: String((err as Error).message).slice(0, 500) };
  }
};

/** Reads request lines from one connection and writes an answer line for each. */
const serveConnection = (socket: Socket, run: CommandRunner) => {
  let buffer = '';
  let queue = Promise.resolve();
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > maxLineBytes) {
      socket.end(`${JSON.stringify({ ok: false, reason: 'failed', detail: 'request too large' })}\n`);
      return;
    }
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      queue = queue.then(async () => {
        let answer: Answer;
        try {
          const parsed = helperRequest.safeParse(JSON.parse(line));
          answer = parsed.success
            ? await handleRequest(parsed.data, run)
            : { ok: false, reason: 'failed', detail: 'invalid request' };
        } catch {
          answer = { ok: false, reason: 'failed', detail: 'invalid request' };
        }
        if (!socket.destroyed) socket.write(`${JSON.stringify(answer)}\n`);
      });
      nl = buffer.indexOf('\n');
    }
  });
  socket.on('error', () => socket.destroy());
};

/**
 * Listens on `socketPath` (replacing a stale socket file), mode 0660 and, with `gid`, owned by the
 * server's group, so the server's user may talk to it and nobody else. Requests of all connections
 * run one at a time: two applies never interleave.
 */
export const startHelper = async (options: {
  socketPath: string;
  run?: CommandRunner;
  gid?: number | undefined;
}): Promise<Server> => {
  const run = options.run ?? runCommand;
  let serial = Promise.resolve();
  const queued: CommandRunner = (command, args, input) => {
    const next = serial.then(() => run(command, args, input));
    serial = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  };
  rmSync(options.socketPath, { force: true });
  const server = createServer((socket) => serveConnection(socket, queued));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });
  chmodSync(options.socketPath, 0o660);
  if (options.gid !== undefined) chownSync(options.socketPath, 0, options.gid);
  return server;
};

const argValue = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const socketPath = argValue('--socket') ?? process.env.SITEWATCH_FIREWALL_SOCKET ?? '/run/sitewatch/firewall.sock';
  const gid = argValue('--gid');
  const server = await startHelper({ socketPath, gid: gid === undefined ? undefined : Number(gid) });
  process.stdout.write(`firewall helper listening on ${socketPath}\n`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
