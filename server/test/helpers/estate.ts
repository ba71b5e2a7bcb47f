import { defaultLoginSafe } from '@sitewatch/contract/auth';
import type { AppDeps } from '../../src/app.ts';
import { builtInDefaults } from '../../src/modules/global-config/index.ts';
import type { TestApp } from './build-app.ts';
import { createFirstAdmin, encryptFor, loginHeader, publicKeyOf } from './login.ts';

/** App options of suites that sign in through the real login: no captcha, no rate limit in the way. */
export const realLogin = {
  authenticator: undefined,
  globalConfigDefaults: { ...builtInDefaults, LOGIN_SAFE: { ...defaultLoginSafe, captcha_enabled: false } },
  loginRateLimit: { max: 100_000, timeWindow: 60_000 },
} satisfies Partial<AppDeps>;

export type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Signs in the first administrator of a fresh app (its one-time password changed first, as the
 * product requires) and answers its headers and a caller of the API as it (or as `headers`).
 */
export const signInFirstAdmin = async (t: TestApp) => {
  const first = await createFirstAdmin(t.database.db);
  const key = await publicKeyOf(t.app);
  await t.app.inject({
    method: 'PUT',
    url: '/api/v1/user/password_without_login',
    payload: {
      user_name: 'admin',
      old_password: encryptFor(key, first),
      new_password: encryptFor(key, 'Admin-Strong-91'),
    },
  });
  const admin = await loginHeader(t.app, 'admin', 'Admin-Strong-91');
  const call = (method: Method, url: string, headers: Headers = admin, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  return { admin, call };
};

export type AdminCall = Awaited<ReturnType<typeof signInFirstAdmin>>['call'];

/** Adds a site (device group); answers its id. */
export const addSite = async (call: AdminCall, name: string) =>
  (await call('POST', 'setting/device_groups', undefined, { name, weight: 1 })).json().data.id as number;

/** Adds a simulated device of a template on a site; answers its id and its items' ids in the template's order. */
export const addDeviceItems = async (
  call: AdminCall,
  site: number,
  device: { name: string; code: string; template_id: number },
) => {
  const { id } = (
    await call('POST', 'setting/devices', undefined, { ...device, device_group_id: site, driver: 'simulator' })
  ).json().data as { id: number };
  const items = (await call('GET', `setting/items?device_id=${id}`)).json().data.data as { id: number }[];
  return { id, items: items.map((i) => i.id) as [number, ...number[]] };
};
