import { isLanguage } from '@sitewatch/contract';
import { authRoutes, type CurrentUser, type MenuNode } from '@sitewatch/contract/auth';
import { create } from 'zustand';
import { api } from '../api/client.ts';
import { clearTokens } from '../api/tokens.ts';
import { languageStorageKey, storedLanguage } from '../i18n/index.ts';
import { normalizePage } from './guard.ts';
import { useTabs } from './tabs.ts';

/** Set by a sign-in: the next session load takes the user's language from the server. */
export const languageSyncKey = 'languageSync';

/** The user's pages: menu leaves with a URL, in menu order. */
export const menuLeaves = (nodes: MenuNode[]): MenuNode[] =>
  nodes
    .filter((n) => n.enable && n.display)
    .sort((a, b) => b.weight - a.weight)
    .flatMap((n) => (n.url ? [n] : menuLeaves(n.children)));

/**
 * The menu leaf a location shows: the one whose page it is, or for /external_link the entry whose
 * address is its pathUrl (every such entry is the same page, told apart by the address).
 */
export const leafAt = (nodes: MenuNode[], pathname: string, search: string): MenuNode | undefined => {
  const leaves = menuLeaves(nodes);
  const page = normalizePage(pathname);
  if (page === 'external_link') {
    const url = new URLSearchParams(search).get('pathUrl');
    return leaves.find((leaf) => leaf.url === url);
  }
  return leaves.find((leaf) => normalizePage(leaf.url) === page);
};

interface Session {
  status: 'idle' | 'loading' | 'ready' | 'error';
  user: CurrentUser | null;
  menus: MenuNode[];
  /** URLs of the enabled pages (the route guard's list, 000 §3 enableMenuList). */
  enableMenuList: string[];
  /** The first page of the menu: where an emptied tab strip returns. */
  firstPage: string | null;
  load(): Promise<void>;
  /** Reads the menu again (after /setting_menu changed it) without leaving the ready state. */
  refreshMenus(): Promise<void>;
  clear(): void;
}

export const useSession = create<Session>((set, get) => ({
  status: 'idle',
  user: null,
  menus: [],
  enableMenuList: [],
  firstPage: null,
  async load() {
    if (get().status === 'loading') return;
    set({ status: 'loading' });
    try {
      const [user, menus] = await Promise.all([api.call(authRoutes.currentUser), api.call(authRoutes.menus)]);
      // The language is the user's, kept on the server (000 §4.11): right after signing in, a browser
      // that shows another one (a fresh one, or another user's) takes it and reloads, once.
      const justSignedIn = sessionStorage.getItem(languageSyncKey) !== null;
      sessionStorage.removeItem(languageSyncKey);
      if (justSignedIn && isLanguage(user.language) && user.language !== storedLanguage()) {
        localStorage.setItem(languageStorageKey, user.language);
        window.location.reload();
        return;
      }
      const leaves = menuLeaves(menus.list);
      // Open tabs belong to the user (another user on this browser does not get them).
      useTabs.getState().belongTo(user.id);
      set({
        status: 'ready',
        user,
        menus: menus.list,
        enableMenuList: leaves.map((leaf) => leaf.url),
        firstPage: leaves[0]?.url ?? null,
      });
    } catch {
      set({ status: 'error' });
    }
  },
  async refreshMenus() {
    if (get().status !== 'ready') return;
    const menus = await api.call(authRoutes.menus);
    const leaves = menuLeaves(menus.list);
    set({ menus: menus.list, enableMenuList: leaves.map((leaf) => leaf.url), firstPage: leaves[0]?.url ?? null });
  },
  clear() {
    clearTokens();
    sessionStorage.clear();
    set({ status: 'idle', user: null, menus: [], enableMenuList: [], firstPage: null });
  },
}));
