import { useQuery } from '@tanstack/react-query';
import { Button, ConfigProvider, Flex, Result, Space, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { connectLive } from '../../../api/live.ts';
import { pushClient } from '../../../api/push-client.ts';
import { queryClient } from '../../../api/query-client.ts';
import { readToken } from '../../../api/tokens.ts';
import { sitesQuery } from '../../../components/site-select.tsx';
import { normalizePage } from '../../../session/guard.ts';
import { useSession } from '../../../session/session.ts';
import { rotationQuery } from '../api.ts';
import { HeatLayer } from '../heat/heat-layer.tsx';
import { LivePicture } from '../live-view.tsx';
import { wallBackground, wallDress } from './wall-theme.ts';

/**
 * The variants of the full-screen view (002 §2.1 names /fullScreen, /fullScreen1–6 and /tuoputu;
 * the spec does not show them; docs/site-map.md "Full-screen views"): the site type shown, whether
 * the heat map is drawn, and whether an alarm pulls the screen to its site.
 */
export interface ScreenVariant {
  type: number;
  heat: boolean;
  followAlarms: boolean;
}
export const screenVariants: Record<string, ScreenVariant> = {
  fullScreen: { type: 0, heat: false, followAlarms: false },
  fullScreen1: { type: 0, heat: false, followAlarms: false },
  fullScreen2: { type: 1, heat: false, followAlarms: false },
  fullScreen3: { type: 2, heat: false, followAlarms: false },
  fullScreen4: { type: 3, heat: false, followAlarms: false },
  fullScreen5: { type: 0, heat: true, followAlarms: false },
  fullScreen6: { type: 0, heat: false, followAlarms: true },
  tuoputu: { type: 3, heat: false, followAlarms: false },
};

/**
 * The sites the screen shows, in turn: the rotation's sites when it is enabled (001 §4, at least
 * two), else the site in the address or the first site with devices.
 */
export const screenSites = (
  rotation: { enable: boolean; device_group_ids: number[] } | undefined,
  visible: readonly { id: number; has_device: boolean }[],
  asked: number,
): number[] => {
  const seen = new Set(visible.map((s) => s.id));
  const rotated = rotation?.enable ? rotation.device_group_ids.filter((id) => seen.has(id)) : [];
  if (rotated.length >= 2) return rotated;
  if (asked && seen.has(asked)) return [asked];
  const first = visible.find((s) => s.has_device) ?? visible[0];
  return first ? [first.id] : [];
};

const Screen = ({ variant }: { variant: ScreenVariant }) => {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const rotation = useQuery(rotationQuery);
  const sites = useQuery(sitesQuery);
  const visible = sites.data?.data ?? [];
  const names = useMemo(() => new Map(visible.map((s) => [s.id, s.name])), [visible]);
  const list = screenSites(rotation.data, visible, Number(search.get('device_group_id')) || 0);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [pinned, setPinned] = useState<number | null>(null);
  const rotating = list.length >= 2;
  const intervalMs = Math.max(10, rotation.data?.interval ?? 10) * 1000;

  // The carousel: the next site every interval, while not paused (001 §4 interval, ≥ 10 s).
  useEffect(() => {
    if (!rotating || paused) return;
    const timer = setInterval(() => setIndex((i) => i + 1), intervalMs);
    return () => clearInterval(timer);
  }, [rotating, paused, intervalMs]);

  // /fullScreen6: an alarm raised on a site of the screen shows that site and holds it one interval.
  useEffect(() => {
    if (!variant.followAlarms) return;
    const off = pushClient.subscribe((m) => {
      if (m.type === 'alarm' && m.event === 'raise' && names.has(m.alarm.device_group_id)) {
        setPinned(m.alarm.device_group_id);
        setIndex(0);
      }
    });
    return () => {
      off();
    };
  }, [variant.followAlarms, names]);
  useEffect(() => {
    if (pinned === null) return;
    const timer = setTimeout(() => setPinned(null), intervalMs);
    return () => clearTimeout(timer);
  }, [pinned, intervalMs]);

  if (rotation.isPending || sites.isPending) return <Spin fullscreen />;
  const site = pinned ?? list[index % Math.max(1, list.length)] ?? 0;
  return (
    <div
      data-testid="full-screen"
      data-site={site}
      style={{ minHeight: '100vh', background: wallBackground, color: '#e6f4ff' }}
    >
      <Flex justify="space-between" align="center" style={{ padding: '6px 12px' }}>
        <Typography.Title level={4} style={{ margin: 0, color: '#e6f4ff' }} data-testid="full-screen-site">
          {names.get(site) ?? ''}
        </Typography.Title>
        <Space>
          {rotating ? (
            <>
              <span data-testid="rotation-position">
                {(index % list.length) + 1} / {list.length}
              </span>
              <Button size="small" onClick={() => setPaused((p) => !p)}>
                {t(paused ? 'siteMap.rotationResume' : 'siteMap.rotationPause')}
              </Button>
              <Button size="small" onClick={() => setIndex((i) => i + 1)}>
                {t('siteMap.rotationNext')}
              </Button>
            </>
          ) : (
            <Typography.Text style={{ color: '#8fa3bf' }}>{t('siteMap.rotationOff')}</Typography.Text>
          )}
        </Space>
      </Flex>
      {site !== 0 && (
        <LivePicture
          key={site}
          site={site}
          type={variant.type}
          parent={0}
          fit="window"
          onSite={() => undefined}
          overlay={
            variant.heat
              ? (scene) => <HeatLayer records={scene.records} live={scene.live} canvas={scene.canvas} />
              : undefined
          }
        />
      )}
    </div>
  );
};

/**
 * /fullScreen, /fullScreen1–6 and /tuoputu: the live pictures alone on a screen (a wall display),
 * outside the shell. Open to whoever may open /map (menu 107); the push channel runs here too.
 */
export const FullScreenPage = ({ name }: { name: keyof typeof screenVariants }) => {
  const { t } = useTranslation();
  const { status, load, enableMenuList } = useSession();
  const hasToken = Boolean(readToken());
  useEffect(() => {
    if (hasToken && status === 'idle') void load();
  }, [hasToken, status, load]);
  useEffect(() => {
    if (status !== 'ready') return;
    const disconnect = connectLive(queryClient);
    pushClient.start();
    return () => {
      pushClient.stop();
      disconnect();
    };
  }, [status]);
  if (!hasToken) return <Navigate to="/login" replace />;
  if (status === 'error') return <Result status="error" title={t('http.network')} />;
  if (status !== 'ready') return <Spin fullscreen />;
  if (!enableMenuList.some((url) => normalizePage(url) === 'map'))
    return <Result status="403" title={t('errors.forbidden')} />;
  // Dark on every theme: the screen's navy with the theme's light-theme texts was unreadable.
  return (
    <ConfigProvider theme={wallDress}>
      <Screen variant={screenVariants[name]!} />
    </ConfigProvider>
  );
};
