import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../src/clock/manual.ts';
import type { SettingsStore } from '../src/db/settings-store.ts';
import { createHostClient } from '../src/modules/time-network/client.ts';
import {
  createNetworkService,
  type HostNetworkSettings,
  hostNetworkSettings,
} from '../src/modules/time-network/network.ts';

/**
 * Addresses for real (issue 30 item 4): the host helper runs `ip` inside a network namespace this
 * test makes, joined to the test by a veth pair. An address change of the interface the author
 * reached the console through is applied on trial: the old address stops answering, the new one
 * answers, and after 60 s on the manual clock the roll-back gives the old address back. The name
 * servers go to a resolv.conf of the test's own (the helper's --resolv-conf). Needs root and
 * iproute2 (scripts/test.mjs installs it); without them the suite is skipped saying which is missing.
 */
const serverDir = path.resolve(import.meta.dirname, '..');
const tag = `${process.pid % 100_000}`;
const ns = `swtn${tag}`;
const outside = `swtnh${tag}`;
const inside = `swtnn${tag}`;
const subnet = (process.pid % 250) + 1;
const hostAddress = `10.232.${subnet}.1`;
const nsAddress = `10.232.${subnet}.2`;
const movedAddress = `10.232.${subnet}.3`;

const missing = (() => {
  if (process.getuid?.() !== 0) return 'not root: making a network namespace needs CAP_SYS_ADMIN';
  try {
    execFileSync('sh', ['-c', 'command -v ip'], { stdio: 'ignore' });
  } catch {
    return 'ip (iproute2) is not installed';
  }
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
  } catch (err) {
    return `unshare -n fails here: ${(err as Error).message}`;
  }
  return null;
})();
if (missing) console.warn(`time-network namespace test skipped: ${missing}`);

const sh = (...args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
const inNs = (...args: string[]) => sh('ip', 'netns', 'exec', ns, ...args).toString();

const startInNs = (args: string[], word: string) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', ns, ...args], { cwd: serverDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (d: Buffer) => {
      out += d.toString();
      if (out.includes(word)) resolve(child);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });

/** Whether a TCP connection from this side to an address in the namespace is accepted (3 s at most, as firewall-netns: a bound on the real network, not a wait for a timer). */
const reach = (host: string) =>
  new Promise<'connected' | 'refused' | 'timeout'>((resolve) => {
    const socket = connect({ host, port: 7101 });
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'timeout'));
  });

const memoryStore = (): SettingsStore<{ host_network: HostNetworkSettings }> => {
  let value = hostNetworkSettings.parse({});
  return {
    get: async () => value,
    peek: () => value,
    set: async (_key, next) => {
      value = next;
    },
    reload: async () => undefined,
  } as SettingsStore<{ host_network: HostNetworkSettings }>;
};

describe.skipIf(missing !== null)('host helper in a network namespace (real ip)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-tn-ns-'));
  const socketPath = path.join(dir, 'host.sock');
  const resolvConf = path.join(dir, 'resolv.conf');
  const children: ChildProcess[] = [];
  const clock = createManualClock();
  const host = createHostClient(() => socketPath);
  const rolledBack: string[] = [];
  const service = createNetworkService({
    store: memoryStore(),
    host,
    timers: clock.timers,
    clock: clock.now,
    onRolledBack: async (iface, restored) => {
      rolledBack.push(`${iface} ${restored.ip}/${restored.prefix}`);
    },
  });
  // The author reached the console at the namespace's address.
  const author = { consoleAddress: nsAddress };
  const change = (patch: Record<string, unknown>) => ({
    interface: inside,
    ip: movedAddress,
    mask: '255.255.255.248',
    gateway: hostAddress,
    confirm_lockout: false,
    ...patch,
  });

  beforeAll(async () => {
    writeFileSync(resolvConf, 'search lan\nnameserver 10.255.255.53\n');
    sh('ip', 'netns', 'add', ns);
    sh('ip', 'link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', ns);
    sh('ip', 'addr', 'add', `${hostAddress}/29`, 'dev', outside);
    sh('ip', 'link', 'set', outside, 'up');
    inNs('ip', 'addr', 'add', `${nsAddress}/29`, 'dev', inside);
    inNs('ip', 'link', 'set', inside, 'up');
    inNs('ip', 'link', 'set', 'lo', 'up');
    const listen = `require('node:net').createServer(s=>{s.on('error',()=>{});s.end('hi')}).listen(7101,'0.0.0.0',()=>console.log('ready'))`;
    children.push(await startInNs([process.execPath, '-e', listen], 'ready'));
    children.push(
      await startInNs(
        [
          process.execPath,
          '--import',
          'tsx',
          'src/modules/time-network/helper.ts',
          '--socket',
          socketPath,
          '--resolv-conf',
          resolvConf,
        ],
        'listening',
      ),
    );
  }, 60_000);

  afterAll(() => {
    service.stop();
    for (const child of children) child.kill('SIGKILL');
    try {
      sh('ip', 'link', 'del', outside);
    } catch {}
    try {
      sh('ip', 'netns', 'del', ns);
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the namespace: its interface, address and name servers; writable as root', async () => {
    const state = await service.state(author);
    expect(state.host).toEqual({ available: true, reason: null, detail: '' });
    expect(state.interfaces).toEqual([
      expect.objectContaining({
        name: inside,
        up: true,
        addresses: [{ ip: nsAddress, prefix: 29, mask: '255.255.255.248' }],
        gateway: '',
      }),
    ]);
    expect(state.dns).toEqual(['10.255.255.53']);
    expect(await reach(nsAddress)).toBe('connected');
  });

  it('a change of the address the author came through is refused unless confirmed, and changes nothing', async () => {
    await expect(service.setIp(change({}), author)).rejects.toMatchObject({ key: 'timeNetwork.confirmLockout' });
    expect(inNs('ip', '-4', '-o', 'addr', 'show', 'dev', inside)).toContain(`${nsAddress}/29`);
    expect(await reach(nsAddress)).toBe('connected');
  });

  it('confirmed, it is applied on trial (old address gone, new one answers) and rolls back after 60 s', async () => {
    const trial = await service.setIp(change({ confirm_lockout: true }), author);
    expect(trial.pending).toMatchObject({
      interface: inside,
      previous: { ip: nsAddress, mask: '255.255.255.248', gateway: '' },
    });
    const addresses = inNs('ip', '-4', '-o', 'addr', 'show', 'dev', inside);
    expect(addresses).toContain(`${movedAddress}/29`);
    expect(addresses).not.toContain(`${nsAddress}/29`);
    expect(inNs('ip', '-4', 'route', 'show', 'default')).toContain(`default via ${hostAddress} dev ${inside}`);
    expect(await reach(movedAddress)).toBe('connected');
    expect(await reach(nsAddress)).not.toBe('connected');
    await clock.advance(59_000);
    expect((await service.state(author)).pending).not.toBeNull();
    await clock.advance(1_000);
    await service.settled();
    expect(rolledBack).toEqual([`${inside} ${nsAddress}/29`]);
    const after = inNs('ip', '-4', '-o', 'addr', 'show', 'dev', inside);
    expect(after).toContain(`${nsAddress}/29`);
    expect(after).not.toContain(movedAddress);
    expect(inNs('ip', '-4', 'route', 'show', 'default')).toBe('');
    expect(await reach(nsAddress)).toBe('connected');
    expect((await service.state(author)).pending).toBeNull();
  });

  it('kept in time, the new address stays', async () => {
    await service.setIp(change({ confirm_lockout: true, gateway: '' }), author);
    await clock.advance(30_000);
    expect((await service.keep(author)).pending).toBeNull();
    await clock.advance(60_000);
    await service.settled();
    expect(await reach(movedAddress)).toBe('connected');
    // Reached now at the new address, a change back is again on trial; kept.
    await service.setIp(change({ ip: nsAddress, gateway: '', confirm_lockout: true }), {
      consoleAddress: movedAddress,
    });
    await service.keep(author);
    expect(await reach(nsAddress)).toBe('connected');
  });

  it('writes the name servers, keeping the other lines', async () => {
    const state = await service.setDns(['10.232.0.53', '10.232.0.54'], author);
    expect(state.dns).toEqual(['10.232.0.53', '10.232.0.54']);
    expect(readFileSync(resolvConf, 'utf8')).toBe('search lan\nnameserver 10.232.0.53\nnameserver 10.232.0.54\n');
  });

  it('at start, what Sitewatch set is set again where the host lost it (a reboot empties runtime addresses)', async () => {
    inNs('ip', 'addr', 'flush', 'dev', inside);
    expect(await reach(nsAddress)).not.toBe('connected');
    await service.restore();
    expect(inNs('ip', '-4', '-o', 'addr', 'show', 'dev', inside)).toContain(`${nsAddress}/29`);
    expect(await reach(nsAddress)).toBe('connected');
  });
});
