import { useQuery } from '@tanstack/react-query';
import { Alert, Drawer, Flex, Spin, Tabs, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveWatch } from '../../../api/live.ts';
import { stateOf } from '../../../components/states.ts';
import { deviceItemsQuery, deviceOverviewQuery } from '../api.ts';
import { DetailsTab } from './details-tab.tsx';
import { LogTab } from './log-tab.tsx';
import { OverviewTab } from './overview-tab.tsx';

// The curve tab carries ECharts: its own chunk, loaded when the tab is first shown.
const CurveTab = lazy(() => import('./curve-tab.tsx').then((m) => ({ default: m.CurveTab })));

export const deviceTabs = ['overview', 'details', 'log', 'curve'] as const;
export type DeviceTab = (typeof deviceTabs)[number];
export const isDeviceTab = (v: unknown): v is DeviceTab => (deviceTabs as readonly unknown[]).includes(v);

const tabKeys = {
  overview: 'deviceUi.tabs.overview',
  details: 'deviceUi.tabs.details',
  log: 'deviceUi.tabs.log',
  curve: 'deviceUi.tabs.curve',
} as const;

/**
 * The device pages of /station (002 §2.3 "device overview, details, log and curve"): a full-height
 * drawer over the station page, opened by `?device=<id>&tab=<tab>` so that it can be linked and
 * survives a reload while staying inside the /station page the route guard allows.
 */
export const DeviceView = ({
  deviceId,
  tab,
  onTab,
  onClose,
}: {
  deviceId: number;
  tab: DeviceTab;
  onTab: (tab: DeviceTab) => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const overview = useQuery(deviceOverviewQuery(deviceId));
  const items = useQuery(deviceItemsQuery(deviceId));
  const device = overview.data;
  useLiveWatch(device ? [device.device_group_id] : undefined);
  const state = device ? stateOf(device.state) : null;
  const width = typeof window === 'undefined' ? 1200 : Math.max(360, Math.min(1400, window.innerWidth - 200));
  return (
    <Drawer
      open
      onClose={onClose}
      size={width}
      destroyOnHidden
      title={
        <Flex gap={8} align="center" wrap>
          <Typography.Text strong>{device?.name ?? '…'}</Typography.Text>
          {device ? (
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
              {device.site_path.join(' / ')}
            </Typography.Text>
          ) : null}
          {state ? <Tag color={state.color}>{t(state.key)}</Tag> : null}
        </Flex>
      }
      styles={{ body: { paddingTop: 0 } }}
      data-testid="device-view"
    >
      {overview.isError ? <Alert type="error" showIcon title={overview.error.message} /> : null}
      {overview.isLoading ? <Spin /> : null}
      {device ? (
        <Tabs
          activeKey={tab}
          onChange={(key) => isDeviceTab(key) && onTab(key)}
          items={deviceTabs.map((key) => ({
            key,
            label: t(tabKeys[key]),
            children:
              key === 'overview' ? (
                <OverviewTab device={device} />
              ) : key === 'details' ? (
                <DetailsTab deviceId={deviceId} writable={device.writable_item_ids} />
              ) : key === 'log' ? (
                <LogTab deviceId={deviceId} />
              ) : items.data ? (
                <Suspense fallback={<Spin />}>
                  <CurveTab deviceName={device.name} items={items.data} />
                </Suspense>
              ) : (
                <Spin />
              ),
          }))}
          destroyOnHidden
        />
      ) : null}
    </Drawer>
  );
};
