import { AsyncLocalStorage } from 'node:async_hooks';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { OutboundConfig } from '@sitewatch/contract/auth';

/**
 * Guard of every outbound connection to a destination an administrator typed: the notification
 * channels (issue 11, finding 8: the channel test was a server-side request forgery), the mail
 * server and the LDAP directory (issue 27: their tests told open from closed ports on internal
 * hosts). The host is resolved once, every address is checked, and the connection goes to the
 * checked address (the socket's lookup is pinned, so a DNS answer that changes between check and
 * connect cannot reach an internal service). Redirects are not followed.
 */

/** Ranges refused unless an administrator allows them: loopback, link-local, private, CGNAT, unspecified. */
const refusedByDefault: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
];

const defaultRefused = new BlockList();
for (const [net, prefix, family] of refusedByDefault) defaultRefused.addSubnet(net, prefix, family);

const toBlockList = (cidrs: string[]): BlockList => {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net = '', bits] = cidr.split('/');
    const family = isIP(net) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(net, bits === undefined ? (family === 'ipv6' ? 128 : 32) : Number(bits), family);
  }
  return list;
};

/** Whether an address may be reached under the policy: deny first, then allow, then the default ranges. */
export const addressAllowed = (address: string, policy: OutboundConfig): boolean => {
  // An IPv4-mapped IPv6 address is checked as the IPv4 address it reaches.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (toBlockList(policy.deny).check(ip, family)) return false;
  if (toBlockList(policy.allow).check(ip, family)) return true;
  return !defaultRefused.check(ip, family);
};

/** Raised when the policy refuses a destination; the answer says only that, never what is there. */
export class OutboundRefused extends Error {}

const policyContext = new AsyncLocalStorage<() => Promise<OutboundConfig>>();
const defaultPolicy: OutboundConfig = { allow: [], deny: [] };

/** Runs `fn` with the outbound policy its requests are checked against (see createChannels). */
export const withOutboundPolicy = <T>(policy: () => Promise<OutboundConfig>, fn: () => Promise<T>): Promise<T> =>
  policyContext.run(policy, fn);

/**
 * The address a connection to `host` may go to: resolved once, every address checked against the
 * policy (the one given, else the one `withOutboundPolicy` set), the first answered. Refuses with
 * OutboundRefused before any connection is attempted.
 */
export const checkedAddress = async (
  host: string,
  given?: OutboundConfig,
): Promise<{ address: string; family: number }> => {
  const policy = given ?? (await policyContext.getStore()?.()) ?? defaultPolicy;
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await dnsLookup(bare, { all: true });
  const [first] = addresses;
  if (!first || addresses.some((a) => !addressAllowed(a.address, policy)))
    throw new OutboundRefused('destination address not allowed');
  return first;
};

/** A socket `lookup` that answers only the checked address, whatever DNS would answer now (rebinding). */
export const pinnedLookup =
  (target: { address: string; family: number }): LookupFunction =>
  (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: unknown[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };

/** An HTTP(S) request to a checked address; answers status and body, never follows a redirect. */
export const guardedRequest = async (
  url: string,
  init: { method: string; body?: string; headers: Record<string, string>; timeoutMs: number },
): Promise<{ status: number; text: string }> => {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new OutboundRefused('scheme not allowed');
  const lookup = pinnedLookup(await checkedAddress(target.hostname));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: init.method, headers: init.headers, lookup, timeout: init.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          // A robot's answer is a few hundred bytes; a large one is not read into memory.
          if (size > 1_000_000) req.destroy(new Error('answer too large'));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    const timer = setTimeout(() => req.destroy(new Error('timeout')), init.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.end(init.body);
  });
};
