import { spawn } from 'node:child_process';
import { chmodSync, chownSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';

/**
 * What the privileged helpers share (the firewall's and the host's, docs/firewall.md "The helper",
 * docs/time-network.md): a small process run as root that the server talks to over a unix socket,
 * one JSON request per line and one answer line for each; the web process never runs as root.
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

/** Reads request lines from one connection and writes the answer of each, in order. */
const serveConnection = (socket: Socket, maxLineBytes: number, answer: (line: string) => Promise<object>) => {
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
        const reply = await answer(line);
        if (!socket.destroyed) socket.write(`${JSON.stringify(reply)}\n`);
      });
      nl = buffer.indexOf('\n');
    }
  });
  socket.on('error', () => socket.destroy());
};

/**
 * Listens on `socketPath` (replacing a stale socket file), mode 0660 and, with `gid`, owned by the
 * server's group, so the server's user may talk to it and nobody else. A line that is not a `request`
 * is answered as invalid; `handle` answers the others (never throwing). The requests of all
 * connections run one at a time, so two changes of the host never interleave.
 */
export const listenForRequests = async <Q>(
  options: { socketPath: string; gid?: number | undefined; maxLineBytes: number },
  request: z.ZodType<Q>,
  handle: (request: Q) => Promise<object>,
): Promise<Server> => {
  const invalid = { ok: false, reason: 'failed', detail: 'invalid request' };
  const answer = async (line: string) => {
    try {
      const parsed = request.safeParse(JSON.parse(line));
      return parsed.success ? await handle(parsed.data) : invalid;
    } catch {
      return invalid;
    }
  };
  let serial: Promise<unknown> = Promise.resolve();
  const oneAtATime = (line: string) => {
    const next = serial.then(() => answer(line));
    serial = next.catch(() => undefined);
    return next;
  };
  rmSync(options.socketPath, { force: true });
  const server = createServer((socket) => serveConnection(socket, options.maxLineBytes, oneAtATime));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });
  chmodSync(options.socketPath, 0o660);
  if (options.gid !== undefined) chownSync(options.socketPath, 0, options.gid);
  return server;
};

/** A command-line option's value (`--socket /run/…`). */
export const argValue = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/**
 * Runs a helper when its file is the process's entry (`node dist/<name>.js --socket … [--gid …]`):
 * listens on the socket the options, then `socketEnv`, then `defaultSocket` name, until SIGTERM or SIGINT.
 */
export const runHelperWhenMain = (
  moduleUrl: string,
  names: { label: string; socketEnv: string; defaultSocket: string },
  start: (socketPath: string, gid: number | undefined) => Promise<Server>,
) => {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const socketPath = argValue('--socket') ?? process.env[names.socketEnv] ?? names.defaultSocket;
  const gid = argValue('--gid');
  void start(socketPath, gid === undefined ? undefined : Number(gid)).then((server) => {
    process.stdout.write(`${names.label} listening on ${socketPath}\n`);
    const stop = () => server.close(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
};

/** An answer of a helper, or why the host cannot be reached or changed. */
export type HelperAnswer<T, R extends string> = { ok: true; data: T } | { ok: false; reason: R; detail: string };

const unexpected = { ok: false, reason: 'failed', detail: 'unexpected answer from the helper' } as const;

/**
 * One request line to the helper at `socketPath`, its answer line checked against `data` (a success)
 * or `failure`; no helper listening answers `noHelper`, one that does not answer in time `failed`.
 */
export const askHelper = <T, R extends string>(
  socketPath: string,
  request: object,
  timeoutMs: number,
  schemas: { data: z.ZodType<T>; failure: z.ZodType<{ reason: R; detail: string }> },
): Promise<HelperAnswer<T, R | 'noHelper' | 'failed'>> =>
  new Promise((resolve) => {
    let buffer = '';
    let done = false;
    const finish = (answer: HelperAnswer<T, R | 'noHelper' | 'failed'>) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(answer);
    };
    const socket = createConnection(socketPath);
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => finish({ ok: false, reason: 'failed', detail: 'the helper did not answer' }));
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      try {
        const raw = JSON.parse(buffer.slice(0, nl)) as { ok?: boolean; data?: unknown };
        if (raw.ok === true) {
          const data = schemas.data.safeParse(raw.data);
          finish(data.success ? { ok: true, data: data.data } : unexpected);
          return;
        }
        const failure = schemas.failure.safeParse(raw);
        finish(failure.success ? { ok: false, reason: failure.data.reason, detail: failure.data.detail } : unexpected);
      } catch {
        finish(unexpected);
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        reason: ['ENOENT', 'ECONNREFUSED', 'EACCES', 'ENOTSOCK'].includes(err.code ?? '') ? 'noHelper' : 'failed',
        detail: err.code ?? err.message,
      }),
    );
    socket.on('close', () => finish({ ok: false, reason: 'noHelper', detail: 'the helper closed the connection' }));
  });
