import net from 'node:net';
import tls from 'node:tls';
import type { OutboundConfig } from '@sitewatch/contract/auth';
import { type LdapConfig, userNamePlaceholder } from '@sitewatch/contract/ldap';
import {
  Client,
  type Entry,
  Filter,
  FilterParser,
  InvalidCredentialsError,
  InvalidDNSyntaxError,
  NoSuchObjectError,
  ResultCodeError,
  SizeLimitExceededError,
} from 'ldapts';
import { checkedAddress, OutboundRefused, pinnedLookup } from '../../notify/outbound.ts';

/**
 * Where talking to the directory went wrong, so the administrator knows what to fix; `notAllowed`:
 * the outbound policy refused its address and no connection was attempted.
 */
export type DirectoryStage = 'notAllowed' | 'connect' | 'tls' | 'bind' | 'base' | 'filter' | 'search';

/** A failure of the directory itself (not of a user's password), with its stage and reason. */
export class DirectoryError extends Error {
  constructor(
    readonly stage: DirectoryStage,
    readonly reason: string,
  ) {
    super(`${stage}: ${reason}`);
  }
}

/** A user entry, read through the configured attributes. */
export interface DirectoryUser {
  dn: string;
  user_name: string;
  alias: string;
  email: string;
  phone: string;
}

/** The settings the directory needs (the stored config, or one being tested). */
export type DirectorySettings = Omit<
  LdapConfig,
  'enabled' | 'auto_create' | 'default_role_ids' | 'default_user_group_id'
>;

const networkCodes = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE)$/;

/** The reason of an error, short enough for a message: the LDAP result or the system error code. */
const reasonOf = (err: unknown): string => {
  if (err instanceof ResultCodeError)
    return `${err.constructor.name} (${err.code})${err.message.trim() ? `: ${err.message.trim()}` : ''}`.slice(0, 300);
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  return (typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 300);
};

/** Whether an error is TLS's (certificate, handshake) rather than the network's. */
const isTlsError = (err: unknown): boolean => {
  const code = String((err as { code?: unknown }).code ?? '');
  const message = err instanceof Error ? err.message : '';
  return (
    /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|ERR_SSL|HOSTNAME|ALTNAME/i.test(code) || /TLS|SSL|certificate/i.test(message)
  );
};

/** Classifies an error of a step: network and TLS failures whatever the step, else the step's own. */
const failure = (step: DirectoryStage, err: unknown): DirectoryError => {
  if (err instanceof DirectoryError) return err;
  if (!(err instanceof ResultCodeError)) {
    if (isTlsError(err)) return new DirectoryError('tls', reasonOf(err));
    const code = String((err as { code?: unknown }).code ?? '');
    if (networkCodes.test(code) || /timeout|timed out|closed|socket/i.test(reasonOf(err))) {
      return new DirectoryError('connect', reasonOf(err));
    }
  }
  if (step === 'search' && err instanceof NoSuchObjectError) return new DirectoryError('base', reasonOf(err));
  if (step === 'search' && err instanceof InvalidDNSyntaxError) return new DirectoryError('base', reasonOf(err));
  return new DirectoryError(step, reasonOf(err));
};

/** Escapes a value for a filter (RFC 4515), so a login name cannot change the filter. */
export const escapeValue = (value: string): string => Filter.escape(value);

/** The configured user filter for one login name. */
export const filterForName = (settings: Pick<DirectorySettings, 'user_filter'>, userName: string): string =>
  settings.user_filter.replaceAll(userNamePlaceholder, escapeValue(userName));

/** The filter of the user list: every user the filter can match, optionally with a name containing `text`. */
export const filterForList = (
  settings: Pick<DirectorySettings, 'user_filter' | 'attr_user_name' | 'attr_alias'>,
  text?: string,
): string => {
  const everyone = settings.user_filter.replaceAll(userNamePlaceholder, '*');
  if (!text) return everyone;
  const v = escapeValue(text);
  return `(&${everyone}(|(${settings.attr_user_name}=*${v}*)(${settings.attr_alias}=*${v}*)))`;
};

/** Whether a filter parses; the reason when it does not. */
export const filterProblem = (filter: string): string | null => {
  // Parentheses inside values are escaped (\28, \29), so every raw one is structure: they must
  // balance (the parser forgives a missing last one).
  let depth = 0;
  for (const c of filter) {
    depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth < 0) return 'unbalanced parentheses';
  }
  if (depth !== 0) return 'unbalanced parentheses';
  try {
    FilterParser.parseString(filter);
    return null;
  } catch (err) {
    return reasonOf(err);
  }
};

const firstValue = (entry: Entry, attribute: string): string => {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return '';
  return (Buffer.isBuffer(first) ? first.toString('utf8') : String(first)).trim();
};

const userOf = (settings: DirectorySettings, entry: Entry): DirectoryUser => ({
  dn: entry.dn,
  user_name: firstValue(entry, settings.attr_user_name).slice(0, 64),
  alias: firstValue(entry, settings.attr_alias).slice(0, 64),
  email: firstValue(entry, settings.attr_email).slice(0, 128),
  phone: firstValue(entry, settings.attr_phone).slice(0, 32),
});

/**
 * Connections to the address the outbound policy allows for the directory's host, refused before
 * any is attempted otherwise (issue 27: a connection test told open from closed ports on internal
 * hosts). The host name stays the connection's, so TLS checks the certificate against it.
 */
const guardedConnections = async (url: string, policy: OutboundConfig) => {
  let lookup: net.LookupFunction;
  try {
    lookup = pinnedLookup(await checkedAddress(new URL(url).hostname, policy));
  } catch (err) {
    if (err instanceof OutboundRefused) throw new DirectoryError('notAllowed', err.message);
    throw new DirectoryError('connect', reasonOf(err));
  }
  return {
    createConnection: ((port: number, host: string) => net.connect({ port, host, lookup })) as typeof net.connect,
    // ldapts calls it as (port, host, options) for ldaps://, and with options alone for StartTLS
    // over the socket already connected.
    createSecureConnection: ((...args: unknown[]) =>
      typeof args[0] === 'object'
        ? tls.connect(args[0] as tls.ConnectionOptions)
        : tls.connect({
            ...(args[2] as tls.ConnectionOptions),
            port: args[0] as number,
            host: args[1] as string,
            lookup,
          })) as typeof tls.connect,
  };
};

/**
 * One conversation with the directory: connects (StartTLS when asked) to an address the outbound
 * policy allows, binds with the service account (anonymous when no bind DN), runs `work`, and
 * always unbinds. Every failure becomes a DirectoryError that says which stage failed.
 */
export const withDirectory = async <T>(
  settings: DirectorySettings,
  policy: OutboundConfig,
  work: (session: DirectorySession) => Promise<T>,
): Promise<T> => {
  const timeout = settings.timeout_seconds * 1000;
  const tlsOptions = { rejectUnauthorized: settings.tls_reject_unauthorized };
  const connections = await guardedConnections(settings.url, policy);
  const newClient = () => {
    try {
      // ldapts speaks TLS from the first byte whenever it is given TLS options: only for ldaps://.
      const secure = /^ldaps:/i.test(settings.url);
      return new Client({
        url: settings.url,
        timeout,
        connectTimeout: timeout,
        strictDN: false,
        ...connections,
        ...(secure ? { tlsOptions } : {}),
      });
    } catch (err) {
      throw new DirectoryError('connect', reasonOf(err));
    }
  };
  const step = async <R>(stage: DirectoryStage, run: () => Promise<R>): Promise<R> => {
    try {
      return await run();
    } catch (err) {
      throw failure(stage, err);
    }
  };
  const client = newClient();
  try {
    if (settings.start_tls) await step('tls', () => client.startTLS(tlsOptions));
    if (settings.bind_dn) await step('bind', () => client.bind(settings.bind_dn, settings.bind_password));
    const search = async (filter: string, limit: number) => {
      const problem = filterProblem(filter);
      if (problem) throw new DirectoryError('filter', problem);
      const found: DirectoryUser[] = [];
      await step('search', async () => {
        try {
          const pages = client.searchPaginated(settings.base_dn, {
            scope: 'sub',
            filter,
            attributes: [settings.attr_user_name, settings.attr_alias, settings.attr_email, settings.attr_phone],
            sizeLimit: limit,
            paged: { pageSize: Math.min(limit, 500) },
          });
          for await (const page of pages) {
            for (const entry of page.searchEntries) if (found.length < limit) found.push(userOf(settings, entry));
            if (found.length >= limit) break;
          }
        } catch (err) {
          // Reaching the limit is what was asked for: keep what came.
          if (!(err instanceof SizeLimitExceededError)) throw err;
        }
      });
      return found.filter((u) => u.user_name.length > 0);
    };
    return await work({
      search,
      async findUser(userName) {
        const matches = await search(filterForName(settings, userName), 2);
        // Two entries for one name is ambiguous: nobody is logged in or imported by it.
        return matches.length === 1 ? (matches[0] ?? null) : null;
      },
      async checkPassword(dn, password) {
        // An empty password would be an unauthenticated bind, which succeeds on some servers.
        if (password.length === 0) return false;
        const userClient = newClient();
        try {
          if (settings.start_tls) await step('tls', () => userClient.startTLS(tlsOptions));
          await userClient.bind(dn, password);
          return true;
        } catch (err) {
          if (err instanceof InvalidCredentialsError) return false;
          throw failure('bind', err);
        } finally {
          await userClient.unbind().catch(() => undefined);
        }
      },
    });
  } finally {
    await client.unbind().catch(() => undefined);
  }
};

export interface DirectorySession {
  /** Users matching `filter` under the base DN, at most `limit`. */
  search(filter: string, limit: number): Promise<DirectoryUser[]>;
  /** The one user the configured filter finds for a login name, or null (none, or ambiguous). */
  findUser(userName: string): Promise<DirectoryUser | null>;
  /** Whether `password` binds as `dn` (a user's own bind, on a connection of its own). */
  checkPassword(dn: string, password: string): Promise<boolean>;
}
