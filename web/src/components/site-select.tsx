import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { api } from '../api/client.ts';

/** Every site the user may see (the site tree of the pickers; the monitoring pages share the key). */
export const sitesQuery = queryOptions({
  queryKey: ['monitoring', 'sites'],
  queryFn: () => api.call(monitoringRoutes.listSites, { query: { page: 1, limit: 1000 } }),
});

type Node = { value: number; title: string; children: Node[]; disabled?: boolean };

/** A site picker over the site tree; `devicesOnly` disables sites that do not mount devices. */
export const SiteSelect = ({
  id,
  value,
  onChange,
  devicesOnly = false,
  exclude,
  allowClear,
  placeholder,
  ariaLabel,
}: {
  /** Set by a Form.Item, so that its label names the picker. */
  id?: string;
  value?: number | null;
  onChange?: (value: number | null) => void;
  devicesOnly?: boolean;
  exclude?: number;
  allowClear?: boolean;
  placeholder?: string;
  /** Accessible name when the picker has no visible label. */
  ariaLabel?: string;
}) => {
  const sites = useQuery(sitesQuery);
  const tree = useMemo(() => {
    const rows = (sites.data?.data ?? []).filter((s) => s.id !== exclude);
    const nodes = new Map<number, Node>(
      rows.map((s) => [s.id, { value: s.id, title: s.name, children: [], disabled: devicesOnly && !s.has_device }]),
    );
    const roots: Node[] = [];
    for (const s of rows) {
      const node = nodes.get(s.id)!;
      const parent = nodes.get(s.parent_id);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return roots;
  }, [sites.data, devicesOnly, exclude]);
  return (
    <TreeSelect
      id={id}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      treeData={tree}
      treeDefaultExpandAll
      allowClear={allowClear}
      placeholder={placeholder}
      aria-label={ariaLabel}
      style={{ minWidth: 200 }}
    />
  );
};
