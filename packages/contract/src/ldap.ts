import { z } from 'zod';
import { loginAnswer } from './auth.ts';
import { pageOf, pageQuery } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * LDAP: the directory settings, the connection test, the directory's users and their import, and
 * the LDAP login (002 §2.3 Users, §6, §7.1 `setting/ldap/remote_users`, §7.4 `pub/login/ldap`; the
 * spec shows no fields, so they are ours: docs/ldap.md). Validation messages are keys of the shared
 * locale files (`ldap.validation.*`).
 */

const msg = (key: string) => `ldap.validation.${key}`;

/** Login type of a user (000 §6): 1 local password, 2 LDAP directory. */
export const loginTypes = { local: 1, ldap: 2 } as const;

/** The placeholder of `user_filter` that becomes the (escaped) login name. */
export const userNamePlaceholder = '{{username}}';

const id = z.number().int().min(1).max(2_147_483_647);

/** `ldap://host[:port]` or `ldaps://host[:port]`: scheme, host and port only (no DN, no query). */
export const ldapUrl = z
  .string()
  .trim()
  .min(1, { message: msg('urlRequired') })
  .max(300, { message: msg('tooLong') })
  .refine(
    (url) => {
      const match = /^ldaps?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:(\d{1,5}))?\/?$/i.exec(url);
      if (!match) return false;
      const port = match[4] === undefined ? 389 : Number(match[4]);
      return port >= 1 && port <= 65_535;
    },
    { message: msg('url') },
  );

/** An attribute name (RFC 4512 descr): a letter, then letters, digits and hyphens. */
const attribute = z
  .string()
  .trim()
  .min(1, { message: msg('attributeRequired') })
  .max(64, { message: msg('tooLong') })
  .regex(/^[a-z][a-z0-9-]*$/i, { message: msg('attribute') });

const dn = z
  .string()
  .trim()
  .max(500, { message: msg('tooLong') });

/** The directory settings an administrator edits, without the bind password. */
const ldapSettingsFields = z.object({
  /** Whether LDAP login, the user list and import are on. */
  enabled: z.boolean(),
  url: ldapUrl,
  /** Upgrade an `ldap://` connection with StartTLS before binding. */
  start_tls: z.boolean(),
  /** Refuse a server certificate that does not verify (off only for test directories). */
  tls_reject_unauthorized: z.boolean(),
  /** DN the console binds as to search the directory; empty: an anonymous search. */
  bind_dn: dn,
  /** Where users are searched (whole subtree). */
  base_dn: dn,
  /** Filter that finds one user by login name; `{{username}}` is replaced by the escaped name. */
  user_filter: z
    .string()
    .trim()
    .min(1, { message: msg('filterRequired') })
    .max(500, { message: msg('tooLong') })
    .refine((f) => f.startsWith('(') && f.endsWith(')') && f.includes(userNamePlaceholder), {
      message: msg('filter'),
    }),
  /** Attribute holding the login name (the local user name). */
  attr_user_name: attribute,
  attr_alias: attribute,
  attr_email: attribute,
  attr_phone: attribute,
  /** Roles given to imported users (at least one when importing). */
  default_role_ids: z.array(id).max(50),
  /** User group given to imported users, once user groups exist. */
  default_user_group_id: id.nullable(),
  /** Create the local user on the first LDAP login instead of refusing users not imported yet. */
  auto_create: z.boolean(),
  /** Seconds to wait for the directory (connect and each operation). */
  timeout_seconds: z.number().int().min(1).max(60),
});

/** The rules across fields: a base DN when enabled, no StartTLS over ldaps://, grants for auto-created users. */
const crossCheck = (
  value: {
    enabled: boolean;
    base_dn: string;
    url: string;
    start_tls: boolean;
    auto_create: boolean;
    default_role_ids: number[];
    default_user_group_id: number | null;
  },
  ctx: z.RefinementCtx,
) => {
  if (value.enabled && value.base_dn.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['base_dn'], message: msg('baseDnRequired') });
  }
  if (value.start_tls && /^ldaps:/i.test(value.url)) {
    ctx.addIssue({ code: 'custom', path: ['start_tls'], message: msg('startTlsOverLdaps') });
  }
  // A user made at first login needs a role and a user group like any user (002 §6).
  if (value.auto_create && value.default_role_ids.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['default_role_ids'], message: msg('roleRequired') });
  }
  if (value.auto_create && value.default_user_group_id === null) {
    ctx.addIssue({ code: 'custom', path: ['default_user_group_id'], message: msg('groupRequired') });
  }
};

/** The stored LDAP settings (global config key `LDAP`), bind password included. */
export const ldapConfig = ldapSettingsFields
  .extend({ bind_password: z.string().max(256, { message: msg('tooLong') }) })
  .superRefine(crossCheck);
export type LdapConfig = z.infer<typeof ldapConfig>;

export const defaultLdapConfig: LdapConfig = {
  enabled: false,
  url: 'ldap://127.0.0.1:389',
  start_tls: false,
  tls_reject_unauthorized: true,
  bind_dn: '',
  bind_password: '',
  base_dn: '',
  user_filter: '(uid={{username}})',
  attr_user_name: 'uid',
  attr_alias: 'cn',
  attr_email: 'mail',
  attr_phone: 'telephoneNumber',
  default_role_ids: [],
  default_user_group_id: null,
  auto_create: false,
  timeout_seconds: 10,
};

/** What GET setting/ldap answers: the settings, and only whether a bind password is kept. */
export const ldapSettingsView = ldapSettingsFields.extend({ bind_password_set: z.boolean() });
export type LdapSettingsView = z.infer<typeof ldapSettingsView>;

/**
 * What PUT setting/ldap and POST setting/ldap/test take: the settings, and a bind password that
 * replaces the kept one when given (an empty string clears it; omitted keeps it).
 */
export const ldapSettingsInput = ldapSettingsFields
  .extend({
    bind_password: z
      .string()
      .max(256, { message: msg('tooLong') })
      .optional(),
  })
  .superRefine(crossCheck);
export type LdapSettingsInput = z.infer<typeof ldapSettingsInput>;

/** Where a connection test stopped. */
export const ldapTestStages = ['connect', 'tls', 'bind', 'search'] as const;

export const ldapTestResult = z.object({
  /** Users the filter finds under the base DN (at most the sample limit is counted). */
  users_found: z.number().int().min(0),
  /** A few of their login names. */
  sample: z.array(z.string()),
});
export type LdapTestResult = z.infer<typeof ldapTestResult>;

/** A user of the directory, as the user list shows it. */
export const remoteUser = z.object({
  dn: z.string(),
  user_name: z.string(),
  alias: z.string(),
  email: z.string(),
  phone: z.string(),
  /** The local user of the same name, when there is one. */
  user_id: z.number().int().nullable(),
  /** Whether that local user is an LDAP user (imported); false for a local account of the same name. */
  imported: z.boolean(),
});
export type RemoteUser = z.infer<typeof remoteUser>;

/** At most this many directory entries are read for one list (sorted and paged by the console). */
export const remoteUserListCap = 2000;

const loginName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((name) => ![...name].some((c) => c.charCodeAt(0) < 0x20), { message: msg('userName') });

export const ldapImportBody = z.object({
  /** Login names (values of the user-name attribute) to import. */
  user_names: z.array(loginName).min(1).max(200),
  /** Roles of the new users; the settings' default roles when omitted. */
  role_ids: z.array(id).max(50).optional(),
  /** User group of the new users; the settings' default when omitted. */
  user_group_id: id.nullable().optional(),
});

export const ldapImportResult = z.object({
  imported: z.array(z.object({ user_name: z.string(), id: z.number().int() })),
  /** Names not imported: already a local user, or not found in the directory. */
  skipped: z.array(z.object({ user_name: z.string(), reason: z.enum(['exists', 'not_found']) })),
});
export type LdapImportResult = z.infer<typeof ldapImportResult>;

/** RSA-OAEP (SHA-256) ciphertext, base64, as for `pub/login/safe`. */
const encrypted = z.string().min(1).max(1024);

export const ldapRoutes = {
  settingsGet: defineRoute({
    method: 'GET',
    path: 'setting/ldap',
    summary: 'The LDAP settings (the bind password only as whether it is set)',
    tags: ['ldap'],
    response: ldapSettingsView,
  }),
  settingsSet: defineRoute({
    method: 'PUT',
    path: 'setting/ldap',
    summary: 'Change the LDAP settings; takes effect at once',
    tags: ['ldap'],
    body: ldapSettingsInput,
    response: ldapSettingsView,
  }),
  test: defineRoute({
    method: 'POST',
    path: 'setting/ldap/test',
    summary: 'Test settings (as edited, not yet saved): connect, TLS, bind and search; says what failed',
    tags: ['ldap'],
    body: ldapSettingsInput,
    response: ldapTestResult,
  }),
  remoteUsers: defineRoute({
    method: 'GET',
    path: 'setting/ldap/remote_users',
    summary: 'Users of the directory, paged, filtered by name, marked when already imported',
    tags: ['ldap'],
    query: pageQuery.extend({ name: z.string().trim().max(64).optional() }),
    response: pageOf(remoteUser),
  }),
  import: defineRoute({
    method: 'POST',
    path: 'setting/ldap/import',
    summary: 'Import directory users as local users of login type 2 (they log in through LDAP)',
    tags: ['ldap'],
    body: ldapImportBody,
    response: ldapImportResult,
  }),
  login: defineRoute({
    method: 'POST',
    path: 'pub/login/ldap',
    summary: 'Log in with the directory password (encrypted as for pub/login/safe)',
    tags: ['auth'],
    body: z.object({
      user_name: encrypted,
      password: encrypted,
      captcha_id: z.string().max(64).optional().default(''),
      captcha_code: z.string().max(16).optional().default(''),
      remember: z.boolean().optional().default(false),
    }),
    response: loginAnswer,
  }),
};
