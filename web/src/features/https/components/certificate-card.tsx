import type { HttpsState } from '@sitewatch/contract/https';
import { Alert, Button, Card, Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../components/time.ts';
import { renewWithinDays } from '../renewal.ts';

/** What is served: the listener's state and the installed certificate (never its key). */
export const CertificateCard = ({ state, onDownload }: { state: HttpsState; onDownload: () => void }) => {
  const { t } = useTranslation();
  const cert = state.certificate;
  const listening = state.listening_port !== null;
  return (
    <Card
      title={t('httpsUi.current.title')}
      extra={
        <Button onClick={onDownload} disabled={!cert}>
          {t('httpsUi.current.downloadRoot')}
        </Button>
      }
    >
      {state.listen_error ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('httpsUi.current.listenError', { port: state.port, reason: state.listen_error })}
        />
      ) : null}
      <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
        <Descriptions.Item label={t('httpsUi.current.status')}>
          {listening ? (
            <Tag color="green">{t('httpsUi.current.listening', { port: state.listening_port })}</Tag>
          ) : (
            <Tag>{t('httpsUi.current.off')}</Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('httpsUi.current.source')}>
          {cert ? t(cert.source === 'acme' ? 'httpsUi.current.sourceAcme' : 'httpsUi.current.sourceUpload') : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('httpsUi.current.subject')}>
          {cert?.subject ?? t('httpsUi.current.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('httpsUi.current.issuer')}>{cert?.issuer ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('httpsUi.current.names')}>{cert?.names.join(', ') || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('httpsUi.current.validity')}>
          {cert ? `${formatTime(cert.not_before)} ~ ${formatTime(cert.not_after)}` : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('httpsUi.current.daysLeft')}>
          {cert ? (
            <Tag color={cert.days_left < 0 ? 'red' : cert.days_left < renewWithinDays ? 'orange' : 'green'}>
              {cert.days_left < 0 ? t('httpsUi.current.expired') : t('httpsUi.current.days', { count: cert.days_left })}
            </Tag>
          ) : (
            '—'
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('httpsUi.current.fingerprint')}>
          <span style={{ wordBreak: 'break-all', fontFamily: 'monospace', fontSize: 12 }}>
            {cert?.fingerprint ?? '—'}
          </span>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
};
