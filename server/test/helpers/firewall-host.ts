import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CommandResult, type CommandRunner, startHelper } from '../../src/modules/firewall/helper.ts';

/**
 * The firewall helper, real (its socket, protocol and renderer), over a stand-in for `nft` and `ss`
 * that keeps the last applied script: for suites that run without root or nftables. The namespace
 * test (firewall-netns.int.test.ts) runs the helper on the real `nft`.
 */
export interface FakeFirewallHost {
  socketPath: string;
  /** Every script given to `nft -f`, oldest first. */
  scripts: string[];
  /** Set to make the next commands fail as a host without the privilege would. */
  refuse: 'noPrivilege' | 'noNft' | null;
  stop(): Promise<void>;
}

/** `unref`: the helper does not keep the test process alive (a catalogue's host, never stopped). */
export const startFakeFirewallHost = async (options: { unref?: boolean } = {}): Promise<FakeFirewallHost> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-fw-'));
  const host: FakeFirewallHost = {
    socketPath: path.join(dir, 'helper.sock'),
    scripts: [],
    refuse: null,
    stop: async () => {},
  };
  const ok = (stdout = ''): CommandResult => ({ code: 0, stdout, stderr: '' });
  const run: CommandRunner = async (command, args, input) => {
    if (host.refuse === 'noNft') throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' });
    if (host.refuse === 'noPrivilege') return { code: 1, stdout: '', stderr: 'Error: Operation not permitted' };
    const line = [command, ...args].join(' ');
    if (line === 'nft --version') return ok('nftables v1.0.6 (Lester Gooch #5)\n');
    if (line === 'nft list tables') return ok('');
    if (line === 'nft -f -') {
      host.scripts.push(input ?? '');
      return ok();
    }
    if (line === 'nft -j list table inet sitewatch') {
      const last = host.scripts.at(-1) ?? '';
      if (!last.includes('table inet sitewatch {'))
        return { code: 1, stdout: '', stderr: 'Error: No such file or directory' };
      const rules = last.split('\n').filter((l) => l.includes('\t\t') && !l.includes('type filter'));
      return ok(JSON.stringify({ nftables: [{ table: {} }, ...rules.map(() => ({ rule: {} }))] }));
    }
    if (line === 'ss -Hltnp')
      return ok('LISTEN 0 511 0.0.0.0:80 0.0.0.0:* users:(("node",pid=9,fd=20))\nLISTEN 0 128 [::]:22 [::]:*\n');
    if (line === 'ss -Hlunp') return ok('UNCONN 0 0 0.0.0.0:161 0.0.0.0:* users:(("snmpd",pid=11,fd=6))\n');
    return { code: 1, stdout: '', stderr: `unexpected ${line}` };
  };
  const server: Server = await startHelper({ socketPath: host.socketPath, run });
  if (options.unref) server.unref();
  host.stop = () =>
    new Promise((resolve) =>
      server.close(() => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      }),
    );
  return host;
};
