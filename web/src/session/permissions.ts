import type { MenuNode } from '@sitewatch/contract/auth';
import { normalizePage } from './guard.ts';
import { useSession } from './session.ts';

const findPage = (nodes: MenuNode[], page: string): MenuNode | undefined => {
  for (const node of nodes) {
    if (node.url && normalizePage(node.url) === page) return node;
    const hit = findPage(node.children, page);
    if (hit) return hit;
  }
  return undefined;
};

/**
 * Whether the user holds a function (button) of a page, from the menu tree the server sent:
 * the web hides what the server would refuse (002 §6).
 */
export const useCan = (pageUrl: string, func: string): boolean => {
  const menus = useSession((s) => s.menus);
  return findPage(menus, normalizePage(pageUrl))?.functions.includes(func) ?? false;
};

/**
 * Whether the user is an administrator (user 1 or a holder of role 1): only they give role 1, change
 * user 1 or their own roles (docs/users.md, "Who may grant what").
 */
export const useIsAdministrator = (): boolean =>
  useSession((s) => (s.user ? s.user.id === 1 || s.user.role_ids.includes(1) : false));
