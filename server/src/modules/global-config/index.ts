import { defaultPwdComplexity, nowSeconds, type PwdComplexityConfig, pwdComplexityConfig } from '@sitewatch/contract';
import {
  type AccountSafeConfig,
  accountSafeConfig,
  authRoutes,
  defaultAccountSafe,
  defaultLoginSafe,
  defaultOutbound,
  type GlobalConfigKey,
  type LoginSafeConfig,
  loginSafeConfig,
  type OutboundConfig,
  outboundConfig,
} from '@sitewatch/contract/auth';
import { defaultLdapConfig, type LdapConfig, ldapConfig } from '@sitewatch/contract/ldap';
import { defaultRetention, type RetentionSettings, retentionSettings } from '@sitewatch/contract/series';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/kysely.ts';
import { createSettingsStore, type SettingsStore } from '../../db/settings-store.ts';
import { AppError, notLoggedIn } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { SecretBox } from '../../secrets/index.ts';
import type { AuditLog } from '../logs/index.ts';

interface Values {
  ACCOUNT_SAFE: AccountSafeConfig;
  PWD_COMPLEXITY: PwdComplexityConfig;
  LOGIN_SAFE: LoginSafeConfig;
  OUTBOUND: OutboundConfig;
  /** Not among the setting/gc keys: its bind password is never answered (see modules/ldap). */
  LDAP: LdapConfig;
  /** History retention (series area: its own routes, and the hourly pruning). */
  SERIES_RETENTION: RetentionSettings;
}

/** Every stored key: the setting/gc ones and those an area serves through its own routes. */
export type ConfigKey = keyof Values;

const schemas: { [K in ConfigKey]: z.ZodType<Values[K]> } = {
  ACCOUNT_SAFE: accountSafeConfig,
  PWD_COMPLEXITY: pwdComplexityConfig,
  LOGIN_SAFE: loginSafeConfig,
  OUTBOUND: outboundConfig,
  LDAP: ldapConfig,
  SERIES_RETENTION: retentionSettings,
};

export type GlobalConfigDefaults = { [K in ConfigKey]: Values[K] };

export const builtInDefaults: GlobalConfigDefaults = {
  ACCOUNT_SAFE: defaultAccountSafe,
  PWD_COMPLEXITY: defaultPwdComplexity,
  LOGIN_SAFE: defaultLoginSafe,
  OUTBOUND: defaultOutbound,
  LDAP: defaultLdapConfig,
  SERIES_RETENTION: defaultRetention,
};

/**
 * Global configuration (000 §7 setting/gc): JSON values by key, read through a small cache since
 * every login and request consults them. A stored value that no longer parses (an older shape)
 * falls back to the default merged with what still fits.
 */
export type GlobalConfig = SettingsStore<Values>;

/** Fields kept encrypted in the row (the cache and every reader see them in clear). */
export const globalConfigSecrets: Partial<Record<ConfigKey, string[]>> = { LDAP: ['bind_password'] };

export const createGlobalConfig = (
  db: Db,
  defaults: GlobalConfigDefaults = builtInDefaults,
  secrets?: SecretBox | undefined,
): GlobalConfig =>
  createSettingsStore<Values>({
    db,
    table: 'global_config',
    schemas,
    defaults,
    secretFields: globalConfigSecrets,
    secrets,
  });

/** setting/gc: the readonly keys the login page and shell need are public; the rest is for the administrator. */
/** Checks of a new value that need the request (who changes it, from where); a key of the shared texts when refused. */
export type GlobalConfigGuards = {
  [K in GlobalConfigKey]?: (
    value: Values[K],
    request: FastifyRequest,
  ) => Promise<{ key: string; values?: Record<string, string> } | null>;
};

export const registerGlobalConfigRoutes = (
  app: FastifyInstance,
  config: GlobalConfig,
  audit: AuditLog,
  /** The guards the areas contribute (read at each change: they are gathered after this area is made). */
  guards: () => GlobalConfigGuards = () => ({}),
) => {
  addRoute(
    app,
    authRoutes.globalConfigRead,
    async ({ query, request }) => {
      // The idle-logout policy is for the signed-in shell only; the login page and the forced
      // change dialog need the password rules, never who is exempt from expiry.
      if (query.k === 'ACCOUNT_SAFE') {
        if (!request.principal) throw notLoggedIn();
        return await config.get('ACCOUNT_SAFE');
      }
      return { pwd_complexity_config: { ...(await config.get('PWD_COMPLEXITY')), always_valid_user_ids: [] } };
    },
    { auth: false },
  );
  addRoute(
    app,
    authRoutes.globalConfigGet,
    async ({ query }) =>
      query.k === 'PWD_COMPLEXITY'
        ? { pwd_complexity_config: await config.get('PWD_COMPLEXITY') }
        : await config.get(query.k),
    { permission: 'admin' },
  );
  addRoute(
    app,
    authRoutes.globalConfigSet,
    async ({ body, request }) => {
      if (body.k === 'LOGIN_SAFE') {
        const refusal = await guards().LOGIN_SAFE?.(body.v, request);
        if (refusal) throw new AppError('badRequest', refusal.key, refusal.values);
      }
      if (body.k === 'PWD_COMPLEXITY') await config.set('PWD_COMPLEXITY', body.v.pwd_complexity_config);
      else if (body.k === 'ACCOUNT_SAFE') await config.set('ACCOUNT_SAFE', body.v);
      else if (body.k === 'OUTBOUND') await config.set('OUTBOUND', body.v);
      else await config.set('LOGIN_SAFE', body.v);
      await audit.write(
        { module: `settings/${body.k}`, action: 'update', target: '', success: true, detail: JSON.stringify(body.v) },
        request,
      );
      return null;
    },
    { permission: 'admin' },
  );
};

/** Marks a database a test or development run has used. */
const testModeMarker = 'TEST_MODE_USED';

/**
 * The captcha a test run switched off does not stay off in production: a test or development run
 * marks the database; the first production start on a marked database turns the stored captcha
 * back on and clears the mark (an administrator may still turn it off again, on purpose). Answers
 * whether it turned the captcha back on.
 */
export const restoreCaptchaAfterTestMode = async (
  db: Db,
  mode: 'production' | 'development' | 'test',
  now: number = nowSeconds(),
): Promise<boolean> => {
  const k = db.kysely;
  if (mode !== 'production') {
    await k
      .insertInto('global_config')
      .values({ k: testModeMarker, v: 'true', updated_at: now })
      .onConflict((oc) => oc.column('k').doNothing())
      .execute();
    return false;
  }
  const marked = await k.selectFrom('global_config').select('k').where('k', '=', testModeMarker).executeTakeFirst();
  if (!marked) return false;
  const row = await k.selectFrom('global_config').select('v').where('k', '=', 'LOGIN_SAFE').executeTakeFirst();
  let turnedOn = false;
  if (row) {
    const stored = JSON.parse(row.v) as Record<string, unknown>;
    if (stored.captcha_enabled === false) {
      await k
        .updateTable('global_config')
        .set({ v: JSON.stringify({ ...stored, captcha_enabled: true }), updated_at: now })
        .where('k', '=', 'LOGIN_SAFE')
        .execute();
      turnedOn = true;
    }
  }
  await k.deleteFrom('global_config').where('k', '=', testModeMarker).execute();
  return turnedOn;
};
