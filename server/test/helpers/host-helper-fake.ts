import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHostHelper } from '../../src/modules/time-network/helper.ts';
import type { CommandResult, CommandRunner, HostFiles } from '../../src/modules/time-network/host.ts';

/**
 * The host helper, real (its socket, protocol, validation and command construction), over a
 * stand-in box: `timedatectl`, `ip` and `systemctl` answered from memory, files kept in memory. For
 * suites that cannot change this machine's clock or addresses; the namespace test
 * (time-network-netns.int.test.ts) runs the helper on the real `ip`.
 */
export interface FakeBox {
  socketPath: string;
  /** Every command line run, oldest first. */
  commands: string[];
  files: Map<string, string>;
  clock: { timezone: string; ntp: boolean; synced: boolean };
  interfaces: { name: string; mac: string; addresses: { ip: string; prefix: number }[]; gateway: string }[];
  ntpActive: boolean;
  /** Set to make every command fail as a host without the privilege or without systemd would. */
  refuse: 'noPrivilege' | 'noSystemd' | null;
  stop(): Promise<void>;
}

export const startFakeBox = async (options: { unref?: boolean } = {}): Promise<FakeBox> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-host-'));
  const box: FakeBox = {
    socketPath: path.join(dir, 'host.sock'),
    commands: [],
    files: new Map([
      ['/etc/resolv.conf', '# test box\nsearch lan\nnameserver 192.0.2.53\n'],
      ['/lib/systemd/systemd-timesyncd', ''],
    ]),
    clock: { timezone: 'Etc/UTC', ntp: false, synced: false },
    interfaces: [
      { name: 'eth0', mac: '52:54:00:12:34:56', addresses: [{ ip: '192.0.2.10', prefix: 24 }], gateway: '192.0.2.1' },
      { name: 'lan1', mac: '52:54:00:12:34:57', addresses: [{ ip: '127.0.0.1', prefix: 8 }], gateway: '' },
    ],
    ntpActive: false,
    refuse: null,
    stop: async () => {},
  };
  const ok = (stdout = ''): CommandResult => ({ code: 0, stdout, stderr: '' });
  const fail = (stderr: string): CommandResult => ({ code: 1, stdout: '', stderr });
  const iface = (name: string | undefined) => box.interfaces.find((i) => i.name === name);
  const ip = (args: readonly string[]): CommandResult => {
    const line = args.join(' ');
    if (line === '-j addr show')
      return ok(
        JSON.stringify([
          {
            ifname: 'lo',
            link_type: 'loopback',
            flags: ['UP'],
            addr_info: [{ family: 'inet', local: '127.0.0.1', prefixlen: 8, scope: 'host' }],
          },
          ...box.interfaces.map((i) => ({
            ifname: i.name,
            link_type: 'ether',
            address: i.mac,
            flags: ['BROADCAST', 'UP'],
            addr_info: i.addresses.map((a) => ({ family: 'inet', local: a.ip, prefixlen: a.prefix, scope: 'global' })),
          })),
        ]),
      );
    if (line === '-4 -j route show default')
      return ok(
        JSON.stringify(
          box.interfaces.filter((i) => i.gateway).map((i) => ({ dst: 'default', gateway: i.gateway, dev: i.name })),
        ),
      );
    const [object, verb, target, , dev] = args;
    if (object === 'addr' && (verb === 'replace' || verb === 'del')) {
      const it = iface(dev);
      if (!it) return fail(`Cannot find device "${dev}"`);
      const [a = '', p = '32'] = String(target).split('/');
      it.addresses = it.addresses.filter((x) => !(x.ip === a && x.prefix === Number(p)));
      if (verb === 'replace') it.addresses.unshift({ ip: a, prefix: Number(p) });
      return ok();
    }
    if (object === 'route' && verb === 'replace') {
      const it = iface(args[6]);
      if (!it) return fail('Cannot find device');
      it.gateway = String(args[4]);
      return ok();
    }
    if (object === 'route' && verb === 'del') {
      const it = iface(args[4]);
      if (it) it.gateway = '';
      return ok();
    }
    return fail(`unexpected ip ${line}`);
  };
  const run: CommandRunner = async (command, args) => {
    const line = [command, ...args].join(' ');
    box.commands.push(line);
    if (box.refuse === 'noPrivilege') return fail('Failed to set time: Access denied');
    if (box.refuse === 'noSystemd' && command !== 'ip')
      return fail("System has not been booted with systemd as init system (PID 1). Can't operate.");
    if (command === 'ip') return ip(args);
    if (line === 'timedatectl show')
      return ok(
        `Timezone=${box.clock.timezone}\nLocalRTC=no\nCanNTP=yes\nNTP=${box.clock.ntp ? 'yes' : 'no'}\nNTPSynchronized=${box.clock.synced ? 'yes' : 'no'}\n`,
      );
    if (command === 'timedatectl' && args[0] === 'set-timezone') {
      if (!/^[A-Z]/.test(String(args[1])))
        return fail(`Failed to set time zone: Invalid or not installed time zone '${args[1]}'`);
      box.clock.timezone = String(args[1]);
      return ok();
    }
    if (command === 'timedatectl' && args[0] === 'set-time') {
      if (box.clock.ntp) return fail('Failed to set time: Automatic time synchronization is enabled');
      return ok();
    }
    if (command === 'timedatectl' && args[0] === 'set-ntp') {
      box.clock.ntp = args[1] === 'true';
      box.ntpActive = box.clock.ntp;
      box.clock.synced = box.clock.ntp;
      return ok();
    }
    if (command === 'systemctl' && args[1] === 'systemd-timesyncd.service') {
      if (args[0] === 'is-active')
        return { code: box.ntpActive ? 0 : 3, stdout: box.ntpActive ? 'active\n' : 'inactive\n', stderr: '' };
      if (args[0] === 'start' || args[0] === 'restart') box.ntpActive = true;
      if (args[0] === 'stop') box.ntpActive = false;
      return ok();
    }
    if (line === 'systemctl try-restart systemd-timesyncd.service') return ok();
    return fail(`unexpected ${line}`);
  };
  const files: HostFiles = {
    exists: (file) => box.files.has(file),
    read: (file) => box.files.get(file) ?? null,
    link: () => null,
    write: (file, text) => {
      box.files.set(file, text);
    },
    remove: (file) => {
      box.files.delete(file);
    },
  };
  const server: Server = await startHostHelper({
    socketPath: box.socketPath,
    deps: { run, files, privileged: true, resolvConf: '/etc/resolv.conf' },
  });
  if (options.unref) server.unref();
  box.stop = () =>
    new Promise((resolve) =>
      server.close(() => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      }),
    );
  return box;
};
