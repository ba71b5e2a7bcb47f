import type { DeviceAlarm, DeviceOverview } from '@sitewatch/contract/device-view';
import { monitorState } from '@sitewatch/contract/monitoring';
import { Card, Col, Descriptions, Empty, Flex, Row, Statistic, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDriverNames } from '../../../components/driver-names.ts';
import { stateOf } from '../../../components/states.ts';
import { formatTime } from '../../../components/time.ts';

const when = (ts: number) => formatTime(ts);

/** How long ago, in the largest whole unit (minutes, hours, days), as "3 min" / "2 h" / "5 d". */
const durationSince = (ts: number, nowMs: number) => {
  const s = Math.max(0, Math.floor(nowMs / 1000) - ts);
  if (s < 60) return '< 1 min';
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
};

const handlingKeys = {
  0: 'deviceUi.overview.handling0',
  1: 'deviceUi.overview.handling1',
  2: 'deviceUi.overview.handling2',
  3: 'deviceUi.overview.handling3',
} as const;

/** Overview: who the device is, how it talks, its item counts and its open alarms. */
export const OverviewTab = ({ device }: { device: DeviceOverview }) => {
  const { t } = useTranslation();
  const drivers = useDriverNames();
  const state = stateOf(device.state);
  const protocol = [device.protocol_version, device.protocol_id ? `ID ${device.protocol_id}` : '']
    .filter(Boolean)
    .join(' · ');
  return (
    <Flex vertical gap={16} data-testid="device-overview">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t('deviceUi.overview.identity')} style={{ height: '100%' }}>
            <Descriptions column={{ xs: 1, xl: 2 }} size="small">
              <Descriptions.Item label={t('deviceUi.overview.name')}>{device.name}</Descriptions.Item>
              <Descriptions.Item label={t('deviceUi.overview.site')}>{device.site_path.join(' / ')}</Descriptions.Item>
              <Descriptions.Item label={t('deviceUi.overview.category')}>{device.category_name}</Descriptions.Item>
              <Descriptions.Item label={t('deviceUi.overview.template')}>
                {device.template_name || '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('deviceUi.overview.driver')}>
                {drivers.label(device.driver)}
              </Descriptions.Item>
              <Descriptions.Item label={t('deviceUi.overview.protocol')}>{protocol || '—'}</Descriptions.Item>
              <Descriptions.Item label={t('deviceUi.overview.address')}>
                {device.address || (device.driver === 'simulator' ? t('deviceUi.overview.simulated') : '—')}
              </Descriptions.Item>
              <Descriptions.Item label={t('deviceUi.overview.checkInterval')}>
                {t('deviceUi.overview.seconds', { n: device.check_interval })}
                {device.enable ? null : <Tag style={{ marginInlineStart: 8 }}>{t('deviceUi.overview.disabled')}</Tag>}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t('deviceUi.overview.deviceState')} style={{ height: '100%' }}>
            <Flex vertical gap={8}>
              <Flex gap={8} align="center" wrap>
                <Tag color={state.color} data-testid="device-state" style={{ fontSize: 14, padding: '2px 10px' }}>
                  {t(state.key)}
                </Tag>
                <Typography.Text type="secondary">
                  {device.state_time
                    ? t('deviceUi.overview.since', {
                        time: when(device.state_time),
                        duration: durationSince(device.state_time, Date.now()),
                      })
                    : t('deviceUi.overview.neverPolled')}
                </Typography.Text>
              </Flex>
              {/* The device state counts its items too; whether it answers is said apart. */}
              {device.state !== monitorState.notReady && (
                <Typography.Text data-testid="device-link">
                  {t('deviceUi.overview.link')}:{' '}
                  {device.state === monitorState.unknown
                    ? t('deviceUi.overview.linkDown')
                    : t('deviceUi.overview.linkUp')}
                </Typography.Text>
              )}
              {device.state_reason ? (
                <Typography.Text>
                  {t('deviceUi.overview.reason')}: {device.state_reason}
                </Typography.Text>
              ) : null}
              <Typography.Text type="secondary">
                {t('deviceUi.overview.lastUpdate')}: {when(device.last_update)}
              </Typography.Text>
            </Flex>
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('deviceUi.overview.counts')}>
        <Row gutter={16}>
          <Col span={6} data-testid="count-total">
            <Statistic title={t('deviceUi.overview.total')} value={device.counts.total} />
          </Col>
          <Col span={6} data-testid="count-normal">
            <Statistic
              title={t('deviceUi.overview.normal')}
              value={device.counts.normal}
              styles={{ content: { color: '#52c41a' } }}
            />
          </Col>
          <Col span={6} data-testid="count-abnormal">
            <Statistic
              title={t('deviceUi.overview.abnormal')}
              value={device.counts.abnormal}
              styles={{ content: device.counts.abnormal ? { color: '#f5222d' } : {} }}
            />
          </Col>
          <Col span={6} data-testid="count-alarming">
            <Statistic
              title={t('deviceUi.overview.alarming')}
              value={device.counts.alarming}
              styles={{ content: device.counts.alarming ? { color: '#fa541c' } : {} }}
            />
          </Col>
        </Row>
      </Card>
      <Card size="small" title={t('deviceUi.overview.alarms')}>
        <Table<DeviceAlarm>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={device.alarms}
          locale={{ emptyText: <Empty description={t('deviceUi.overview.noAlarms')} /> }}
          scroll={{ x: 720 }}
          columns={[
            {
              title: t('deviceUi.overview.alarmItem'),
              render: (_, a) => (a.kind === 'communication' ? t('deviceUi.overview.communicationAlarm') : a.item_name),
            },
            {
              title: t('deviceUi.overview.alarmLevel'),
              width: 90,
              render: (_, a) => <Tag color={a.color}>{t('deviceUi.overview.levelN', { n: a.level })}</Tag>,
            },
            { title: t('deviceUi.overview.alarmInfo'), dataIndex: 'info', ellipsis: true },
            { title: t('deviceUi.overview.alarmValue'), width: 90, render: (_, a) => a.value ?? '—' },
            { title: t('deviceUi.overview.alarmSince'), width: 170, render: (_, a) => when(a.start_time) },
            {
              title: t('deviceUi.overview.alarmHandling'),
              width: 140,
              render: (_, a) =>
                `${t(handlingKeys[a.handling as keyof typeof handlingKeys] ?? handlingKeys[0])}${a.confirmed_by ? ` · ${a.confirmed_by}` : ''}`,
            },
          ]}
        />
      </Card>
    </Flex>
  );
};
