import { type DeviceLogEntry, type DeviceLogKind, deviceLogKinds } from '@sitewatch/contract/device-view';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, DatePicker, Flex, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOperationLogReader } from '../../../components/operation-log-reader.ts';
import { stateOf } from '../../../components/states.ts';
import { formatTime } from '../../../components/time.ts';
import { deviceLogQuery } from '../api.ts';

const kindView = {
  state: { key: 'deviceUi.log.kindState', color: 'blue' },
  alarm: { key: 'deviceUi.log.kindAlarm', color: 'red' },
  operation: { key: 'deviceUi.log.kindOperation', color: 'green' },
} as const;

const eventKeys = {
  raise: 'deviceUi.log.events.raise',
  recover: 'deviceUi.log.events.recover',
  confirm: 'deviceUi.log.events.confirm',
  unconfirm: 'deviceUi.log.events.unconfirm',
  disable: 'deviceUi.log.events.disable',
  enable: 'deviceUi.log.events.enable',
  confirm_all: 'deviceUi.log.events.confirm_all',
  jitter_start: 'deviceUi.log.events.jitter_start',
  jitter_stop: 'deviceUi.log.events.jitter_stop',
  escalate: 'deviceUi.log.events.escalate',
  setpoint: 'deviceUi.log.events.setpoint',
  device: 'deviceUi.log.events.device',
  item: 'deviceUi.log.events.item',
} as const;
const actionKeys = {
  create: 'deviceUi.log.actions.create',
  update: 'deviceUi.log.actions.update',
  delete: 'deviceUi.log.actions.delete',
} as const;

/** Log: the device's state changes, alarm events and operations in one list, newest first. */
export const LogTab = ({ deviceId }: { deviceId: number }) => {
  const { t } = useTranslation();
  const read = useOperationLogReader();
  const [kinds, setKinds] = useState<DeviceLogKind[]>([...deviceLogKinds]);
  const [range, setRange] = useState<[dayjs.Dayjs, dayjs.Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(20);
  const log = useQuery({
    ...deviceLogQuery(deviceId, {
      kinds,
      t1: range?.[0].unix(),
      t2: range?.[1].unix(),
      page,
      limit,
    }),
    enabled: kinds.length > 0,
  });

  const event = (e: DeviceLogEntry) => {
    if (e.kind === 'state') {
      const to = t(stateOf(e.state).key);
      return e.prev_state < 0
        ? t('deviceUi.log.firstState', { to })
        : t('deviceUi.log.stateChange', { from: t(stateOf(e.prev_state).key), to });
    }
    const key = eventKeys[e.event as keyof typeof eventKeys];
    const name = key ? t(key) : e.event;
    if (e.kind === 'operation' && e.event !== 'setpoint') {
      const action = actionKeys[e.action as keyof typeof actionKeys];
      return action ? `${name} · ${t(action)}` : name;
    }
    return name;
  };

  return (
    <Flex vertical gap={12}>
      <Flex gap={16} wrap align="center">
        <Typography.Text>{t('deviceUi.log.kinds')}:</Typography.Text>
        <Checkbox.Group<DeviceLogKind>
          value={kinds}
          onChange={(v) => {
            setKinds(v);
            setPage(1);
          }}
          options={deviceLogKinds.map((k) => ({ value: k, label: t(kindView[k].key) }))}
        />
        <Typography.Text>{t('deviceUi.log.range')}:</Typography.Text>
        <DatePicker.RangePicker
          showTime
          value={range}
          onChange={(v) => {
            setRange(v?.[0] && v[1] ? [v[0], v[1]] : null);
            setPage(1);
          }}
          presets={[
            { label: t('deviceUi.curve.ranges.last24h'), value: [dayjs().subtract(1, 'day'), dayjs()] },
            { label: t('deviceUi.curve.ranges.last7d'), value: [dayjs().subtract(7, 'day'), dayjs()] },
            { label: t('deviceUi.curve.ranges.month'), value: [dayjs().startOf('month'), dayjs()] },
          ]}
        />
      </Flex>
      <Table<DeviceLogEntry>
        size="small"
        rowKey="key"
        data-testid="device-log"
        loading={log.isFetching && !log.data}
        dataSource={kinds.length ? (log.data?.data ?? []) : []}
        locale={{ emptyText: t('deviceUi.log.empty') }}
        scroll={{ x: 900 }}
        pagination={{
          current: page,
          pageSize: limit,
          total: kinds.length ? (log.data?.total ?? 0) : 0,
          showSizeChanger: true,
          onChange: (p, size) => {
            setPage(size === limit ? p : 1);
            setLimit(size);
          },
        }}
        columns={[
          {
            title: t('deviceUi.log.time'),
            width: 170,
            render: (_, e) => formatTime(e.time),
          },
          {
            title: t('deviceUi.log.kind'),
            width: 130,
            render: (_, e) => <Tag color={kindView[e.kind].color}>{t(kindView[e.kind].key)}</Tag>,
          },
          { title: t('deviceUi.log.event'), width: 200, render: (_, e) => event(e) },
          { title: t('deviceUi.log.item'), width: 180, ellipsis: true, render: (_, e) => e.item_name || '—' },
          {
            title: t('deviceUi.log.detail'),
            ellipsis: true,
            render: (_, e) => (e.kind === 'operation' ? read.detail(e.detail) : e.detail) || '—',
          },
          { title: t('deviceUi.log.user'), width: 110, render: (_, e) => e.user_name || '—' },
          {
            title: t('deviceUi.log.result'),
            width: 80,
            render: (_, e) =>
              e.kind === 'state' ? (
                '—'
              ) : e.result ? (
                <Typography.Text type="success">{t('deviceUi.log.success')}</Typography.Text>
              ) : (
                <Typography.Text type="danger">{t('deviceUi.log.failure')}</Typography.Text>
              ),
          },
        ]}
      />
    </Flex>
  );
};
