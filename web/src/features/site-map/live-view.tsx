import { useQuery } from '@tanstack/react-query';
import { App, Empty, Spin, theme } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLiveWatch } from '../../api/live.ts';
import { sitesQuery } from '../../components/site-select.tsx';
import type { ComponentRecord } from '../../editor/model/records.ts';
import { pictureQuery } from './api.ts';
import { sceneFromPicture } from './picture.ts';
import { SceneView } from './render/scene-view.tsx';

/** Names of every site the user sees, by id (SiteName, SiteButton). */
export const useSiteNames = () => {
  const sites = useQuery(sitesQuery);
  return useMemo(() => new Map((sites.data?.data ?? []).map((s) => [s.id, s.name])), [sites.data]);
};

/** The width of an element, followed as it changes. */
const useWidth = (ref: React.RefObject<HTMLElement | null>) => {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
};

/**
 * Where a click on a live component goes (001 §4): its events first (alert, redirect, callback),
 * then a SiteButton's target site, then its link. A device's stored link `/station?deviceId=N`
 * opens the station page on that device (the station page names it `device`).
 */
export const useActivate = (site: number, onSite: (site: number) => void) => {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  return useCallback(
    (record: ComponentRecord) => {
      for (const event of record.events) {
        if (event.kind === 'alert') void modal.info({ content: event.value });
        else if (event.kind === 'redirect') {
          if (/^https?:/i.test(event.value)) window.open(event.value, '_blank', 'noopener');
          else navigate(event.value);
          return;
        }
        // A callback names a function of the original product; nothing here runs code by name.
      }
      if (record.kind === 'SiteButton' && record.style.link_group_id) return onSite(record.style.link_group_id);
      const station = record.link.match(/^\/station\?deviceId=(\d+)$/);
      if (station) return navigate(`/station?device_group_id=${record.device_group_id ?? site}&device=${station[1]}`);
      if (/^https?:/i.test(record.link)) window.open(record.link, '_blank', 'noopener');
      else if (record.link) navigate(record.link);
    },
    [navigate, modal, site, onSite],
  );
};

/**
 * The live picture of one site, site type and sub-site, fitted to the width it is given: values
 * patched by push, the abnormal image following each alarm push (docs/site-map.md "Live views").
 */
export const LivePicture = ({
  site,
  type,
  parent,
  onSite,
  fit = 'width',
  overlay,
  dimmed,
}: {
  site: number;
  type: number;
  parent: number;
  onSite: (site: number) => void;
  /** Fit to the width, or to the whole window (full screen). */
  fit?: 'width' | 'window';
  overlay?: (scene: ReturnType<typeof sceneFromPicture>) => React.ReactNode;
  dimmed?: (record: ComponentRecord) => boolean;
}) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const picture = useQuery(pictureQuery(site, type, parent));
  useLiveWatch([site]);
  const siteNames = useSiteNames();
  const activate = useActivate(site, onSite);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const scene = useMemo(() => (picture.data ? sceneFromPicture(picture.data) : null), [picture.data]);
  const shown = scene && picture.data?.background ? scene : null;
  const byWidth = shown && width > 0 ? width / shown.canvas.width : 1;
  // Full screen: the whole picture below whatever sits above it (the screen's title bar).
  const room = window.innerHeight - (box.current?.getBoundingClientRect().top ?? 0);
  const zoom = shown && fit === 'window' ? Math.min(byWidth, room / shown.canvas.height) : byWidth;
  return (
    <div
      ref={box}
      style={{ width: '100%', height: shown ? shown.canvas.height * zoom : undefined, overflow: 'hidden' }}
    >
      {picture.isPending ? (
        <Spin />
      ) : !shown ? (
        // colorTextSecondary, not Empty's own colorTextDescription (3.4 : 1 on a light theme's card).
        <Empty
          description={<span style={{ color: token.colorTextSecondary }}>{t('siteMap.noPicture')}</span>}
          data-testid="site-map-empty"
        />
      ) : (
        <SceneView
          records={shown.records}
          canvas={shown.canvas}
          live={shown.live}
          siteName={siteNames.get(site) ?? ''}
          siteNames={siteNames}
          interactive
          animate
          onActivate={activate}
          dimmed={dimmed}
          zoom={zoom}
        >
          {overlay?.(shown)}
        </SceneView>
      )}
    </div>
  );
};
