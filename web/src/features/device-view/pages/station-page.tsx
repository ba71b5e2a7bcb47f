import { formatValue } from '@sitewatch/contract';
import {
  type LiveDevice,
  type LiveItem,
  type SiteTreeNode,
  virtualDeviceGroupId,
} from '@sitewatch/contract/monitoring';
import { useQuery } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Input,
  Row,
  Spin,
  Tag,
  Tree,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLiveWatch } from '../../../api/live.ts';
import { stateOf, valueColor } from '../../../components/states.ts';
import { formatTime } from '../../../components/time.ts';
import { itemSeriesQuery, liveDataQuery, siteMenuQuery } from '../api.ts';
import { DeviceView, isDeviceTab } from '../components/device-view.tsx';
import { Sparkline } from '../components/sparkline.tsx';

type TreeNode = { key: number; title: string; children: TreeNode[] };

const toTreeData = (nodes: SiteTreeNode[]): TreeNode[] =>
  nodes.map((n) => ({
    key: n.id,
    title: n.abnormal_count ? `${n.name} (${n.abnormal_count}/${n.device_count})` : `${n.name} (${n.device_count})`,
    children: toTreeData(n.children),
  }));

const formatItemValue = (item: LiveItem) => formatValue(item.value, item);

const ItemRow = ({ item, onOpen }: { item: LiveItem; onOpen: (item: LiveItem) => void }) => {
  const { t } = useTranslation();
  const state = stateOf(item.state);
  return (
    <Flex
      justify="space-between"
      align="center"
      gap={8}
      role="button"
      tabIndex={0}
      aria-label={item.name}
      style={{ cursor: 'pointer', padding: '2px 0' }}
      onClick={() => onOpen(item)}
      onKeyDown={(e) => e.key === 'Enter' && onOpen(item)}
      data-testid={`item-${item.id}`}
    >
      <Typography.Text ellipsis style={{ flex: 1 }}>
        {item.name}
      </Typography.Text>
      <Typography.Text strong style={{ color: valueColor(item.state, item.alarm_color) }}>
        {formatItemValue(item)}
      </Typography.Text>
      {/* An item in alarm (abnormal, or a point fault while it cannot be read) is marked; the tag says why. */}
      {item.alarm ? <Badge color={item.alarm_color || '#cf1322'} data-testid={`item-alarm-${item.id}`} /> : null}
      <Tag color={state.color} title={item.info || undefined} style={{ marginInlineEnd: 0 }}>
        {t(state.key)}
      </Tag>
    </Flex>
  );
};

const DeviceCard = ({
  device,
  onOpen,
  onOpenDevice,
}: {
  device: LiveDevice;
  onOpen: (item: LiveItem) => void;
  onOpenDevice: (deviceId: number) => void;
}) => {
  const { t } = useTranslation();
  const state = stateOf(device.state);
  const alarms = device.items.filter((i) => i.alarm).length;
  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center">
          <span>{device.name}</span>
          {/* Beside the name, not over it. */}
          <Badge count={alarms} size="small" />
        </Flex>
      }
      extra={
        <Flex gap={4} align="center">
          <Tag color={state.color} title={device.state_reason} style={{ marginInlineEnd: 0 }}>
            {t(state.key)}
          </Tag>
          <Button
            type="link"
            size="small"
            onClick={() => onOpenDevice(device.id)}
            aria-label={`${t('deviceUi.open')} ${device.name}`}
          >
            {t('deviceUi.open')}
          </Button>
        </Flex>
      }
      data-testid={`device-${device.id}`}
    >
      {device.state_reason ? (
        <Typography.Paragraph type="secondary" ellipsis style={{ marginBottom: 4 }}>
          {device.state_reason}
        </Typography.Paragraph>
      ) : null}
      {device.items.map((item) => (
        <ItemRow key={item.id} item={item} onOpen={onOpen} />
      ))}
    </Card>
  );
};

const ItemDrawer = ({ item, onClose }: { item: LiveItem | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const [t2] = useState(() => Math.floor(Date.now() / 1000));
  const series = useQuery({ ...itemSeriesQuery(item?.id ?? 0, t2 - 86_400, t2), enabled: Boolean(item) });
  return (
    <Drawer open={Boolean(item)} onClose={onClose} title={item?.name} size={560}>
      {item ? (
        <Flex vertical gap={16}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('monitoringUi.station.value')}>{formatItemValue(item)}</Descriptions.Item>
            <Descriptions.Item label={t('monitoringUi.station.state')}>{t(stateOf(item.state).key)}</Descriptions.Item>
            <Descriptions.Item label={t('monitoringUi.station.lastCheck')}>
              {formatTime(item.last_check)}
            </Descriptions.Item>
            {item.info ? (
              <Descriptions.Item label={t('monitoringUi.station.info')}>{item.info}</Descriptions.Item>
            ) : null}
          </Descriptions>
          <Typography.Title level={5}>{t('monitoringUi.station.last24h')}</Typography.Title>
          {series.isLoading ? <Spin /> : <Sparkline points={series.data?.points ?? []} />}
        </Flex>
      ) : null}
    </Drawer>
  );
};

/** /station: the site tree, the devices of the chosen site with their state, and each device's live items. */
export const StationPage = () => {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const menu = useQuery(siteMenuQuery);
  const [filter, setFilter] = useState('');
  const [open, setOpen] = useState<LiveItem | null>(null);
  const firstSite = menu.data?.[0]?.id;
  const siteId = Number(params.get('device_group_id') ?? firstSite ?? virtualDeviceGroupId);
  const live = useQuery({ ...liveDataQuery(siteId), enabled: menu.isSuccess });
  // New values and states of the shown devices' sites arrive by push.
  const watched = useMemo(
    () => (live.data ? [...new Set(live.data.map((d) => d.device_group_id))] : undefined),
    [live.data],
  );
  useLiveWatch(watched);
  const treeData = useMemo(() => toTreeData(menu.data ?? []), [menu.data]);
  const openDevice = Number(params.get('device') ?? 0);
  const tabParam = params.get('tab');
  const deviceTab = isDeviceTab(tabParam) ? tabParam : 'overview';
  // The device view keeps the site in the URL, so closing it returns to the same cards.
  const showDevice = (deviceId: number | null, tab = 'overview') => {
    const next = new URLSearchParams(params);
    if (deviceId) {
      next.set('device', String(deviceId));
      next.set('tab', tab);
    } else {
      next.delete('device');
      next.delete('tab');
    }
    setParams(next);
  };
  const devices = (live.data ?? []).filter(
    (d) =>
      !filter || d.name.toLowerCase().includes(filter.toLowerCase()) || d.items.some((i) => i.name.includes(filter)),
  );
  return (
    <Row gutter={16} wrap={false} style={{ minHeight: '100%' }}>
      <Col flex="260px">
        <Card size="small" title={t('monitoringUi.station.sites')}>
          {menu.isLoading ? (
            <Spin />
          ) : (
            <Tree<TreeNode>
              treeData={treeData}
              defaultExpandAll
              selectedKeys={[siteId]}
              onSelect={(keys) => {
                const key = keys[0];
                if (key !== undefined) setParams({ device_group_id: String(key) });
              }}
            />
          )}
        </Card>
      </Col>
      <Col flex="auto">
        <Flex vertical gap={12}>
          <Input.Search
            allowClear
            placeholder={t('monitoringUi.station.search')}
            onSearch={setFilter}
            style={{ maxWidth: 320 }}
          />
          {live.isLoading ? <Spin /> : null}
          {live.isSuccess && devices.length === 0 ? <Empty description={t('monitoringUi.station.noDevices')} /> : null}
          <Row gutter={[12, 12]}>
            {devices.map((d) => (
              <Col key={d.id} xs={24} md={12} xl={8} xxl={6}>
                <DeviceCard device={d} onOpen={setOpen} onOpenDevice={(id) => showDevice(id)} />
              </Col>
            ))}
          </Row>
        </Flex>
      </Col>
      <ItemDrawer item={open} onClose={() => setOpen(null)} />
      {openDevice > 0 ? (
        <DeviceView
          deviceId={openDevice}
          tab={deviceTab}
          onTab={(tab) => showDevice(openDevice, tab)}
          onClose={() => showDevice(null)}
        />
      ) : null}
    </Row>
  );
};
