import { z } from 'zod';
import { defineRoute } from './route.ts';
import { browserNames } from './rules/login-restrictions.ts';
import { passwordMaxLength, pwdComplexityConfig } from './rules/password.ts';

/** Auto-login periods (000 §2.1): 1 permanent, 2 one month, 3 three months, 4 six months, 5 one year, 6 two years. */
export const autoLoginPeriods = [1, 2, 3, 4, 5, 6] as const;
export type AutoLoginPeriod = (typeof autoLoginPeriods)[number];
/** Days each period lasts; null for permanent. */
export const autoLoginDays: Record<AutoLoginPeriod, number | null> = { 1: null, 2: 30, 3: 91, 4: 182, 5: 365, 6: 730 };

/** RSA-OAEP (SHA-256) ciphertext of a password, base64; the key is GET pub/login/params. */
const encrypted = z.string().min(1).max(1024);
const userName = z.string().trim().min(1).max(64);
const captchaId = z.string().max(64);
const captchaCode = z.string().max(16);

/** ACCOUNT_SAFE: idle auto-logout (000 §3, §4.9). */
export const accountSafeConfig = z.object({
  acc_logout_config: z.object({ enabled: z.boolean(), opt_period: z.number().int().min(1).max(1440) }),
});
export type AccountSafeConfig = z.infer<typeof accountSafeConfig>;
export const defaultAccountSafe: AccountSafeConfig = { acc_logout_config: { enabled: false, opt_period: 30 } };

/**
 * LOGIN_SAFE: captcha, single-terminal login, automatic lock (002 §3 Security settings, §4).
 * Spec default for auto-lock: disabled, period 30 (000 §9).
 */
export const loginSafeConfig = z.object({
  captcha_enabled: z.boolean(),
  single_terminal: z.boolean(),
  auto_lock: z.object({
    enabled: z.boolean(),
    period_minutes: z.number().int().min(1).max(1440),
    attempts: z.number().int().min(1).max(100),
  }),
  /** Days after which an automatic lock is lifted; 0 = only an administrator unlocks. */
  lock_expiry_days: z.number().int().min(0).max(3650),
  /** Terminal addresses allowed to log in: IPs or CIDR blocks, at least one (002 §5.3). */
  allowed_ips: z
    .array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]))
    .min(1)
    .max(1000),
  allowed_browsers: z.array(z.enum(browserNames)).min(1),
  allowed_periods: z
    .array(
      z
        .object({
          weekdays: z.array(z.number().int().min(1).max(7)).min(1).max(7),
          start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
          end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
        })
        .refine((p) => p.end >= p.start, { message: 'validation.endBeforeStart', path: ['end'] }),
    )
    .min(1)
    .max(50),
  /** When enabled, only these accounts may log in (at least one). */
  allow_list: z.object({ enabled: z.boolean(), user_ids: z.array(z.number().int().positive()).max(10_000) }),
});
export type LoginSafeConfig = z.infer<typeof loginSafeConfig>;
export const defaultLoginSafe: LoginSafeConfig = {
  captcha_enabled: true,
  single_terminal: false,
  auto_lock: { enabled: false, period_minutes: 30, attempts: 5 },
  lock_expiry_days: 0,
  allowed_ips: ['0.0.0.0/0', '::/0'],
  allowed_browsers: [...browserNames],
  allowed_periods: [{ weekdays: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '23:59' }],
  allow_list: { enabled: false, user_ids: [] },
};

/**
 * OUTBOUND: where the notification channels may send (issue 11, finding 8). Loopback, link-local,
 * private, CGNAT and unspecified ranges are refused unless listed in `allow`; `deny` refuses more.
 */
const cidr = z.union([z.cidrv4(), z.cidrv6(), z.ipv4(), z.ipv6()]);
// Strict: in the `setting/gc` answer's union a loose object with defaults would match (and empty)
// any other key's value.
export const outboundConfig = z.strictObject({
  allow: z.array(cidr).max(100).default([]),
  deny: z.array(cidr).max(100).default([]),
});
export type OutboundConfig = z.infer<typeof outboundConfig>;
export const defaultOutbound: OutboundConfig = { allow: [], deny: [] };

export const globalConfigKeys = ['ACCOUNT_SAFE', 'PWD_COMPLEXITY', 'LOGIN_SAFE', 'OUTBOUND'] as const;
export type GlobalConfigKey = (typeof globalConfigKeys)[number];

/** Why a change of password is forced after login (`change_pwd_scene`). */
export const changePwdScenes = { complexity: 1, expired: 2, firstLogin: 3 } as const;

export const loginAnswer = z.object({
  /** Empty when the password must be changed first: no session is made until then. */
  access_token: z.string(),
  need_tip_change_pwd: z.boolean(),
  /** 0 none, 1 the password breaks the rules, 2 it expired, 3 first login with an issued password. */
  change_pwd_scene: z.number().int(),
  /** Broken rules (keys of `password.rules`), empty when none. */
  pwd_complexity_error: z.array(z.string()),
  pwd_expired: z.boolean(),
  pwd_is_alterable: z.boolean(),
  /** Days until the password expires, when it does. */
  pwd_days_left: z.number().int().nullable(),
  user_name: z.string(),
  /** Auto-login device token, only when an auto-login period was chosen. */
  device_token: z.string().nullable(),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const menuNode: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    url: z.string(),
    icon: z.string(),
    target: z.string(),
    enable: z.boolean(),
    display: z.boolean(),
    weight: z.number().int(),
    functions: z.array(z.string()),
    children: z.array(menuNode),
  }),
);
export interface MenuNode {
  id: number;
  name: string;
  url: string;
  icon: string;
  target: string;
  enable: boolean;
  display: boolean;
  weight: number;
  /** Codes of the functions (buttons) of this page the user may use. */
  functions: string[];
  children: MenuNode[];
}

export const currentUser = z.object({
  id: z.number().int(),
  user_name: z.string(),
  alias: z.string(),
  login_type: z.number().int(),
  language: z.string(),
  role_ids: z.array(z.number().int()),
  /** Sites the user may see; null for every site (user id 1 and the administrator role). */
  site_ids: z.array(z.number().int()).nullable(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const deviceTokenRow = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  user_name: z.string(),
  period: z.number().int(),
  expires_at: z.number().int().nullable(),
  ip: z.string(),
  user_agent: z.string(),
  created_at: z.number().int(),
  last_used_at: z.number().int().nullable(),
  current: z.boolean(),
});

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const authRoutes = {
  captchaId: defineRoute({
    method: 'GET',
    path: 'pub/login/captchaid',
    summary: 'A new captcha id (kept for 2 minutes, accepted once)',
    tags: ['auth'],
    response: z.object({ captcha_id: z.string() }),
  }),
  loginParams: defineRoute({
    method: 'GET',
    path: 'pub/login/params',
    summary: 'What the login page needs: the RSA public key for passwords and whether a captcha is asked',
    tags: ['auth'],
    response: z.object({
      public_key: z.string(),
      algorithm: z.literal('RSA-OAEP-256'),
      captcha_enabled: z.boolean(),
      /** Whether LDAP accounts may log in (POST pub/login/ldap): the login page offers the choice. */
      ldap_enabled: z.boolean(),
    }),
  }),
  login: defineRoute({
    method: 'POST',
    path: 'pub/login/safe',
    summary: 'Log in with an encrypted user name and password',
    tags: ['auth'],
    body: z.object({
      user_name: encrypted,
      password: encrypted,
      captcha_id: captchaId.optional().default(''),
      captcha_code: captchaCode.optional().default(''),
      remember: z.boolean().optional().default(false),
      auto_login_period: z
        .union(autoLoginPeriods.map((p) => z.literal(p)) as [z.ZodLiteral<1>, ...z.ZodLiteral<AutoLoginPeriod>[]])
        .nullable()
        .optional()
        .default(null),
    }),
    response: loginAnswer,
  }),
  autoLogin: defineRoute({
    method: 'POST',
    path: 'pub/login/auto',
    summary: 'Log in silently with this browser’s auto-login device token',
    tags: ['auth'],
    body: z.object({ device_token: z.string().min(1).max(128) }),
    response: loginAnswer,
  }),
  exit: defineRoute({
    method: 'POST',
    path: 'pub/login/exit',
    summary: 'Log out: ends this session (and this browser’s auto-login, when given)',
    tags: ['auth'],
    body: z.object({ device_token: z.string().max(128).optional() }).optional(),
    response: z.null(),
  }),
  globalConfigRead: defineRoute({
    method: 'GET',
    path: 'setting/gc/readonly',
    summary: 'Read a global config: ACCOUNT_SAFE gives acc_logout_config, PWD_COMPLEXITY pwd_complexity_config',
    tags: ['auth'],
    query: z.object({ k: z.enum(['ACCOUNT_SAFE', 'PWD_COMPLEXITY']) }),
    response: z.union([accountSafeConfig, z.object({ pwd_complexity_config: pwdComplexityConfig })]),
  }),
  globalConfigGet: defineRoute({
    method: 'GET',
    path: 'setting/gc',
    summary: 'Read any global config (administrator)',
    tags: ['settings'],
    query: z.object({ k: z.enum(globalConfigKeys) }),
    response: z.union([
      z.object({ pwd_complexity_config: pwdComplexityConfig }),
      accountSafeConfig,
      loginSafeConfig,
      outboundConfig,
    ]),
  }),
  globalConfigSet: defineRoute({
    method: 'POST',
    path: 'setting/gc',
    summary: 'Change a global config (administrator); takes effect at once',
    tags: ['settings'],
    body: z.discriminatedUnion('k', [
      z.object({ k: z.literal('ACCOUNT_SAFE'), v: accountSafeConfig }),
      z.object({ k: z.literal('PWD_COMPLEXITY'), v: z.object({ pwd_complexity_config: pwdComplexityConfig }) }),
      z.object({ k: z.literal('LOGIN_SAFE'), v: loginSafeConfig }),
      z.object({ k: z.literal('OUTBOUND'), v: outboundConfig }),
    ]),
    response: z.null(),
  }),
  passwordChange: defineRoute({
    method: 'PUT',
    path: 'user/password',
    summary: 'Change one’s own password (encrypted); every session of the user ends',
    tags: ['auth'],
    body: z.object({ old_password: encrypted, new_password: encrypted }),
    response: z.null(),
  }),
  passwordChangeWithoutLogin: defineRoute({
    method: 'PUT',
    path: 'user/password_without_login',
    summary: 'Change the password from the login page (forced change)',
    tags: ['auth'],
    body: z.object({
      user_name: userName,
      old_password: encrypted,
      new_password: encrypted,
      captcha_id: captchaId.optional().default(''),
      captcha_code: captchaCode.optional().default(''),
    }),
    response: z.null(),
  }),
  menus: defineRoute({
    method: 'GET',
    path: 'menus',
    summary: 'The current user’s menu tree',
    tags: ['auth'],
    response: z.object({ list: z.array(menuNode) }),
  }),
  menuLanguage: defineRoute({
    method: 'POST',
    path: 'menus/language',
    summary: 'Keep the user’s interface language (then the client reloads)',
    tags: ['auth'],
    body: z.object({ language: z.enum(['zh_cn', 'zh_xg', 'zh_tw', 'en_us']) }),
    response: z.null(),
  }),
  serverTime: defineRoute({
    method: 'GET',
    path: 'server_time',
    summary: 'The server clock',
    tags: ['auth'],
    response: z.object({ server_time: z.number().int() }),
  }),
  currentUser: defineRoute({
    method: 'GET',
    path: 'user/current',
    summary: 'Who is logged in, with roles and allowed sites',
    tags: ['auth'],
    response: currentUser,
  }),
  myDeviceTokens: defineRoute({
    method: 'GET',
    path: 'user/device_tokens',
    summary: 'Auto-login browsers of the current user (all users’ for the administrator with all=1)',
    tags: ['auth'],
    query: z.object({ all: z.enum(['0', '1']).optional() }),
    response: z.object({ total: z.number().int(), data: z.array(deviceTokenRow) }),
  }),
  revokeDeviceToken: defineRoute({
    method: 'DELETE',
    path: 'user/device_tokens/:id',
    summary: 'Revoke an auto-login browser',
    tags: ['auth'],
    params: idParams,
    response: z.null(),
  }),
};

export { passwordMaxLength };
