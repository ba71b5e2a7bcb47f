import { currentUser, type MenuNode, menuNode } from '@sitewatch/contract/auth';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { i18n, initI18n } from '../i18n/index.ts';
import { useSession } from '../session/session.ts';

// What antd needs of a browser that jsdom does not have.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
// jsdom computes styles by cascading every stylesheet antd injects, on each of antd's many
// measurements; layout is not what these tests look at, so an empty declaration answers.
const emptyStyle = document.createElement('div').style;
window.getComputedStyle = () => emptyStyle;
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

/**
 * Signs a user in with the given function grants of one page and sites (null: every site), parsed by
 * the contract's session schemas, and renders a page with the providers of the app, in zh_cn.
 */
export const renderPage = async (
  ui: ReactNode,
  {
    page,
    functions,
    userId = 2,
    roleIds = [2],
    siteIds = null,
  }: { page: string; functions: string[]; userId?: number; roleIds?: number[]; siteIds?: number[] | null },
) => {
  if (!i18n.isInitialized) await initI18n('zh_cn');
  const menu: MenuNode = menuNode.parse({
    id: 1,
    name: page,
    url: page,
    icon: '',
    target: '',
    enable: true,
    display: true,
    weight: 0,
    functions,
    children: [],
  });
  useSession.setState({
    status: 'ready',
    user: currentUser.parse({
      id: userId,
      user_name: 'tester',
      alias: '',
      login_type: 0,
      language: 'zh_cn',
      role_ids: roleIds,
      site_ids: siteIds,
    }),
    menus: [menu],
    enableMenuList: [page],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      {/* No motion: dialogs and pop-ups open and close at once. */}
      <ConfigProvider theme={{ token: { motion: false } }}>
        <App>{ui}</App>
      </ConfigProvider>
    </QueryClientProvider>,
  );
};
