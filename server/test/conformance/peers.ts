import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Aedes } from 'aedes';
import { ServerSerial, ServerTCP } from 'modbus-serial';

/** A free TCP (or UDP) port on loopback. */
export const freePort = (udp = false): Promise<number> =>
  new Promise((resolve, reject) => {
    if (udp) {
      const s = createSocket('udp4');
      s.bind(0, '127.0.0.1', () => {
        const { port } = s.address();
        s.close(() => resolve(port));
      });
      s.on('error', reject);
      return;
    }
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A peer that can be killed and brought back on the same port. */
export interface Peer {
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Modbus TCP server (modbus-serial's ServerTCP) with holding and input registers and coils.
 * Registers are plain arrays the test can change.
 */
export const modbusPeer = async (): Promise<Peer & { holding: number[]; input: number[]; coils: boolean[] }> => {
  const port = await freePort();
  const holding = new Array<number>(200).fill(0);
  const input = new Array<number>(200).fill(0);
  const coils = new Array<boolean>(64).fill(false);
  let server: ServerTCP | null = null;
  const vector = {
    getHoldingRegister: (addr: number) => {
      if (addr >= 100) throw Object.assign(new Error('illegal address'), { modbusErrorCode: 2 });
      return holding[addr] ?? 0;
    },
    getInputRegister: (addr: number) => input[addr] ?? 0,
    getCoil: (addr: number) => coils[addr] ?? false,
    setRegister: (addr: number, value: number) => {
      holding[addr] = value;
    },
    setCoil: (addr: number, value: boolean) => {
      coils[addr] = value;
    },
  };
  return {
    port,
    holding,
    input,
    coils,
    start: () =>
      new Promise<void>((resolve, reject) => {
        server = new ServerTCP(vector, { host: '127.0.0.1', port, unitID: 1 });
        server.on('initialized', () => resolve());
        server.on('serverError', reject);
        server.on('socketError', () => undefined);
        server.on('error', () => undefined);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        const s = server;
        server = null;
        if (!s) return resolve();
        for (const sock of s.socks.keys()) sock.destroy();
        s.close(() => resolve());
      }),
  };
};

/**
 * Debian's snmpd on a loopback UDP port with its own config: community `public` and v3 user `swuser`,
 * plus `extraConfig` lines (e.g. `override <oid> octet_str "12,5"` to serve a value of the test's).
 */
export const snmpdPeer = async (
  extraConfig: string[] = [],
): Promise<Peer & { v3: { user: string; auth: string; priv: string } }> => {
  const port = await freePort(true);
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-snmpd-'));
  const v3 = { user: 'swuser', auth: 'sitewatch-auth-1', priv: 'sitewatch-priv-1' };
  writeFileSync(
    path.join(dir, 'snmpd.conf'),
    [
      `agentAddress udp:127.0.0.1:${port}`,
      'rocommunity public 127.0.0.1',
      `createUser ${v3.user} SHA "${v3.auth}" AES "${v3.priv}"`,
      `rouser ${v3.user} priv`,
      ...extraConfig,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | null = null;
  return {
    port,
    v3,
    async start() {
      child = await spawnSnmpd(dir);
    },
    async stop() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
      rmSync(path.join(dir, 'pid'), { force: true });
    },
  };
};

export const snmpdAvailable = existsSync('/usr/sbin/snmpd');

/**
 * Starts Debian's snmpd in the foreground on the config of `dir`, logging to its standard output;
 * resolves once it prints its version line, which it does after binding its ports (an event, where
 * waiting for the pid file and then a little more was a guess).
 */
export const spawnSnmpd = (dir: string): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      '/usr/sbin/snmpd',
      ['-f', '-Lo', '-C', '-c', path.join(dir, 'snmpd.conf'), '-p', path.join(dir, 'pid')],
      { env: { ...process.env, MIBS: '', SNMP_PERSISTENT_DIR: path.join(dir, 'persist') }, stdio: 'pipe' },
    );
    let log = '';
    const exited = () => reject(new Error(`snmpd exited before it was ready:\n${log}`));
    child.once('exit', exited);
    child.stderr?.resume();
    child.stdout?.on('data', (chunk) => {
      if (log.length < 100_000) log += chunk;
      if (!log.includes('NET-SNMP version')) return;
      child.off('exit', exited);
      resolve(child);
    });
  });

/** An MQTT broker (aedes) on a loopback TCP port. */
export const mqttPeer = async (): Promise<Peer & { publish(topic: string, payload: string): Promise<void> }> => {
  const port = await freePort();
  let broker: Aedes | null = null;
  let server: Server | null = null;
  return {
    port,
    async start() {
      broker = await Aedes.createBroker();
      const b = broker;
      server = createServer((socket) => b.handle(socket));
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', () => resolve()));
    },
    async stop() {
      const b = broker;
      const s = server;
      broker = null;
      server = null;
      if (s) {
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          b?.close();
        });
      }
      // Clients see the closed socket on their next event-loop turns.
      await sleep(100);
    },
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) => {
        if (!broker) return reject(new Error('broker stopped'));
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 0, retain: true, dup: false },
          (err) => (err ? reject(err) : resolve()),
        );
      }),
  };
};

export const socatAvailable = existsSync('/usr/bin/socat');

/**
 * A Modbus RTU device on a serial line: socat makes a pair of linked pseudo-terminals, and
 * modbus-serial's ServerSerial answers on one end while the driver opens the other.
 */
export const modbusRtuPeer = async (): Promise<Peer & { path: string; holding: number[] }> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-rtu-'));
  const holding = new Array<number>(100).fill(0);
  let socat: ChildProcess | null = null;
  let server: ServerSerial | null = null;
  return {
    port: 0,
    path: path.join(dir, 'device'),
    holding,
    async start() {
      socat = spawn(
        '/usr/bin/socat',
        [`pty,raw,echo=0,link=${path.join(dir, 'peer')}`, `pty,raw,echo=0,link=${path.join(dir, 'device')}`],
        { stdio: 'ignore' },
      );
      for (let i = 0; i < 100 && !(existsSync(path.join(dir, 'peer')) && existsSync(path.join(dir, 'device'))); i++) {
        await sleep(20);
      }
      server = new ServerSerial(
        {
          getHoldingRegister: (addr: number) => holding[addr] ?? 0,
          setRegister: (addr: number, value: number) => {
            holding[addr] = value;
          },
        },
        { path: path.join(dir, 'peer'), baudRate: 9600, unitID: 1 } as ConstructorParameters<typeof ServerSerial>[1],
      );
      server.on('error', () => undefined);
      server.on('socketError', () => undefined);
      await sleep(200);
    },
    async stop() {
      const s = server;
      const c = socat;
      server = null;
      socat = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
      if (c && c.exitCode === null) {
        await new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        });
      }
    },
  };
};
