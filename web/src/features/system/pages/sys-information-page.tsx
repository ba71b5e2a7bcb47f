import { debugLogPath } from '@sitewatch/contract/system';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Descriptions, InputNumber, Progress, Row, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../components/download.ts';
import { formatTime } from '../../../components/time.ts';
import { useIsAdministrator } from '../../../session/permissions.ts';
import { debugLogStateQuery, hostQuery, informationQuery } from '../api.ts';
import { formatBytes, formatSeconds, hostReasonKey } from '../format.ts';

/** /sys_information: the product, its database and estate, the licence, the host; the debug log (docs/system.md). */
export const SysInformationPage = () => {
  const { t } = useTranslation();
  const admin = useIsAdministrator();
  const info = useQuery(informationQuery);
  const host = useQuery(hostQuery);
  const i = info.data;
  const h = host.data;
  const dash = '—';
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('systemUi.info.product')} loading={info.isPending} size="small">
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('systemUi.info.version')}>{i?.version}</Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.runtime')}>Node.js {i?.node_version}</Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.startedAt')}>{formatTime(i?.started_at)}</Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.serverUptime')}>
                {i ? formatSeconds(i.server_uptime, t) : dash}
              </Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.licence')}>
                {i ? <Tag color="default">{t(`licenceUi.states.${i.licence.state}`)}</Tag> : dash}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('systemUi.info.data')} loading={info.isPending} size="small">
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('systemUi.info.databaseKind')}>
                {i ? t(i.database.kind === 'postgres' ? 'systemUi.info.postgres' : 'systemUi.info.sqlite') : dash}
              </Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.databaseSize')}>
                {i?.database.size_bytes == null ? dash : formatBytes(i.database.size_bytes)}
              </Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.sites')}>{i?.counts.sites}</Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.devices')}>{i?.counts.devices}</Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.items')}>{i?.counts.items}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24}>
          <Card title={t('systemUi.info.host')} loading={host.isPending} size="small">
            {!admin && (
              <Alert type="info" showIcon message={t('systemUi.info.hostAdminOnly')} style={{ marginBottom: 12 }} />
            )}
            <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
              {admin && (
                <Descriptions.Item label={t('systemUi.info.hostname')}>{h?.hostname ?? dash}</Descriptions.Item>
              )}
              {admin && (
                <Descriptions.Item label={t('systemUi.info.platform')}>{h?.platform ?? dash}</Descriptions.Item>
              )}
              {admin && (
                <Descriptions.Item label={t('systemUi.info.cpuModel')}>
                  {h?.cpu.model ? `${h.cpu.model} × ${h.cpu.cores ?? 1}` : dash}
                </Descriptions.Item>
              )}
              {admin && (
                <Descriptions.Item label={t('systemUi.info.hostUptime')}>
                  {h?.uptime === undefined ? dash : formatSeconds(h.uptime, t)}
                </Descriptions.Item>
              )}
              <Descriptions.Item label={t('systemUi.info.cpu')}>
                {h?.cpu.percent == null ? (
                  dash
                ) : (
                  <Progress
                    percent={Number(h.cpu.percent.toFixed(1))}
                    size="small"
                    status="normal"
                    format={(p) => `${p}%`}
                  />
                )}
              </Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.memory')}>
                {h ? <Usage percent={h.memory.percent} used={h.memory.used} total={h.memory.total} /> : dash}
              </Descriptions.Item>
              <Descriptions.Item label={t('systemUi.info.disk')}>
                {h ? <Usage percent={h.disk.percent} used={h.disk.used} total={h.disk.total} /> : dash}
              </Descriptions.Item>
              {admin && (
                <Descriptions.Item label={t('systemUi.info.dataPath')}>{h?.disk.path ?? dash}</Descriptions.Item>
              )}
            </Descriptions>
          </Card>
        </Col>
      </Row>
      {admin && <DebugLogCard />}
    </Space>
  );
};

const Usage = ({ percent, used, total }: { percent: number; used: string; total: string }) => (
  <Space size="small" style={{ width: '100%' }}>
    <Progress
      percent={Number(percent.toFixed(1))}
      size="small"
      status="normal"
      format={(p) => `${p}%`}
      style={{ width: 160, margin: 0 }}
    />
    <span>
      {used} / {total}
    </span>
  </Space>
);

/** The debug-log download: where the log comes from, or why it cannot be read here (read-only). */
const DebugLogCard = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const state = useQuery(debugLogStateQuery);
  const [mb, setMb] = useState(5);
  const [busy, setBusy] = useState(false);
  const s = state.data;
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(debugLogPath, { mb }, s?.encrypted ? 'sitewatch-debug.log.sm4' : 'sitewatch-debug.log');
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('systemUi.debugLog.title')} loading={state.isPending} size="small">
      <Space direction="vertical" style={{ width: '100%' }}>
        {s && !s.available && (
          <Alert
            type="warning"
            showIcon
            message={t('systemUi.readOnly')}
            description={t(hostReasonKey(s.reason))}
            data-testid="debug-log-unavailable"
          />
        )}
        <span>{t('systemUi.debugLog.explain')}</span>
        {s?.available && (
          <span>
            {t(s.source === 'journal' ? 'systemUi.debugLog.fromJournal' : 'systemUi.debugLog.fromFile')}
            {s.encrypted ? ` ${t('systemUi.debugLog.encrypted')}` : ''}
          </span>
        )}
        <Space>
          <span>{t('systemUi.debugLog.size')}</span>
          <InputNumber
            aria-label={t('systemUi.debugLog.size')}
            min={1}
            max={50}
            value={mb}
            onChange={(v) => setMb(v ?? 5)}
            addonAfter="MB"
            disabled={!s?.available}
          />
          <Button type="primary" onClick={() => void download()} loading={busy} disabled={!s?.available}>
            {t('systemUi.debugLog.download')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
};
