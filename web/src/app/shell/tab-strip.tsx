import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { menuLeaves, useSession } from '../../session/session.ts';
import { type Tab, useTabs } from '../../session/tabs.ts';
import { extraTabPages } from './extra-tab-pages.ts';

export const useFirstPageTab = (): Tab | null => {
  const firstPage = useSession((s) => s.firstPage);
  const menus = useSession((s) => s.menus);
  if (!firstPage) return null;
  const find = (nodes: typeof menus): Tab | null => {
    for (const n of nodes) {
      if (n.url === firstPage) return { id: String(n.id), name: n.name, label: n.name, url: n.url };
      const hit = find(n.children);
      if (hit) return hit;
    }
    return null;
  };
  return find(menus);
};

/** The tab strip (000 §2.4): one tab per opened page; close current, others, all. */
export const TabStrip = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tabs, activeId, close, closeOthers, closeAll } = useTabs();
  const firstPage = useFirstPageTab();
  const go = (tab: Tab | null) => tab && navigate(tab.url);
  const menus = useSession((s) => s.menus);
  // Labels follow the current language: menu tabs take the menu's name, other pages their key.
  const labelOf = (tab: Tab) => {
    const leaf = menuLeaves(menus).find((m) => String(m.id) === tab.id);
    if (leaf) return leaf.name;
    const key = extraTabPages[tab.id];
    return key ? t(key) : tab.label;
  };
  return (
    <Tabs
      type="editable-card"
      hideAdd
      size="small"
      activeKey={activeId ?? undefined}
      onChange={(key) => go(tabs.find((tab) => tab.id === key) ?? null)}
      onEdit={(key, action) => {
        if (action === 'remove' && typeof key === 'string') {
          const wasActive = key === activeId;
          const next = close(key, firstPage);
          if (wasActive || tabs.length <= 1) go(next);
        }
      }}
      items={tabs.map((tab) => ({ key: tab.id, label: labelOf(tab), closable: true }))}
      tabBarExtraContent={
        <Dropdown
          menu={{
            items: [
              { key: 'current', label: t('shell.tabs.closeCurrent') },
              { key: 'others', label: t('shell.tabs.closeOthers') },
              { key: 'all', label: t('shell.tabs.closeAll') },
            ],
            onClick: ({ key }) => {
              if (!activeId) return;
              if (key === 'current') go(close(activeId, firstPage));
              if (key === 'others') closeOthers(activeId);
              if (key === 'all') go(closeAll(firstPage));
            },
          }}
        >
          <Button size="small" type="text" data-testid="tab-actions">
            {t('shell.tabs.actions')} <DownOutlined />
          </Button>
        </Dropdown>
      }
      style={{ marginBottom: 0 }}
    />
  );
};
