import { type ServiceState, syncdInput, timeInput, timeNetworkMessages } from '@sitewatch/contract/time-network';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Flex,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { servicesQuery, timeQuery, useServiceAction, useSetNtp, useSetTime } from '../api.ts';
import { HostNotice } from '../components/host-notice.tsx';

/** The box's clock as it runs: the time the server gave, moved on by the browser's second ticks. */
const useTicking = (time: number | undefined) => {
  const [base, setBase] = useState(() => ({ time: time ?? 0, at: Date.now() }));
  const [, setTick] = useState(0);
  useEffect(() => {
    if (time !== undefined) setBase({ time, at: Date.now() });
  }, [time]);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return base.time + Math.floor((Date.now() - base.at) / 1000);
};

const zones = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return ['Etc/UTC', 'Asia/Shanghai'];
  }
})();

const Services = ({ canEdit }: { canEdit: boolean }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useQuery(servicesQuery);
  const act = useServiceAction();
  const run = (row: ServiceState, action: 'start' | 'stop' | 'restart') =>
    act.mutate(
      { name: row.name, action },
      {
        onSuccess: () => void message.success(t('common.operationSuccess')),
        onError: (err) => void message.error(err instanceof ApiError ? err.message : t('common.operationFailed')),
      },
    );
  const color = { running: 'green', stopped: 'red', absent: 'default', unknown: 'orange' } as const;
  return (
    <Card size="small" title={t('timeNetworkPage.services')}>
      <Table
        size="small"
        rowKey="name"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { title: t('timeNetworkPage.serviceName'), render: (_, row) => t(`timeNetworkPage.service.${row.name}`) },
          {
            title: t('timeNetworkPage.serviceState'),
            width: 120,
            render: (_, row) => <Tag color={color[row.state]}>{t(`timeNetworkPage.state.${row.state}`)}</Tag>,
          },
          {
            title: t('timeNetworkPage.serviceNote'),
            render: (_, row) =>
              row.name === 'notifier'
                ? t('timeNetworkPage.notifierFixed')
                : row.host.available || row.state === 'absent'
                  ? row.state === 'absent'
                    ? t('timeNetworkPage.absent')
                    : ''
                  : t(`timeNetwork.${row.host.reason ?? 'failed'}`, { detail: row.host.detail || '-' }),
          },
          {
            title: t('timeNetworkPage.actions'),
            width: 240,
            render: (_, row) => {
              const can = canEdit && row.host.available;
              return (
                <Space size={4}>
                  {(['start', 'stop', 'restart'] as const).map((action) => (
                    <Button
                      key={action}
                      size="small"
                      danger={action === 'stop'}
                      disabled={!can || (action === 'start' && row.state === 'running')}
                      loading={act.isPending && act.variables?.name === row.name && act.variables.action === action}
                      onClick={() => run(row, action)}
                    >
                      {t(`timeNetworkPage.${action}`)}
                    </Button>
                  ))}
                </Space>
              );
            },
          },
        ]}
      />
    </Card>
  );
};

/** /setting_time (menu 416; 002 §2.1, §7.1 setting/time, time/syncd, service): zone, clock, NTP, services. */
export const TimePage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const state = useQuery(timeQuery);
  const canEdit = useCan('/setting_time', 'edit');
  const setTime = useSetTime();
  const setNtp = useSetNtp();
  const [zone, setZone] = useState<string | null>(null);
  const [when, setWhen] = useState<Dayjs | null>(null);
  const [ntpOn, setNtpOn] = useState<boolean | null>(null);
  const [servers, setServers] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const now = useTicking(state.data?.time);
  const zoneOptions = useMemo(() => {
    const all = state.data && !zones.includes(state.data.timezone) ? [state.data.timezone, ...zones] : zones;
    return all.map((z) => ({ value: z, label: z }));
  }, [state.data]);
  if (state.isLoading) return <Spin />;
  if (!state.data) {
    const error = state.error instanceof ApiError ? state.error.message : t('common.operationFailed');
    return <Alert type="error" showIcon message={error} />;
  }
  const current = state.data;
  const writable = canEdit && current.host.available;
  const ntpWritable = canEdit && current.ntp.host.available;
  const fail = (err: unknown) =>
    void message.error(err instanceof ApiError ? err.message : t('common.operationFailed'));
  const local = (epoch: number) => {
    try {
      return new Intl.DateTimeFormat('sv-SE', {
        timeZone: current.timezone,
        dateStyle: 'short',
        timeStyle: 'medium',
      }).format(epoch * 1000);
    } catch {
      return dayjs(epoch * 1000).format('YYYY-MM-DD HH:mm:ss');
    }
  };

  const saveTime = () => {
    const body = {
      ...(zone && zone !== current.timezone ? { timezone: zone } : {}),
      ...(when ? { time: when.format('YYYY-MM-DD HH:mm:ss') } : {}),
    };
    const parsed = timeInput.safeParse(body);
    if (!parsed.success)
      return setProblem(t((parsed.error.issues[0]?.message ?? timeNetworkMessages.timeFormat) as never));
    setProblem(null);
    setTime.mutate(body, {
      onSuccess: () => {
        setWhen(null);
        setZone(null);
        void message.success(t('common.operationSuccess'));
      },
      onError: fail,
    });
  };
  const saveNtp = () => {
    const body = { enabled: ntpOn ?? current.ntp.enabled, servers: servers ?? current.ntp.servers };
    const parsed = syncdInput.safeParse(body);
    if (!parsed.success)
      return setProblem(t((parsed.error.issues[0]?.message ?? timeNetworkMessages.ntpServerFormat) as never));
    setProblem(null);
    setNtp.mutate(parsed.data, {
      onSuccess: () => {
        setNtpOn(null);
        setServers(null);
        void message.success(t('common.operationSuccess'));
      },
      onError: fail,
    });
  };

  return (
    <Flex vertical gap={12}>
      <HostNotice ability={current.host} title={t('timeNetworkPage.timeReadOnly')} />
      {problem && <Alert type="error" showIcon message={problem} closable onClose={() => setProblem(null)} />}
      <Card size="small" title={t('timeNetworkPage.timeTitle')}>
        <Descriptions size="small" column={2} bordered>
          <Descriptions.Item label={t('timeNetworkPage.boxTime')}>
            <span data-testid="box-time">{local(now)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('timeNetworkPage.timezone')}>{current.timezone}</Descriptions.Item>
        </Descriptions>
        <Flex gap={8} wrap style={{ marginTop: 12 }} align="center">
          <Select
            aria-label={t('timeNetworkPage.timezone')}
            showSearch
            style={{ width: 260 }}
            disabled={!writable}
            value={zone ?? current.timezone}
            options={zoneOptions}
            onChange={setZone}
          />
          <DatePicker
            aria-label={t('timeNetworkPage.setTime')}
            showTime
            format="YYYY-MM-DD HH:mm:ss"
            placeholder={t('timeNetworkPage.setTime')}
            disabled={!writable || current.ntp.enabled}
            value={when}
            onChange={setWhen}
          />
          <Button type="primary" disabled={!writable} loading={setTime.isPending} onClick={saveTime}>
            {t('common.save')}
          </Button>
        </Flex>
        {current.ntp.enabled && writable && (
          <Alert style={{ marginTop: 8 }} type="info" showIcon message={t('timeNetwork.ntpOn')} />
        )}
      </Card>
      <Card size="small" title={t('timeNetworkPage.ntpTitle')}>
        <HostNotice ability={current.ntp.host} title={t('timeNetworkPage.ntpReadOnly')} />
        <Descriptions size="small" column={2} bordered style={{ marginTop: current.ntp.host.available ? 0 : 8 }}>
          <Descriptions.Item label={t('timeNetworkPage.ntpService')}>{current.ntp.service || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('timeNetworkPage.syncState')}>
            <Tag color={current.ntp.synchronized ? 'green' : 'default'}>
              {current.ntp.synchronized ? t('timeNetworkPage.synced') : t('timeNetworkPage.notSynced')}
            </Tag>
          </Descriptions.Item>
        </Descriptions>
        <Flex gap={8} wrap style={{ marginTop: 12 }} align="center">
          <Space>
            <span>{t('timeNetworkPage.ntpEnabled')}</span>
            <Switch
              aria-label={t('timeNetworkPage.ntpEnabled')}
              disabled={!ntpWritable}
              checked={ntpOn ?? current.ntp.enabled}
              onChange={setNtpOn}
            />
          </Space>
          <Select
            aria-label={t('timeNetworkPage.ntpServers')}
            mode="tags"
            style={{ minWidth: 360 }}
            disabled={!ntpWritable}
            placeholder={t('timeNetworkPage.ntpServersHelp')}
            value={servers ?? current.ntp.servers}
            onChange={setServers}
            open={false}
          />
          <Button type="primary" disabled={!ntpWritable} loading={setNtp.isPending} onClick={saveNtp}>
            {t('common.save')}
          </Button>
        </Flex>
      </Card>
      <Services canEdit={canEdit} />
    </Flex>
  );
};
