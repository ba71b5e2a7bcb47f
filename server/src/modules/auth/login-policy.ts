import { browserOf, inPeriods, nowSeconds } from '@sitewatch/contract';
import type { LoginSafeConfig } from '@sitewatch/contract/auth';
import ipaddr from 'ipaddr.js';
import type { Db } from '../../db/kysely.ts';
import { AppError } from '../../http/errors.ts';
import type { GlobalConfig } from '../global-config/index.ts';

/** Whether `ip` (as Node reports it, maybe IPv4-mapped IPv6) is in any entry (IP or CIDR). */
export const ipAllowed = (ip: string, entries: string[]): boolean => {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip);
  } catch {
    return false;
  }
  return entries.some((entry) => {
    try {
      const [range, bits] = entry.includes('/')
        ? ipaddr.parseCIDR(entry)
        : [ipaddr.process(entry), address.kind() === 'ipv4' ? 32 : 128];
      return range.kind() === address.kind() && address.match(range, bits);
    } catch {
      return false;
    }
  });
};

export type TerminalRefusal = 'lockoutIp' | 'lockoutBrowser' | 'lockoutTime';

/** Why a terminal (address, browser, time) may not log in under `config`, or null. */
export const terminalRefusal = (
  config: Pick<LoginSafeConfig, 'allowed_ips' | 'allowed_browsers' | 'allowed_periods'>,
  terminal: { ip: string; userAgent: string },
  now: Date,
): TerminalRefusal | null => {
  if (!ipAllowed(terminal.ip, config.allowed_ips)) return 'lockoutIp';
  const browser = browserOf(terminal.userAgent);
  // Scripts and tools without a browser User-Agent pass only when every browser is allowed.
  if (browser ? !config.allowed_browsers.includes(browser) : config.allowed_browsers.length < 6)
    return 'lockoutBrowser';
  if (!inPeriods(config.allowed_periods, now)) return 'lockoutTime';
  return null;
};

const refusalKeys: Record<TerminalRefusal, string> = {
  lockoutIp: 'login.ipNotAllowed',
  lockoutBrowser: 'login.browserNotAllowed',
  lockoutTime: 'login.timeNotAllowed',
};

/**
 * Login restrictions of the security settings: allowed terminal IPs, browsers and time periods,
 * the account block list and the allow list. Checked by every kind of login.
 */
export const createLoginPolicy = (db: Db, config: GlobalConfig, clock: () => number = Date.now) => ({
  /** Before credentials are checked: says nothing about any account. */
  async checkTerminal(terminal: { ip: string; userAgent: string }) {
    const refusal = terminalRefusal(await config.get('LOGIN_SAFE'), terminal, new Date(clock()));
    if (refusal) throw new AppError('loginRestricted', refusalKeys[refusal]);
  },
  /** After credentials are checked: the block list and the allow list. */
  async checkAccount(userId: number) {
    const now = nowSeconds(clock());
    const block = await db.kysely
      .selectFrom('account_blocks')
      .select('reason')
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    if (block) throw new AppError('loginRestricted', 'login.accountBlocked', { reason: block.reason });
    const { allow_list } = await config.get('LOGIN_SAFE');
    if (allow_list.enabled && !allow_list.user_ids.includes(userId))
      throw new AppError('loginRestricted', 'login.notInAllowList');
  },
});

export type LoginPolicy = ReturnType<typeof createLoginPolicy>;
