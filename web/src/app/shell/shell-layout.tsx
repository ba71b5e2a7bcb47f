import { App, Layout, Result, Spin, theme } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { connectLive } from '../../api/live.ts';
import { pushClient } from '../../api/push-client.ts';
import { queryClient } from '../../api/query-client.ts';
import { readToken } from '../../api/tokens.ts';
import { AlarmNotices } from '../../features/alarms/components/alarm-notices.tsx';
import { BackupNotice } from '../../features/maintenance/components/backup-notice.tsx';
import { guardVerdict, normalizePage } from '../../session/guard.ts';
import { leafAt, menuLeaves, useSession } from '../../session/session.ts';
import { useTabs } from '../../session/tabs.ts';
import { extraTabPages } from './extra-tab-pages.ts';
import { IdleLogout } from './idle-logout.tsx';
import { SideMenu } from './side-menu.tsx';
import { TabStrip, useFirstPageTab } from './tab-strip.tsx';
import { TopBar } from './top-bar.tsx';

/**
 * The application shell (000 §2.4): top bar, left menu, tab strip and the page. fullShow=yes
 * shows the page alone; /overview has no tab strip. Every route change passes the guard
 * (002 §2.2): not allowed → the warning, and navigation stops where it was.
 */
export const ShellLayout = () => {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { status, load, menus, enableMenuList, firstPage } = useSession();
  const openTab = useTabs((s) => s.open);
  const prune = useTabs((s) => s.prune);
  const firstTab = useFirstPageTab();
  const lastAllowed = useRef<string | null>(null);
  const hasToken = Boolean(readToken());

  useEffect(() => {
    if (hasToken && status === 'idle') void load();
  }, [hasToken, status, load]);

  // The push channel runs while a user is signed in (alarm notices, 000 §8; live values).
  useEffect(() => {
    if (status !== 'ready') return;
    const disconnect = connectLive(queryClient);
    pushClient.start();
    return () => {
      pushClient.stop();
      disconnect();
    };
  }, [status]);

  const verdict = status === 'ready' ? guardVerdict(location.pathname, enableMenuList) : null;
  const page = normalizePage(location.pathname);

  useEffect(() => {
    if (status !== 'ready') return;
    const leafIds = new Set([...menuLeaves(menus).map((m) => String(m.id)), ...Object.keys(extraTabPages)]);
    prune(leafIds);
  }, [status, menus, prune]);

  useEffect(() => {
    if (verdict === 'login') navigate('/login', { replace: true });
    if (verdict === 'deny') {
      void message.warning(t('errors.forbidden'));
      navigate(lastAllowed.current ?? firstPage ?? '/setting_auto_login', { replace: true });
    }
    if (verdict !== 'allow') return;
    lastAllowed.current = `${location.pathname}${location.search}`;
    const leaf = leafAt(menus, location.pathname, location.search);
    const url = `${location.pathname}${location.search}`;
    if (leaf) openTab({ id: String(leaf.id), name: leaf.name, label: leaf.name, url });
    // An always-allowed page gets a tab when opened inside the shell, not when shown alone (fullShow).
    else if (extraTabPages[page] && !/[?&]fullShow=yes/.test(location.search))
      openTab({ id: page, name: page, label: t(extraTabPages[page]), url });
  }, [verdict, location.pathname, location.search, page, menus, firstPage, navigate, openTab, t, message.warning]);

  if (!hasToken) return <Navigate to="/login" replace />;
  if (status === 'error') return <Result status="error" title={t('http.network')} />;
  if (verdict !== 'allow') return <Spin fullscreen />;

  const fullShow = search.get('fullShow') === 'yes';
  const content = (
    <Layout.Content style={{ padding: 16, overflow: 'auto' }}>
      <Outlet />
    </Layout.Content>
  );
  return (
    <>
      <IdleLogout />
      <AlarmNotices />
      <BackupNotice />
      {fullShow ? (
        <Layout style={{ minHeight: '100vh' }}>{content}</Layout>
      ) : (
        <Layout style={{ height: '100vh' }}>
          <Layout.Header
            style={{
              background: token.colorBgContainer,
              paddingInline: 16,
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            <TopBar />
          </Layout.Header>
          <Layout>
            <Layout.Sider width={220} theme="light" style={{ background: token.colorBgContainer, overflow: 'auto' }}>
              <SideMenu />
            </Layout.Sider>
            <Layout>
              {page !== 'overview' && firstTab !== undefined && (
                <div style={{ background: token.colorBgContainer, paddingInline: 8, paddingTop: 4 }}>
                  <TabStrip />
                </div>
              )}
              {content}
            </Layout>
          </Layout>
        </Layout>
      )}
    </>
  );
};
