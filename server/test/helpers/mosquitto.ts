import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Debian's mosquitto for tests and benchmarks (docs/testing.md "Real protocol peers"): started on a
 * free loopback port with a generated config in a temp dir (anonymous, no persistence), never the
 * system service. Node built-ins only, so the benchmarks start it too.
 */

export const mosquittoBinary = '/usr/sbin/mosquitto';
export const mosquittoAvailable = () => existsSync(mosquittoBinary);

export interface Mosquitto {
  port: number;
  /** Starts (or restarts, on the same port) the broker; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the broker (connections drop); `start` brings it back. */
  stop(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export const startMosquitto = async (): Promise<Mosquitto> => {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      `log_dest file ${path.join(dir, 'mosquitto.log')}`,
      'log_type error',
      'log_type warning',
      // The benchmark publishes bursts: no queue limit drops a QoS 0 message to a slow subscriber.
      'max_queued_messages 0',
      '',
    ].join('\n'),
  );
  let child: ChildProcess | null = null;
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  const start = async () => {
    if (child) return;
    const c = spawn(mosquittoBinary, ['-c', conf], { stdio: 'ignore' });
    child = c;
    for (let i = 0; i < 200; i++) {
      if (c.exitCode !== null) throw new Error(`mosquitto exited with ${c.exitCode} (see ${dir}/mosquitto.log)`);
      if (await canConnect(port)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    await stop();
    throw new Error('mosquitto did not start listening');
  };
  await start();
  return {
    port,
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
