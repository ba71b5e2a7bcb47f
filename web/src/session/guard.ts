/**
 * The route guard's rules (000 §6, 002 §2.2): pages always allowed, and the match of a path
 * against the user's enabled menu list, ignoring a .html suffix, slashes and the query.
 */
export const alwaysAllowed = [
  'login',
  'external_link',
  'secret_list',
  'setting_sys_edition',
  'setting_auto_login',
  // The user's own API tokens (docs/api.md): every signed-in user, like the auto-login browsers.
  'setting_api_tokens',
  'polling_main_detail',
  'polling_record',
  'home',
  'bind_node',
  'async_node',
  '',
  'config_menu',
] as const;

/** `/setting_users.html?x=1` → `setting_users`. */
export const normalizePage = (path: string): string =>
  (path.split(/[?#]/)[0] ?? '').replace(/\.html$/i, '').replace(/\//g, '');

export type GuardVerdict = 'allow' | 'login' | 'deny';

export const guardVerdict = (path: string, enabledMenuUrls: string[]): GuardVerdict => {
  const page = normalizePage(path);
  if ((alwaysAllowed as readonly string[]).includes(page)) return 'allow';
  if (enabledMenuUrls.length === 0) return 'login';
  return enabledMenuUrls.some((url) => normalizePage(url) === page) ? 'allow' : 'deny';
};
