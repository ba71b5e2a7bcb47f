import type { Server } from 'node:net';
import { argValue, listenForRequests, runCommand, runHelperWhenMain } from '../../host-helper/kit.ts';
import { type HostDeps, handleHostRequest, realFiles } from './host.ts';
import { hostRequest, maxHostLineBytes } from './protocol.ts';

/**
 * The privileged host helper for time, network and the NTP service (docs/time-network.md, "The
 * helper"): a small process run as root that the server talks to over a unix socket, like the
 * firewall's. It is the only part that runs timedatectl, ip and systemctl or writes resolv.conf.
 *
 *   node server/dist/host-helper.js --socket /run/sitewatch/host.sock [--gid 998] [--resolv-conf /etc/resolv.conf]
 */

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
  return listenForRequests({ ...options, maxLineBytes: maxHostLineBytes }, hostRequest, (request) =>
    handleHostRequest(request, deps),
  );
};

runHelperWhenMain(
  import.meta.url,
  { label: 'host helper', socketEnv: 'SITEWATCH_HOST_SOCKET', defaultSocket: '/run/sitewatch/host.sock' },
  (socketPath, gid) => {
    const resolvConf = argValue('--resolv-conf');
    return startHostHelper({ socketPath, gid, deps: resolvConf ? { resolvConf } : {} });
  },
);
