import { routeUrl } from '@sitewatch/contract';
import { monitoringRoutes } from '@sitewatch/contract/monitoring';
import { App, Button, Card, List, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../components/download.ts';

/** The OpenAPI document of the whole API (served beside its page, /api/docs). */
const apiDocumentPath = '/api/docs/json';

const downloads = [
  {
    key: 'modbus',
    title: 'systemUi.protocol.modbus',
    explain: 'systemUi.protocol.modbusExplain',
    url: routeUrl(monitoringRoutes.modbusExcel),
    file: 'modbus_points.xlsx',
  },
  {
    key: 'snmp',
    title: 'systemUi.protocol.snmp',
    explain: 'systemUi.protocol.snmpExplain',
    url: routeUrl(monitoringRoutes.snmpExcel),
    file: 'snmp_points.xlsx',
  },
  {
    key: 'api',
    title: 'systemUi.protocol.api',
    explain: 'systemUi.protocol.apiExplain',
    url: apiDocumentPath,
    file: 'sitewatch-openapi.json',
  },
] as const;

/** /download_protocol: the point-table templates and the API document (docs/system.md). */
export const DownloadProtocolPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const get = async (d: (typeof downloads)[number]) => {
    setBusy(d.key);
    try {
      if (d.key === 'api') {
        // The document is JSON, which the API client would read as an answer: fetched as text here.
        const res = await fetch(d.url);
        if (!res.ok) throw new Error(t('systemUi.protocol.failed'));
        const blob = new Blob([await res.text()], { type: 'application/json' });
        const href = URL.createObjectURL(blob);
        const link = document.createElement('a');
        link.href = href;
        link.download = d.file;
        link.click();
        setTimeout(() => URL.revokeObjectURL(href), 10_000);
      } else await downloadFile(d.url, {}, d.file);
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card title={t('systemUi.protocol.title')} size="small">
      <List
        dataSource={[...downloads]}
        renderItem={(d) => (
          <List.Item
            actions={[
              <Button key="get" type="primary" loading={busy === d.key} onClick={() => void get(d)}>
                {t('systemUi.protocol.download')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={t(d.title)}
              description={
                <span>
                  {t(d.explain)} <Typography.Text code>{d.file}</Typography.Text>
                </span>
              }
            />
          </List.Item>
        )}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('systemUi.protocol.importHint')}{' '}
        <Typography.Link href="/api/docs" target="_blank" rel="noreferrer">
          {t('systemUi.protocol.apiPage')}
        </Typography.Link>
      </Typography.Paragraph>
    </Card>
  );
};
