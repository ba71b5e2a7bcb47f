import { type IfMetric, monitoringRoutes, monitorState } from '@sitewatch/contract/monitoring';
import {
  type NetworkDeviceSummary,
  networkRoutes,
  type PortMetric,
  type PortRow,
  type WalkedPort,
} from '@sitewatch/contract/network';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Modal,
  Row,
  Space,
  Spin,
  Statistic,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { useLiveWatch } from '../../../api/live.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { stateOf } from '../../../components/states.ts';
import { formatTime } from '../../../components/time.ts';
import { networkOverviewQuery, portNetQuery } from '../api.ts';

/** Bits per second with the unit an operator reads (bit/s, kbit/s, Mbit/s, Gbit/s). */
export const formatBps = (bps: number | null | undefined) => {
  if (bps === null || bps === undefined) return '–';
  const units = ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s'];
  let v = bps;
  let u = 0;
  while (Math.abs(v) >= 1000 && u < units.length - 1) {
    v /= 1000;
    u += 1;
  }
  return `${v >= 100 || u === 0 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
};

const formatSpeed = (mbps: number | null | undefined) =>
  mbps === null || mbps === undefined ? '–' : formatBps(mbps * 1e6);

const ifStatusKeys = {
  1: 'networkUi.status.up',
  2: 'networkUi.status.down',
  3: 'networkUi.status.testing',
  4: 'networkUi.status.unknown',
  5: 'networkUi.status.dormant',
  6: 'networkUi.status.notPresent',
  7: 'networkUi.status.lowerLayerDown',
} as const;

const current = (m: PortMetric | undefined) =>
  m && m.state !== monitorState.unknown && m.state !== monitorState.notReady ? m.value : null;

const colors = { up: '#52c41a', down: '#f5222d', shut: '#bfbfbf', unknown: '#8c8c8c' } as const;

/** How a port is drawn: shut down (grey), down (red), up (green), or not known yet. */
const portLook = (port: PortRow) => {
  const admin = current(port.metrics.admin_status);
  const oper = current(port.metrics.oper_status);
  const down = current(port.metrics.port_down);
  const alarmed =
    port.alarm ||
    Object.values(port.metrics).some(
      (m) =>
        m &&
        (m.state === monitorState.abnormal || m.state === monitorState.warning || m.state === monitorState.serious),
    );
  if (admin === 2) return { key: 'networkUi.portShut', color: colors.shut, alarmed } as const;
  if (down === 1 || (admin === 1 && oper !== null && oper !== 1 && oper !== 5))
    return { key: 'networkUi.portDown', color: colors.down, alarmed } as const;
  if (oper === 1 || oper === 5) return { key: 'networkUi.portUp', color: colors.up, alarmed } as const;
  return { key: 'monitoringUi.state.unknown', color: colors.unknown, alarmed } as const;
};

const PortTile = ({ port, onOpen }: { port: PortRow; onOpen: (port: PortRow) => void }) => {
  const { t } = useTranslation();
  const look = portLook(port);
  const inBps = current(port.metrics.in_bps);
  const outBps = current(port.metrics.out_bps);
  const label = `${port.name || `#${port.if_index}`}: ${t(look.key)}`;
  return (
    <Tooltip title={`${label} · ↓ ${formatBps(inBps)} · ↑ ${formatBps(outBps)}`}>
      <button
        type="button"
        aria-label={label}
        data-testid={`port-${port.if_index}`}
        onClick={() => onOpen(port)}
        style={{
          width: 112,
          padding: '6px 8px',
          textAlign: 'left',
          cursor: 'pointer',
          background: 'transparent',
          borderRadius: 6,
          border: `2px solid ${look.alarmed ? '#fa541c' : 'rgba(128,128,128,0.35)'}`,
          borderLeft: `8px solid ${look.color}`,
          color: 'inherit',
        }}
      >
        <Typography.Text strong ellipsis style={{ display: 'block', fontSize: 12 }}>
          {port.name || `#${port.if_index}`}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 11 }}>
          ↓ {formatBps(inBps)}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 11 }}>
          ↑ {formatBps(outBps)}
        </Typography.Text>
      </button>
    </Tooltip>
  );
};

/** The rows of the port drawer, in reading order. */
const detailRows = [
  { metric: 'admin_status', key: 'networkUi.adminStatus', show: (v) => String(v) },
  { metric: 'oper_status', key: 'networkUi.operStatus', show: (v) => String(v) },
  { metric: 'port_down', key: 'networkUi.portDownMetric', show: (v) => String(v) },
  { metric: 'speed_mbps', key: 'networkUi.speed', show: (v) => formatSpeed(v) },
  { metric: 'in_bps', key: 'networkUi.inTraffic', show: (v) => formatBps(v) },
  { metric: 'out_bps', key: 'networkUi.outTraffic', show: (v) => formatBps(v) },
  { metric: 'in_util', key: 'networkUi.inUtil', show: (v) => `${v.toFixed(1)} %` },
  { metric: 'out_util', key: 'networkUi.outUtil', show: (v) => `${v.toFixed(1)} %` },
  { metric: 'in_errors', key: 'networkUi.inErrors', show: (v) => `${v.toFixed(2)} /s` },
  { metric: 'out_errors', key: 'networkUi.outErrors', show: (v) => `${v.toFixed(2)} /s` },
  { metric: 'in_discards', key: 'networkUi.inDiscards', show: (v) => `${v.toFixed(2)} /s` },
  { metric: 'out_discards', key: 'networkUi.outDiscards', show: (v) => `${v.toFixed(2)} /s` },
] as const satisfies ReadonlyArray<{ metric: IfMetric; key: string; show: (v: number) => string }>;

const PortDrawer = ({ port, onClose }: { port: PortRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const statusText = (v: number) => {
    const key = ifStatusKeys[v as keyof typeof ifStatusKeys];
    return key ? `${v} · ${t(key)}` : String(v);
  };
  return (
    <Drawer
      open={port !== null}
      onClose={onClose}
      width={460}
      title={port ? `${port.name} (ifIndex ${port.if_index})` : ''}
    >
      {port ? (
        <Descriptions column={1} size="small" bordered>
          {detailRows
            .filter((row) => port.metrics[row.metric])
            .map((row) => {
              const m = port.metrics[row.metric]!;
              const state = stateOf(m.state);
              const isStatus = row.metric === 'admin_status' || row.metric === 'oper_status';
              return (
                <Descriptions.Item key={row.metric} label={t(row.key)}>
                  <Space wrap>
                    <span>{m.value === null ? '–' : isStatus ? statusText(m.value) : row.show(m.value)}</span>
                    <Tag color={state.color}>{t(state.key)}</Tag>
                    {m.info ? <Typography.Text type="secondary">{m.info}</Typography.Text> : null}
                  </Space>
                </Descriptions.Item>
              );
            })}
        </Descriptions>
      ) : null}
    </Drawer>
  );
};

/** The items a port gets: a port-down alarm, utilisation alarms above 80 %, the rest recorded. */
const portPlan: Array<{ metric: IfMetric; unit: string; alarm?: 'down' | 'util' }> = [
  { metric: 'port_down', unit: '', alarm: 'down' },
  { metric: 'admin_status', unit: '' },
  { metric: 'oper_status', unit: '' },
  { metric: 'speed_mbps', unit: 'Mbit/s' },
  { metric: 'in_bps', unit: 'bit/s' },
  { metric: 'out_bps', unit: 'bit/s' },
  { metric: 'in_util', unit: '%', alarm: 'util' },
  { metric: 'out_util', unit: '%', alarm: 'util' },
  { metric: 'in_errors', unit: '/s' },
  { metric: 'out_errors', unit: '/s' },
  { metric: 'in_discards', unit: '/s' },
  { metric: 'out_discards', unit: '/s' },
];

const itemFor = (deviceId: number, port: WalkedPort, step: (typeof portPlan)[number]) => {
  const status = step.metric === 'port_down' || step.metric === 'admin_status' || step.metric === 'oper_status';
  const thresholds =
    step.alarm === 'down'
      ? { status_threshold: '1' }
      : step.alarm === 'util'
        ? { threshold_min: 0, threshold_max: 80, recovery_point: 5, overrun_point: 0 }
        : { telemetry_only: true };
  return {
    device_id: deviceId,
    name: `${port.name || `if${port.if_index}`} ${step.metric}`.slice(0, 64),
    item_cell_name: (port.name || `if${port.if_index}`).slice(0, 64),
    unit: step.unit,
    value_type: status ? (0 as const) : (1 as const),
    source: { kind: 'snmp-ifmib' as const, if_index: port.if_index, metric: step.metric },
    ...thresholds,
  };
};

/** Walks the agent now and adds the items of the chosen ports (those they do not have yet). */
const AddPortsModal = ({ deviceId, open, onClose }: { deviceId: number; open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [selected, setSelected] = useState<number[]>([]);
  const statusText = (v: number | null) => {
    const key = v === null ? undefined : ifStatusKeys[v as keyof typeof ifStatusKeys];
    return key ? t(key) : (v ?? '–');
  };
  const walk = useQuery({
    queryKey: ['network', 'walk', deviceId],
    queryFn: () => api.call(networkRoutes.walk, { query: { device_id: deviceId } }),
    enabled: open,
    staleTime: 0,
    retry: false,
  });
  const add = useMutation({
    mutationFn: async () => {
      let added = 0;
      for (const port of walk.data?.ports ?? []) {
        if (!selected.includes(port.if_index)) continue;
        for (const step of portPlan) {
          if (port.metrics.includes(step.metric)) continue;
          await api.call(monitoringRoutes.createItem, { body: itemFor(deviceId, port, step) });
          added += 1;
        }
      }
      return added;
    },
    onSuccess: (added) => {
      void message.success(t('networkUi.itemsAdded', { count: added }));
      void client.invalidateQueries({ queryKey: ['network'] });
      setSelected([]);
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={t('networkUi.addPorts')}
      width={760}
      onCancel={onClose}
      okText={t('networkUi.addItems')}
      okButtonProps={{ disabled: selected.length === 0, loading: add.isPending }}
      onOk={() => add.mutate()}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('networkUi.addPortsHint')}</Typography.Paragraph>
      <Table<WalkedPort>
        size="small"
        rowKey="if_index"
        loading={walk.isLoading}
        dataSource={walk.data?.ports ?? []}
        pagination={false}
        scroll={{ y: 360 }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        columns={[
          { title: 'ifIndex', dataIndex: 'if_index', width: 80 },
          { title: t('networkUi.port'), dataIndex: 'name' },
          { title: t('networkUi.description'), render: (_, p) => p.alias || p.descr },
          { title: t('networkUi.adminStatus'), render: (_, p) => statusText(p.admin_status), width: 90 },
          { title: t('networkUi.operStatus'), render: (_, p) => statusText(p.oper_status), width: 90 },
          { title: t('networkUi.speed'), render: (_, p) => formatSpeed(p.speed_mbps), width: 110 },
          { title: t('networkUi.items'), render: (_, p) => `${p.metrics.length}/${portPlan.length}`, width: 70 },
        ]}
      />
    </Modal>
  );
};

const DeviceCard = ({ device }: { device: NetworkDeviceSummary }) => {
  const { t } = useTranslation();
  const ports = useQuery(portNetQuery(device.id));
  const [open, setOpen] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const live = ports.data?.device ?? device;
  const rows = ports.data?.ports ?? [];
  const state = stateOf(live.state);
  const openPort = rows.find((p) => p.if_index === open) ?? null;
  // The counts and traffic of the header follow the live port values once the ports are loaded.
  const counts = useMemo(() => {
    if (!ports.data) return device;
    const looks = rows.map(portLook);
    const sum = (m: 'in_bps' | 'out_bps') => {
      const values = rows.map((p) => current(p.metrics[m])).filter((v): v is number => v !== null);
      return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
    };
    return {
      ports_up: looks.filter((l) => l.key === 'networkUi.portUp').length,
      ports_down: looks.filter((l) => l.key === 'networkUi.portDown').length,
      ports_admin_down: looks.filter((l) => l.key === 'networkUi.portShut').length,
      in_bps: sum('in_bps'),
      out_bps: sum('out_bps'),
    };
  }, [ports.data, rows, device]);
  return (
    <Card
      size="small"
      data-testid={`network-device-${device.id}`}
      title={
        <Space wrap>
          <Typography.Text strong>{device.name}</Typography.Text>
          <Tag color={state.color}>{t(state.key)}</Tag>
          <Typography.Text type="secondary">
            {device.device_group_name} · {device.ip}
          </Typography.Text>
        </Space>
      }
      extra={
        <Space wrap size="middle">
          <span>
            {t('networkUi.portUp')}: <b>{counts.ports_up}</b>
          </span>
          <span>
            {t('networkUi.portDown')}:{' '}
            <b style={{ color: counts.ports_down ? colors.down : undefined }}>{counts.ports_down}</b>
          </span>
          <span>
            {t('networkUi.portShut')}: <b>{counts.ports_admin_down}</b>
          </span>
          <span>
            ↓ {formatBps(counts.in_bps)} · ↑ {formatBps(counts.out_bps)}
          </span>
          <Badge count={device.alarms} showZero={false} title={t('networkUi.alarms')} />
          <Button size="small" onClick={() => setAdding(true)}>
            {t('networkUi.addPorts')}
          </Button>
        </Space>
      }
    >
      {live.state_reason ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {live.state_reason}
        </Typography.Paragraph>
      ) : null}
      {ports.isLoading ? (
        <Spin />
      ) : rows.length === 0 ? (
        <Typography.Text type="secondary">{t('networkUi.noPorts')}</Typography.Text>
      ) : (
        <Flex wrap gap={8}>
          {rows.map((p) => (
            <PortTile key={p.if_index} port={p} onOpen={(port) => setOpen(port.if_index)} />
          ))}
        </Flex>
      )}
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8, fontSize: 12 }}>
        {t('networkUi.lastUpdate')}: {device.last_update ? formatTime(device.last_update) : '–'}
      </Typography.Text>
      <PortDrawer port={openPort} onClose={() => setOpen(null)} />
      <AddPortsModal deviceId={device.id} open={adding} onClose={() => setAdding(false)} />
    </Card>
  );
};

/**
 * /network_device (002 §2.1; docs/network-devices.md): the network devices of the granted sites,
 * each with its port grid. Port values and states arrive by push as they are read.
 */
export const NetworkDevicePage = () => {
  const { t } = useTranslation();
  const [siteId, setSiteId] = useState<number | null>(null);
  const overview = useQuery(networkOverviewQuery(siteId));
  const devices = overview.data?.data ?? [];
  const sites = useMemo(() => [...new Set(devices.map((d) => d.device_group_id))], [devices]);
  useLiveWatch(overview.data ? sites : undefined);

  return (
    <Flex vertical gap={12} style={{ padding: 16 }}>
      <Flex wrap gap={16} align="center" justify="space-between">
        <Space wrap size="large">
          <Statistic title={t('networkUi.devices')} value={overview.data?.total ?? 0} />
          <Statistic title={t('networkUi.ports')} value={overview.data?.ports ?? 0} />
          <Statistic
            title={t('networkUi.portDown')}
            value={overview.data?.ports_down ?? 0}
            valueStyle={overview.data?.ports_down ? { color: '#f5222d' } : undefined}
          />
          <Statistic title={t('networkUi.alarms')} value={overview.data?.alarms ?? 0} />
        </Space>
        <div style={{ minWidth: 240 }}>
          <SiteSelect
            value={siteId}
            onChange={setSiteId}
            allowClear
            placeholder={t('networkUi.allSites')}
            ariaLabel={t('networkUi.site')}
          />
        </div>
      </Flex>
      <Space wrap size="middle">
        {(
          [
            ['networkUi.portUp', colors.up],
            ['networkUi.portDown', colors.down],
            ['networkUi.portShut', colors.shut],
          ] as const
        ).map(([key, color]) => (
          <Space key={key} size={4}>
            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: color }} />
            <Typography.Text type="secondary">{t(key)}</Typography.Text>
          </Space>
        ))}
        <Typography.Text type="secondary">{t('networkUi.alarmLegend')}</Typography.Text>
      </Space>
      {overview.isLoading ? (
        <Spin />
      ) : devices.length === 0 ? (
        <Empty description={t('networkUi.empty')} />
      ) : (
        <Row gutter={[12, 12]}>
          {devices.map((d) => (
            <Col span={24} key={d.id}>
              <DeviceCard device={d} />
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
};
