import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { usersRoutes } from '@sitewatch/contract/users';
import { videoRoutes } from '@sitewatch/contract/video';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const usersQuery = (query: { page: number; limit: number; name?: string | undefined }) =>
  queryOptions({ queryKey: ['users', 'list', query], queryFn: () => api.call(usersRoutes.list, { query }) });
export const rolesQuery = queryOptions({ queryKey: ['users', 'roles'], queryFn: () => api.call(usersRoutes.roles) });
export const groupsQuery = queryOptions({ queryKey: ['users', 'groups'], queryFn: () => api.call(usersRoutes.groups) });
export const roleQuery = (id: number) =>
  queryOptions({ queryKey: ['users', 'role', id], queryFn: () => api.call(usersRoutes.role, { params: { id } }) });
export const catalogueQuery = queryOptions({
  queryKey: ['users', 'catalogue'],
  queryFn: () => api.call(usersRoutes.menus),
});
export const grantableContactsQuery = queryOptions({
  queryKey: ['users', 'grantable-contacts'],
  queryFn: () => api.call(usersRoutes.grantableContacts),
});
/** The channels a role editor may grant: the video list they see (their own video grant; all for the administrator). */
export const grantableVideosQuery = queryOptions({
  queryKey: ['users', 'grantable-videos'],
  queryFn: () => api.call(videoRoutes.list, { query: {} }),
});
export const siteTreeQuery = queryOptions({
  queryKey: ['users', 'site-tree'],
  queryFn: () => api.call(monitoringRoutes.siteMenu),
});

/** Turns rows with parent_id into a tree for antd Tree/TreeSelect/Table. */
export const toTree = <T extends { id: number; parent_id: number }>(rows: T[]) => {
  type Node = T & { key: number; children?: Node[] };
  const nodes = new Map<number, Node>(rows.map((r) => [r.id, { ...r, key: r.id }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = nodes.get(node.parent_id);
    if (parent) parent.children = [...(parent.children ?? []), node];
    else roots.push(node);
  }
  return roots;
};
