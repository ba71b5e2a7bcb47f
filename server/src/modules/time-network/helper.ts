import { chmodSync, chownSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { type HostAnswer, type HostDeps, handleHostRequest, realFiles, runCommand } from './host.ts';
import { hostRequest, maxHostLineBytes } from './protocol.ts';

/**
 * The privileged host helper for time, network and the NTP service (docs/time-network.md, "The
 * helper"): a small process run as root that the server talks to over a unix socket, like the
 * firewall's. It is the only part that runs timedatectl, ip and systemctl or writes resolv.conf.
 *
 *   node server/dist/host-helper.js --socket /run/sitewatch/host.sock [--gid 998] [--resolv-conf /etc/resolv.conf]
 */

const serveConnection = (socket: Socket, answer: (line: string) => Promise<HostAnswer>) => {
  let buffer = '';
  let queue = Promise.resolve();
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    if (buffer.length > maxHostLineBytes) {
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
 * Listens on `socketPath` (mode 0660, owned by `gid` when given). Requests of all connections run one
 * at a time: two changes never interleave.
 */
export const startHostHelper = async (options: {
  socketPath: string;
  deps?: Partial<HostDeps>;
  gid?: number | undefined;
}): Promise<Server> => {
  const deps: HostDeps = {
    run: runCommand,
    files: realFiles,
    privileged: process.getuid?.() === 0,
    resolvConf: '/etc/resolv.conf',
    ...options.deps,
  };
  let serial: Promise<unknown> = Promise.resolve();
  const answer = (line: string): Promise<HostAnswer> => {
    const next = serial.then(async (): Promise<HostAnswer> => {
      try {
        const parsed = hostRequest.safeParse(JSON.parse(line));
        return parsed.success
          ? await handleHostRequest(parsed.data, deps)
          : { ok: false, reason: 'failed', detail: 'invalid request' };
      } catch {
        return { ok: false, reason: 'failed', detail: 'invalid request' };
      }
    });
    serial = next.catch(() => undefined);
    return next;
  };
  rmSync(options.socketPath, { force: true });
  const server = createServer((socket) => serveConnection(socket, answer));
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
  const socketPath = argValue('--socket') ?? process.env.SITEWATCH_HOST_SOCKET ?? '/run/sitewatch/host.sock';
  const gid = argValue('--gid');
  const resolvConf = argValue('--resolv-conf');
  const server = await startHostHelper({
    socketPath,
    gid: gid === undefined ? undefined : Number(gid),
    deps: resolvConf ? { resolvConf } : {},
  });
  process.stdout.write(`host helper listening on ${socketPath}\n`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
