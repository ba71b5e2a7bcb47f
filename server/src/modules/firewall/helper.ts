import type { Server } from 'node:net';
import {
  type CommandResult,
  type CommandRunner,
  listenForRequests,
  runCommand,
  runHelperWhenMain,
} from '../../host-helper/kit.ts';
import { type HelperRequest, helperRequest, type ListeningPort, maxLineBytes, type TableState } from './protocol.ts';
import { renderRuleset, tableFamily, tableName } from './render.ts';

/**
 * The privileged firewall helper (docs/firewall.md, "The helper"): a small process run as root that
 * the server talks to over a unix socket. It is the only part that runs `nft` and `ss`; it renders
 * the ruleset itself from validated rule data and touches only the `inet sitewatch` table.
 *
 *   node server/dist/firewall-helper.js --socket /run/sitewatch/firewall.sock [--gid 998]
 */

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

/**
 * Listens on `socketPath` for the server (listenForRequests: mode 0660, owned by `gid`, one request
 * at a time, so two applies never interleave).
 */
export const startHelper = (options: {
  socketPath: string;
  run?: CommandRunner;
  gid?: number | undefined;
}): Promise<Server> => {
  const run = options.run ?? runCommand;
  return listenForRequests({ ...options, maxLineBytes }, helperRequest, (request) => handleRequest(request, run));
};

runHelperWhenMain(
  import.meta.url,
  { label: 'firewall helper', socketEnv: 'SITEWATCH_FIREWALL_SOCKET', defaultSocket: '/run/sitewatch/firewall.sock' },
  (socketPath, gid) => startHelper({ socketPath, gid }),
);
