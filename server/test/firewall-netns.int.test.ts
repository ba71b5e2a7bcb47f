import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../src/clock/manual.ts';
import type { SettingsStore } from '../src/db/settings-store.ts';
import { createHelperClient } from '../src/modules/firewall/client.ts';
import { createFirewallService, type FirewallSettings, firewallSettings } from '../src/modules/firewall/service.ts';

/**
 * The firewall for real (issue 30, "Must show"): the helper runs `nft` inside a network namespace
 * this test makes, joined to the test by a veth pair; connections from the test (the namespace's
 * other end) to listeners inside it show what the rules refuse, and the roll-back of a change that
 * cuts the author off gives access back. Needs root, iproute2 and nftables (scripts/test.mjs
 * installs nftables); without them the suite is skipped saying which is missing.
 */
const serverDir = path.resolve(import.meta.dirname, '..');
const tag = `${process.pid % 100_000}`;
const ns = `swfw${tag}`;
const outside = `swfwh${tag}`;
const inside = `swfwn${tag}`;
const subnet = (process.pid % 250) + 1;
const hostAddress = `10.231.${subnet}.1`;
const nsAddress = `10.231.${subnet}.2`;
const host6 = `fd31:${subnet.toString(16)}::1`;
const ns6 = `fd31:${subnet.toString(16)}::2`;

const missing = (() => {
  if (process.getuid?.() !== 0) return 'not root: making a network namespace needs CAP_SYS_ADMIN';
  for (const tool of ['ip', 'nft']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed`;
    }
  }
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
  } catch (err) {
    return `unshare -n fails here: ${(err as Error).message}`;
  }
  return null;
})();
if (missing) console.warn(`firewall namespace test skipped: ${missing}`);

const sh = (...args: string[]) => execFileSync(args[0]!, args.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
const inNs = (...args: string[]) => sh('ip', 'netns', 'exec', ns, ...args);

/** Starts a process inside the namespace and resolves once it printed `ready` (or `word`). */
const startInNs = (args: string[], word: string, cwd = serverDir) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', ns, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(word)) resolve(child);
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });

/** Whether a TCP connection from this side to the namespace's port is accepted or refused. */
const reach = (port: number, host = nsAddress) =>
  new Promise<'connected' | 'refused' | 'timeout'>((resolve) => {
    const socket = connect({ host, port });
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

/** The settings store in memory (the service's own store is the database's; not what this test is about). */
const memoryStore = (): SettingsStore<{ firewall: FirewallSettings }> => {
  let value = firewallSettings.parse({});
  return {
    get: async () => value,
    peek: () => value,
    set: async (_key, next) => {
      value = next;
    },
    reload: async () => undefined,
  } as SettingsStore<{ firewall: FirewallSettings }>;
};

describe.skipIf(missing !== null)('firewall helper in a network namespace (real nftables)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-fw-ns-'));
  const socketPath = path.join(dir, 'helper.sock');
  const children: ChildProcess[] = [];
  const clock = createManualClock();
  const host = createHelperClient(() => socketPath);
  const service = createFirewallService({ store: memoryStore(), host, timers: clock.timers, clock: clock.now });
  const author = { address: hostAddress, port: 7001 };

  beforeAll(async () => {
    sh('ip', 'netns', 'add', ns);
    sh('ip', 'link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', ns);
    sh('ip', 'addr', 'add', `${hostAddress}/30`, 'dev', outside);
    sh('ip', 'link', 'set', outside, 'up');
    inNs('ip', 'addr', 'add', `${nsAddress}/30`, 'dev', inside);
    // IPv6 on the same pair (no duplicate address detection: usable at once).
    sh('ip', '-6', 'addr', 'add', `${host6}/64`, 'dev', outside, 'nodad');
    inNs('ip', '-6', 'addr', 'add', `${ns6}/64`, 'dev', inside, 'nodad');
    inNs('ip', 'link', 'set', inside, 'up');
    inNs('ip', 'link', 'set', 'lo', 'up');
    // TCP on both families ('::' takes IPv4 too) and one UDP socket, for the listening list.
    const listen = `const net=require('node:net');let n=0;const up=()=>{if(++n===4)console.log('ready')};for(const p of [7001,7002,7003])net.createServer(s=>{s.on('error',()=>{});s.end('hi')}).listen(p,'::',up);require('node:dgram').createSocket('udp4').bind(7004,'0.0.0.0',up)`;
    children.push(await startInNs([process.execPath, '-e', listen], 'ready'));
    children.push(
      await startInNs(
        [process.execPath, '--import', 'tsx', 'src/modules/firewall/helper.ts', '--socket', socketPath],
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

  it('the helper answers probe, state and the listening ports from inside the namespace', async () => {
    expect(await host.probe()).toMatchObject({ ok: true, data: { nft: expect.stringMatching(/^nftables v/) } });
    expect(await host.state()).toEqual({ ok: true, data: { table: false, rules: 0 } });
    const ports = await host.ports();
    expect(ports.ok && ports.data.map((p) => `${p.protocol} ${p.port}`)).toEqual([
      'tcp 7001',
      'tcp 7002',
      'tcp 7003',
      'udp 7004',
    ]);
    expect(await Promise.all([reach(7001), reach(7002), reach(7003)])).toEqual(['connected', 'connected', 'connected']);
  });

  it('a refused port refuses a connection from the other end, an allowed one connects, first match decides', async () => {
    await service.save(
      {
        rules: [
          { direction: 'in', source: hostAddress, port: '7003:7003', authorised: true, Disabled: false, remark: '' },
          { direction: 'in', source: '0.0.0.0/0', port: '7002:7003', authorised: false, Disabled: false, remark: '' },
          { direction: 'in', source: '0.0.0.0/0', port: '7001:7001', authorised: false, Disabled: true, remark: '' },
        ],
        confirm: false,
        confirm_lockout: false,
      },
      author,
    );
    await service.setEnabled(true, false, false, author);
    expect(await Promise.all([reach(7001), reach(7002), reach(7003)])).toEqual(['connected', 'refused', 'connected']);
    expect(await host.state()).toEqual({ ok: true, data: { table: true, rules: 5 } });
    expect(inNs('nft', 'list', 'tables').toString()).toContain('table inet sitewatch');
  });

  it('a change that cuts off the author rolls back by itself after 60 s and access returns', async () => {
    const before = await service.state(hostAddress);
    await expect(
      service.save(
        {
          rules: [
            {
              direction: 'in',
              source: `${hostAddress}/32`,
              port: '7001:7001',
              authorised: false,
              Disabled: false,
              remark: '',
            },
          ],
          confirm: false,
          confirm_lockout: false,
        },
        author,
      ),
    ).rejects.toMatchObject({ key: 'firewall.confirmLockout' });
    await service.save(
      {
        rules: [
          {
            direction: 'in',
            source: `${hostAddress}/32`,
            port: '7001:7001',
            authorised: false,
            Disabled: false,
            remark: '',
          },
        ],
        confirm: false,
        confirm_lockout: true,
      },
      author,
    );
    expect(await reach(7001)).toBe('refused');
    await clock.advance(60_000);
    await service.settled();
    expect(await reach(7001)).toBe('connected');
    const after = await service.state(hostAddress);
    expect(after.pending).toBeNull();
    expect(after.rules).toEqual(before.rules);
    expect(await Promise.all([reach(7002), reach(7003)])).toEqual(['refused', 'connected']);
  });

  it('IPv6 sources: an address and a block refuse over IPv6 only, IPv4 callers pass', async () => {
    const rule = (source: string, port: string) =>
      ({ direction: 'in', source, port, authorised: false, Disabled: false, remark: '' }) as const;
    await service.save(
      { rules: [rule(host6, '7002:7002'), rule(`${host6}/64`, '7003:7003')], confirm: false, confirm_lockout: false },
      author,
    );
    expect(inNs('nft', 'list', 'table', 'inet', 'sitewatch').toString()).toContain(`ip6 saddr ${host6}`);
    expect(await Promise.all([reach(7001, ns6), reach(7002, ns6), reach(7003, ns6)])).toEqual([
      'connected',
      'refused',
      'refused',
    ]);
    expect(await Promise.all([reach(7002), reach(7003)])).toEqual(['connected', 'connected']);
  });

  it('turned off, the table is gone and every port connects', async () => {
    await service.setEnabled(false, false, false, author);
    expect(await host.state()).toEqual({ ok: true, data: { table: false, rules: 0 } });
    expect(await Promise.all([reach(7001), reach(7002), reach(7003)])).toEqual(['connected', 'connected', 'connected']);
  });
});
