import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { topViewRoutes as tv } from '@sitewatch/contract/site-map';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, Space, Switch } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../../api/client.ts';
import { SiteSelect, sitesQuery } from '../../../components/site-select.tsx';
import type { ComponentRecord } from '../../../editor/model/records.ts';
import { useSession } from '../../../session/session.ts';
import { defaultFilter, type HeatFilter, isDimmed } from '../heat/filter.ts';
import { FilterDialog } from '../heat/filter-dialog.tsx';
import { HeatLayer } from '../heat/heat-layer.tsx';
import { LivePicture } from '../live-view.tsx';

/** Site types of 001 §9 (0 aerial view, 1 device overview, 2 line diagram, 3 topology). */
export const siteTypes = [0, 1, 2, 3] as const;

/** Picks a number from the address, or the fallback. */
const numberParam = (search: URLSearchParams, key: string, fallback: number) => {
  const n = Number(search.get(key));
  return search.get(key) !== null && Number.isInteger(n) && n >= 0 ? n : fallback;
};

/**
 * /map (002 §2.1, menu 107): the chosen site's picture with live values, inside the shell. Site,
 * sub-site (首页 = 0: the home view) and site type are in the address, so a SiteButton jump or a
 * reload keeps them.
 */
export const MapPage = () => {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const sites = useQuery(sitesQuery);
  const rows = sites.data?.data ?? [];
  const first = rows.find((s) => s.has_device) ?? rows[0];
  const site = numberParam(search, 'device_group_id', 0) || first?.id || 0;
  const type = numberParam(search, 'type', 0);
  const parent = numberParam(search, 'parent_id', 0);
  const [heat, setHeat] = useState(false);
  const [filter, setFilter] = useState<HeatFilter>(defaultFilter);
  const [filterOpen, setFilterOpen] = useState(false);
  // Device categories for the functional filter, read only while the heat map is on.
  const devices = useQuery({
    queryKey: ['site-map', 'devices', site],
    queryFn: () => api.call(monitoringRoutes.listDevices, { query: { device_group_id: site, page: 1, limit: 1000 } }),
    enabled: heat && site !== 0,
  });
  const categories = useMemo(() => new Map((devices.data?.data ?? []).map((d) => [d.id, d.code])), [devices.data]);
  const dimmed = useCallback(
    (r: ComponentRecord) => isDimmed(r, r.device_id ? categories.get(r.device_id) : undefined, filter),
    [categories, filter],
  );
  const canEdit = useSession((s) => s.enableMenuList.includes('/groupmap_edit'));
  // The editor opens in its own window with a one-time ticket, never the session token (000 §2.4).
  const openEditor = async () => {
    const editorWindow = window.open('about:blank', '_blank');
    const { ticket } = await api.call(tv.mintTicket, { body: {} });
    if (editorWindow) editorWindow.location.href = `/groupmap_edit?id=${site}&type=${type}&token=${ticket}`;
  };
  const subSites = useMemo(() => rows.filter((s) => s.parent_id === site && site !== 0), [rows, site]);

  const go = (next: { site?: number; type?: number; parent?: number }) => {
    const params = new URLSearchParams(search);
    params.set('device_group_id', String(next.site ?? site));
    params.set('type', String(next.type ?? type));
    params.set('parent_id', String(next.site !== undefined ? 0 : (next.parent ?? parent)));
    setSearch(params);
  };
  // The first site with devices until the user picks one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the site list arrives
  useEffect(() => {
    if (!search.get('device_group_id') && first) go({ site: first.id });
  }, [first?.id]);

  return (
    <div data-testid="site-map">
      <Flex wrap gap={8} align="center" style={{ marginBottom: 12 }}>
        <SiteSelect value={site || null} onChange={(v) => v && go({ site: v })} ariaLabel={t('siteMap.site')} />
        <Select
          aria-label={t('siteMap.subSite')}
          value={parent}
          style={{ minWidth: 140 }}
          onChange={(v) => go({ parent: v })}
          options={[{ value: 0, label: t('siteMap.home') }, ...subSites.map((s) => ({ value: s.id, label: s.name }))]}
        />
        <Select
          aria-label={t('siteMap.siteType')}
          value={type}
          style={{ minWidth: 140 }}
          onChange={(v) => go({ type: v })}
          options={siteTypes.map((v) => ({ value: v, label: t(`siteMap.siteTypes.${v}`) }))}
        />
        <Space>
          <Switch checked={heat} onChange={setHeat} aria-label={t('siteMap.heat.toggle')} />
          {t('siteMap.heat.toggle')}
          {heat && <Button onClick={() => setFilterOpen(true)}>{t('siteMap.heat.filter')}</Button>}
        </Space>
        <Space>
          {canEdit && site !== 0 && <Button onClick={() => void openEditor()}>{t('siteMap.edit')}</Button>}
          <Button onClick={() => window.open(`/fullScreen?device_group_id=${site}`, '_blank')}>
            {t('siteMap.fullScreen')}
          </Button>
        </Space>
      </Flex>
      {site !== 0 && (
        <LivePicture
          site={site}
          type={type}
          parent={parent}
          onSite={(s) => go({ site: s })}
          dimmed={heat ? dimmed : undefined}
          overlay={
            heat && filter.mode === 'cloud'
              ? (scene) => <HeatLayer records={scene.records} live={scene.live} canvas={scene.canvas} />
              : undefined
          }
        />
      )}
      <FilterDialog open={filterOpen} value={filter} onClose={() => setFilterOpen(false)} onChange={setFilter} />
    </div>
  );
};
