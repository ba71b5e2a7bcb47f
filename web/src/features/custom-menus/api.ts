import {
  type CustomMenuInput,
  type CustomMenuPatch,
  customMenusRoutes,
  isExternalAddress,
} from '@sitewatch/contract/custom-menus';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const settingMenuPage = '/setting_menu';

export const entriesQuery = queryOptions({
  queryKey: ['custom-menus', 'entries'],
  queryFn: async () => (await api.call(customMenusRoutes.entries)).list,
});

export const assetQuery = queryOptions({
  queryKey: ['custom-menus', 'asset'],
  queryFn: () => api.call(customMenusRoutes.asset),
});

export const linkQuery = (url: string) =>
  queryOptions({
    queryKey: ['custom-menus', 'link', url],
    queryFn: () => api.call(customMenusRoutes.link, { query: { url } }),
    retry: false,
  });

export const createEntry = (body: CustomMenuInput) => api.call(customMenusRoutes.create, { body });
export const updateEntry = (id: number, body: CustomMenuPatch) =>
  api.call(customMenusRoutes.update, { params: { id }, body });
export const removeEntries = (ids: number[]) => api.call(customMenusRoutes.remove, { body: { ids } });

/** Where a menu entry's address opens inside the shell: /external_link for http(s) and /static/ (000 §2.5). */
export const externalLinkPath = (url: string) => `/external_link?pathUrl=${encodeURIComponent(url)}`;
export { isExternalAddress };

/**
 * The frame's sandbox (docs/custom-menus.md): scripts, forms and pop-ups run, but the page may never
 * navigate the console away, and a page of the console's own origin (a /static/ page) runs in an
 * opaque origin, so it cannot read the signed-in user's token.
 */
export const frameSandbox = (url: string, here: string = window.location.href) => {
  const sameOrigin = new URL(url, here).origin === new URL(here).origin;
  const base = 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads';
  return sameOrigin ? base : `${base} allow-same-origin`;
};
