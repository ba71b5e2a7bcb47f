import type { MenuNode } from '@sitewatch/contract/auth';
import { isExternalAddress } from '@sitewatch/contract/custom-menus';
import { Menu, type MenuProps } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { leafAt, useSession } from '../../session/session.ts';

type Item = Required<MenuProps>['items'][number];

/**
 * Opens a menu entry (000 §2.4, §2.5): `_blank` in a new window (internal paths with fullShow=yes,
 * http and /static/ addresses as they are), an http or /static/ address in the shell through
 * /external_link (docs/custom-menus.md), any other page in the shell.
 */
export const openMenuEntry = (node: MenuNode, navigate: (to: string) => void) => {
  const external = isExternalAddress(node.url);
  if (node.target === '_blank') {
    if (external) window.open(node.url, '_blank', 'noopener,noreferrer');
    else window.open(`${node.url}${node.url.includes('?') ? '&' : '?'}fullShow=yes`, '_blank', 'noopener');
    return;
  }
  navigate(external ? `/external_link?pathUrl=${encodeURIComponent(node.url)}` : node.url);
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
  const leaf = leafAt(menus, location.pathname, location.search);
  const selected = leaf ? String(leaf.id) : undefined;
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
