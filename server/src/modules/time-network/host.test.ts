import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostClient } from './client.ts';
import { startHostHelper } from './helper.ts';
import { ipCommands, ntpServerFile, parseInterfaces, parseShow, realFiles, withNameservers } from './host.ts';
import { hostRequest } from './protocol.ts';

describe('host helper commands (docs/time-network.md)', () => {
  it('parses timedatectl show', () => {
    expect(
      parseShow('Timezone=Asia/Shanghai\nNTP=yes\nNTPSynchronized=no\nTimeUSec=Sat 2026-11-28 08:00:00 CST\n'),
    ).toEqual({
      Timezone: 'Asia/Shanghai',
      NTP: 'yes',
      NTPSynchronized: 'no',
      TimeUSec: 'Sat 2026-11-28 08:00:00 CST',
    });
  });

  it('builds the ip commands: old addresses out, the new one in, the gateway set', () => {
    const current = {
      addresses: [
        { ip: '192.0.2.10', prefix: 24 },
        { ip: '192.0.2.11', prefix: 24 },
      ],
      gateway: '192.0.2.1',
    };
    expect(ipCommands(current, { interface: 'eth0', ip: '192.0.2.11', prefix: 24, gateway: '192.0.2.254' })).toEqual([
      ['addr', 'del', '192.0.2.10/24', 'dev', 'eth0'],
      ['addr', 'replace', '192.0.2.11/24', 'dev', 'eth0'],
      ['route', 'replace', 'default', 'via', '192.0.2.254', 'dev', 'eth0'],
    ]);
    expect(ipCommands(current, { interface: 'eth0', ip: '10.0.0.2', prefix: 8, gateway: '' }).at(-1)).toEqual([
      'route',
      'del',
      'default',
      'dev',
      'eth0',
    ]);
  });

  it('writes NTP servers in the file of the service present (timesyncd drop-in, chrony sources)', () => {
    expect(ntpServerFile('systemd-timesyncd', ['ntp.aliyun.com', '192.0.2.1'])).toEqual({
      file: '/etc/systemd/timesyncd.conf.d/sitewatch.conf',
      text: '# Written by Sitewatch\n[Time]\nNTP=ntp.aliyun.com 192.0.2.1\n',
    });
    expect(ntpServerFile('chrony', ['ntp.aliyun.com'])).toEqual({
      file: '/etc/chrony/sources.d/sitewatch.sources',
      text: '# Written by Sitewatch\nserver ntp.aliyun.com iburst\n',
    });
    expect(ntpServerFile('chrony', []).text).toBeNull();
  });

  it('replaces the name servers of resolv.conf and keeps the rest', () => {
    expect(
      withNameservers('# x\nnameserver 1.1.1.1\nsearch lan\nnameserver 8.8.8.8\noptions ndots:1\n', ['9.9.9.9']),
    ).toBe('# x\nnameserver 9.9.9.9\nsearch lan\noptions ndots:1\n');
    expect(withNameservers('', ['9.9.9.9', '1.1.1.1'])).toBe('nameserver 9.9.9.9\nnameserver 1.1.1.1\n');
  });

  it('reads interfaces of ip -j, loopback left out', () => {
    const addr = JSON.stringify([
      { ifname: 'lo', link_type: 'loopback', addr_info: [{ family: 'inet', local: '127.0.0.1', prefixlen: 8 }] },
      {
        ifname: 'eth0',
        link_type: 'ether',
        address: 'aa:bb:cc:dd:ee:ff',
        flags: ['UP'],
        addr_info: [
          { family: 'inet', local: '192.0.2.10', prefixlen: 24, scope: 'global' },
          { family: 'inet6', local: 'fe80::1', prefixlen: 64, scope: 'link' },
        ],
      },
    ]);
    expect(parseInterfaces(addr, '[{"dst":"default","gateway":"192.0.2.1","dev":"eth0"}]')).toEqual([
      {
        name: 'eth0',
        mac: 'aa:bb:cc:dd:ee:ff',
        up: true,
        addresses: [{ ip: '192.0.2.10', prefix: 24, mask: '255.255.255.0' }],
        gateway: '192.0.2.1',
      },
    ]);
  });

  it('refuses requests whose values could reach a command as options or paths', () => {
    for (const bad of [
      { op: 'setTimezone', timezone: '../../etc/passwd' },
      { op: 'setTimezone', timezone: '--help' },
      { op: 'setTime', time: 'now; reboot' },
      { op: 'setNtp', enabled: true, servers: ['-x'] },
      { op: 'setIp', interface: '-rf', ip: '10.0.0.1', prefix: 24, gateway: '' },
      { op: 'setIp', interface: 'eth0', ip: '10.0.0.1', prefix: 24, gateway: '', extra: 1 },
      { op: 'setDns', dns: [] },
      { op: 'reboot' },
    ]) {
      expect(hostRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

/**
 * The helper on this very machine, its real tools: where timedatectl runs without systemd (a
 * container), the time is read-only and says so; nothing is changed.
 */
const hasTimedatectl = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v timedatectl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const systemdRuns = realFiles.exists('/run/systemd/system');

describe('the helper on this machine', () => {
  it('reports what this machine can do about time, honestly', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-host-real-'));
    const socketPath = path.join(dir, 'host.sock');
    const server = await startHostHelper({ socketPath });
    try {
      const answer = await createHostClient(() => socketPath).ask({ op: 'timeState' });
      expect(answer.ok).toBe(true);
      if (!answer.ok) return;
      const expected = !hasTimedatectl
        ? 'noTool'
        : !systemdRuns
          ? 'noSystemd'
          : process.getuid?.() === 0
            ? null
            : 'noPrivilege';
      expect(answer.data.time_host.reason).toBe(expected);
      expect(answer.data.time_host.available).toBe(expected === null);
      expect(Math.abs(answer.data.time - Date.now() / 1000)).toBeLessThan(5);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
