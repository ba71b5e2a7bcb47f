import type { MenuNode } from '@sitewatch/contract/auth';
import { Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { normalizePage } from '../../session/guard.ts';
import { useSession } from '../../session/session.ts';

type Item = Required<MenuProps>['items'][number];

/** Opens a menu entry: `_blank` in a new window (internal paths with fullShow=yes), else in the shell (000 §2.4). */
export const openMenuEntry = (node: MenuNode, navigate: (to: string) => void) => {
  if (node.target === '_blank') {
    if (/^https?:/i.test(node.url)) window.open(node.url, '_blank', 'noopener');
    else window.open(`${node.url}${node.url.includes('?') ? '&' : '?'}fullShow=yes`, '_blank', 'noopener');
    return;
  }
  navigate(node.url);
};

const toItems = (nodes: MenuNode[]): Item[] =>
  nodes
    .filter((n) => n.enable && n.display)
    .sort((a, b) => b.weight - a.weight)
    .map((n) =>
      n.url
        ? { key: String(n.id), label: n.name }
        : { key: String(n.id), label: n.name, children: toItems(n.children) },
    );

const findNode = (nodes: MenuNode[], id: string): MenuNode | undefined => {
  for (const n of nodes) {
    if (String(n.id) === id) return n;
    const child = findNode(n.children, id);
    if (child) return child;
  }
  return undefined;
};

/** Every group is open at first, so each page is one click away. */
const groupKeys = (nodes: MenuNode[]): string[] =>
  nodes.flatMap((n) => (n.url ? [] : [String(n.id), ...groupKeys(n.children)]));

/** Left menu from GET menus: enabled, not hidden, weight descending (000 §4.4). */
export const SideMenu = () => {
  const menus = useSession((s) => s.menus);
  const navigate = useNavigate();
  const location = useLocation();
  const page = normalizePage(location.pathname);
  const selected = (function find(nodes: MenuNode[]): string | undefined {
    for (const n of nodes) {
      if (n.url && normalizePage(n.url) === page) return String(n.id);
      const hit = find(n.children);
      if (hit) return hit;
    }
    return undefined;
  })(menus);
  return (
    <Menu
      mode="inline"
      items={toItems(menus)}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={groupKeys(menus)}
      onClick={({ key }) => {
        const node = findNode(menus, key);
        if (node?.url) openMenuEntry(node, navigate);
      }}
      style={{ borderInlineEnd: 0 }}
    />
  );
};
