import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prefixMask } from '@sitewatch/contract/time-network';
import type { HostNetwork, HostRequest, HostTime } from './protocol.ts';

/**
 * What the host helper does for each request (docs/time-network.md, "The helper"): `timedatectl`
 * for zone, clock and NTP on/off; the NTP service's own configuration file for its servers (a
 * drop-in of systemd-timesyncd or a sources file of chrony); `ip` for addresses and the default
 * route; resolv.conf for the name servers; `systemctl` for the NTP service. Commands, files and the
 * privilege are injected so the command lines can be tested without a host.
 */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}
/** Runs a program (argument list, no shell); rejects with ENOENT when it is absent. */
export type CommandRunner = (command: string, args: readonly string[]) => Promise<CommandResult>;

export const runCommand: CommandRunner = (command, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });

/** The files the helper reads and writes (a test points them at a folder of its own). */
export interface HostFiles {
  exists(file: string): boolean;
  read(file: string): string | null;
  /** The target when `file` is a symbolic link, else null. */
  link(file: string): string | null;
  write(file: string, text: string): void;
  remove(file: string): void;
}

export const realFiles: HostFiles = {
  exists: (file) => existsSync(file),
  read: (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  },
  link: (file) => {
    try {
      return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : null;
    } catch {
      return null;
    }
  },
  // In place: a container's resolv.conf is a bind mount that a rename cannot replace.
  write: (file, text) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  },
  remove: (file) => rmSync(file, { force: true }),
};

export interface HostDeps {
  run: CommandRunner;
  files: HostFiles;
  /** Whether the helper runs with the privilege to change the host (root). */
  privileged: boolean;
  resolvConf: string;
}

type Fail = {
  ok: false;
  reason: 'noHelper' | 'noSystemd' | 'noTool' | 'noPrivilege' | 'managedDns' | 'failed';
  detail: string;
};
export type HostAnswer = { ok: true; data: unknown } | Fail;

const timesyncdDropIn = '/etc/systemd/timesyncd.conf.d/sitewatch.conf';
const chronySources = '/etc/chrony/sources.d/sitewatch.sources';

/** Why a command failed, in the helper's reasons. */
const failureOf = (result: CommandResult): Fail => {
  const text = result.stderr.trim() || result.stdout.trim();
  if (/not been booted with systemd|Failed to connect to bus|System has not been booted/i.test(text))
    return { ok: false, reason: 'noSystemd', detail: text.slice(0, 500) };
  if (/not permitted|permission denied|access denied|interactive authentication required/i.test(text))
    return { ok: false, reason: 'noPrivilege', detail: text.slice(0, 500) };
  return { ok: false, reason: 'failed', detail: text.slice(0, 500) };
};

class HostFailure extends Error {
  constructor(readonly failure: Fail) {
    super(failure.detail);
  }
}

/** Runs a command and throws its failure when it exits non-zero. */
const must = async (deps: HostDeps, command: string, args: readonly string[]) => {
  const result = await deps.run(command, args);
  if (result.code !== 0) throw new HostFailure(failureOf(result));
  return result.stdout;
};

/** `Key=value` lines of `timedatectl show`. */
export const parseShow = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.split('='))
      .filter((kv) => kv.length >= 2)
      .map(([k, ...v]) => [k!.trim(), v.join('=').trim()]),
  );

/** The NTP service present on the box: chrony wins over systemd-timesyncd; '' when neither is installed. */
export const ntpServiceOf = (files: HostFiles): '' | 'chrony' | 'systemd-timesyncd' => {
  if (files.exists('/usr/sbin/chronyd')) return 'chrony';
  if (files.exists('/lib/systemd/systemd-timesyncd') || files.exists('/usr/lib/systemd/systemd-timesyncd'))
    return 'systemd-timesyncd';
  return '';
};

/** The servers Sitewatch wrote for the NTP service (its own file only). */
export const readNtpServers = (files: HostFiles, service: string): string[] => {
  if (service === 'chrony') {
    const text = files.read(chronySources) ?? '';
    return [...text.matchAll(/^\s*server\s+(\S+)/gm)].map((m) => m[1]!);
  }
  const text = files.read(timesyncdDropIn) ?? '';
  const line = /^\s*NTP=(.*)$/m.exec(text)?.[1] ?? '';
  return line.split(/\s+/).filter(Boolean);
};

/** The file and its text that give the NTP service these servers (null: remove it, the defaults apply). */
export const ntpServerFile = (service: string, servers: readonly string[]): { file: string; text: string | null } =>
  service === 'chrony'
    ? {
        file: chronySources,
        text: servers.length
          ? `# Written by Sitewatch\n${servers.map((s) => `server ${s} iburst`).join('\n')}\n`
          : null,
      }
    : {
        file: timesyncdDropIn,
        text: servers.length ? `# Written by Sitewatch\n[Time]\nNTP=${servers.join(' ')}\n` : null,
      };

/** The box's zone without timedatectl: /etc/localtime's link, else /etc/timezone, else UTC. */
const fallbackZone = (files: HostFiles): string => {
  const target = files.link('/etc/localtime');
  const m = target ? /zoneinfo\/(.+)$/.exec(target) : null;
  if (m) return m[1]!;
  return files.read('/etc/timezone')?.trim() || 'Etc/UTC';
};

const timeState = async (deps: HostDeps): Promise<HostTime> => {
  const service = ntpServiceOf(deps.files);
  const servers = readNtpServers(deps.files, service);
  const now = Math.floor(Date.now() / 1000);
  let show: CommandResult;
  try {
    show = await deps.run('timedatectl', ['show']);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const detail = 'timedatectl is not installed';
    return {
      timezone: fallbackZone(deps.files),
      time: now,
      ntp_enabled: false,
      synchronized: false,
      servers,
      service,
      time_host: { available: false, reason: 'noTool', detail },
    };
  }
  if (show.code !== 0) {
    const failure = failureOf(show);
    return {
      timezone: fallbackZone(deps.files),
      time: now,
      ntp_enabled: false,
      synchronized: false,
      servers,
      service,
      time_host: { available: false, reason: failure.reason, detail: failure.detail },
    };
  }
  const values = parseShow(show.stdout);
  return {
    timezone: values.Timezone || fallbackZone(deps.files),
    time: now,
    ntp_enabled: values.NTP === 'yes',
    synchronized: values.NTPSynchronized === 'yes',
    servers,
    service,
    time_host: deps.privileged
      ? { available: true, reason: null, detail: '' }
      : { available: false, reason: 'noPrivilege', detail: 'the helper does not run as root' },
  };
};

interface IpAddrInfo {
  family?: string;
  local?: string;
  prefixlen?: number;
  scope?: string;
}
interface IpLink {
  ifname?: string;
  link_type?: string;
  address?: string;
  flags?: string[];
  operstate?: string;
  addr_info?: IpAddrInfo[];
}

/** Interfaces of `ip -j addr show` (loopback left out) with the gateways of `ip -4 -j route show default`. */
export const parseInterfaces = (addrJson: string, routeJson: string) => {
  const links = JSON.parse(addrJson || '[]') as IpLink[];
  const routes = JSON.parse(routeJson || '[]') as { dev?: string; gateway?: string }[];
  return links
    .filter((l) => l.ifname && l.link_type !== 'loopback')
    .map((l) => ({
      name: l.ifname!,
      mac: l.address ?? '',
      up: (l.flags ?? []).includes('UP'),
      addresses: (l.addr_info ?? [])
        .filter((a) => a.family === 'inet' && a.local)
        .map((a) => ({ ip: a.local!, prefix: a.prefixlen ?? 32, mask: prefixMask(a.prefixlen ?? 32) })),
      gateway: routes.find((r) => r.dev === l.ifname && r.gateway)?.gateway ?? '',
    }));
};

/** The `nameserver` lines of resolv.conf. */
export const parseResolv = (text: string): string[] => [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!);

/** resolv.conf with its name servers replaced, the other lines (search, options, comments) kept. */
export const withNameservers = (text: string, dns: readonly string[]): string => {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => /^\s*nameserver\s/.test(l));
  const kept = lines.filter((l) => !/^\s*nameserver\s/.test(l));
  const at = first >= 0 ? first : kept.length && kept.at(-1) === '' ? kept.length - 1 : kept.length;
  kept.splice(at, 0, ...dns.map((d) => `nameserver ${d}`));
  const out = kept.join('\n');
  return out.endsWith('\n') ? out : `${out}\n`;
};

const netState = async (deps: HostDeps): Promise<HostNetwork> => {
  const addr = await must(deps, 'ip', ['-j', 'addr', 'show']);
  const route = await must(deps, 'ip', ['-4', '-j', 'route', 'show', 'default']);
  const link = deps.files.link(deps.resolvConf);
  const noRoot = { available: false, reason: 'noPrivilege' as const, detail: 'the helper does not run as root' };
  return {
    interfaces: parseInterfaces(addr, route),
    dns: parseResolv(deps.files.read(deps.resolvConf) ?? ''),
    host: deps.privileged ? { available: true, reason: null, detail: '' } : noRoot,
    dns_host: link
      ? { available: false, reason: 'managedDns', detail: `${deps.resolvConf} -> ${link}` }
      : deps.privileged
        ? { available: true, reason: null, detail: '' }
        : noRoot,
  };
};

/**
 * The `ip` commands that give `iface` exactly one IPv4 address (`ip/prefix`) and its default route:
 * the old addresses removed first (deleting a subnet's primary address takes its secondaries with
 * it, so the new one is added after), then the new address, then the gateway (a removed address
 * takes its routes along, so the gateway is always set again).
 */
export const ipCommands = (
  current: { addresses: { ip: string; prefix: number }[]; gateway: string } | undefined,
  request: { interface: string; ip: string; prefix: number; gateway: string },
): string[][] => {
  const dev = request.interface;
  const commands: string[][] = [];
  for (const a of current?.addresses ?? []) {
    if (a.ip !== request.ip || a.prefix !== request.prefix)
      commands.push(['addr', 'del', `${a.ip}/${a.prefix}`, 'dev', dev]);
  }
  commands.push(['addr', 'replace', `${request.ip}/${request.prefix}`, 'dev', dev]);
  if (request.gateway) commands.push(['route', 'replace', 'default', 'via', request.gateway, 'dev', dev]);
  else if (current?.gateway) commands.push(['route', 'del', 'default', 'dev', dev]);
  return commands;
};

const requirePrivilege = (deps: HostDeps) => {
  if (!deps.privileged)
    throw new HostFailure({ ok: false, reason: 'noPrivilege', detail: 'the helper does not run as root' });
};

/** Answers one validated request. */
export const handleHostRequest = async (request: HostRequest, deps: HostDeps): Promise<HostAnswer> => {
  try {
    switch (request.op) {
      case 'timeState':
        return { ok: true, data: await timeState(deps) };
      case 'setTimezone':
        requirePrivilege(deps);
        await must(deps, 'timedatectl', ['set-timezone', request.timezone]);
        return { ok: true, data: await timeState(deps) };
      case 'setTime':
        requirePrivilege(deps);
        await must(deps, 'timedatectl', ['set-time', request.time]);
        return { ok: true, data: await timeState(deps) };
      case 'setNtp': {
        requirePrivilege(deps);
        const service = ntpServiceOf(deps.files);
        const { file, text } = ntpServerFile(service, request.servers);
        if (text === null) deps.files.remove(file);
        else deps.files.write(file, text);
        await must(deps, 'timedatectl', ['set-ntp', request.enabled ? 'true' : 'false']);
        if (request.enabled && service === 'systemd-timesyncd')
          await must(deps, 'systemctl', ['try-restart', 'systemd-timesyncd.service']);
        if (request.enabled && service === 'chrony') await must(deps, 'chronyc', ['reload', 'sources']);
        return { ok: true, data: await timeState(deps) };
      }
      case 'netState':
        return { ok: true, data: await netState(deps) };
      case 'setIp': {
        requirePrivilege(deps);
        const before = await netState(deps);
        const current = before.interfaces.find((i) => i.name === request.interface);
        if (!current) return { ok: false, reason: 'failed', detail: `no interface ${request.interface}` };
        for (const args of ipCommands(current, request)) {
          // The default route may have gone with a removed address: nothing left to delete is fine.
          if (args[0] === 'route' && args[1] === 'del') await deps.run('ip', args);
          else await must(deps, 'ip', args);
        }
        return { ok: true, data: await netState(deps) };
      }
      case 'setDns': {
        requirePrivilege(deps);
        const link = deps.files.link(deps.resolvConf);
        if (link) return { ok: false, reason: 'managedDns', detail: `${deps.resolvConf} -> ${link}` };
        deps.files.write(deps.resolvConf, withNameservers(deps.files.read(deps.resolvConf) ?? '', request.dns));
        return { ok: true, data: await netState(deps) };
      }
      case 'ntpService': {
        const unit = ntpServiceOf(deps.files);
        if (!unit) return { ok: true, data: { state: 'absent' } };
        const name = unit === 'chrony' ? 'chrony.service' : 'systemd-timesyncd.service';
        if (request.action !== 'state') {
          requirePrivilege(deps);
          await must(deps, 'systemctl', [request.action, name]);
        }
        const active = await deps.run('systemctl', ['is-active', name]);
        const word = active.stdout.trim();
        if (word === 'active') return { ok: true, data: { state: 'running' } };
        if (['inactive', 'failed'].includes(word)) return { ok: true, data: { state: 'stopped' } };
        return failureOf(active);
      }
    }
  } catch (err) {
    if (err instanceof HostFailure) return err.failure;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { ok: false, reason: 'noTool', detail: String((err as Error).message).slice(0, 500) };
    return { ok: false, reason: 'failed', detail: String((err as Error).message).slice(0, 500) };
  }
};
