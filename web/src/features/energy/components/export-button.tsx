import { routeUrl } from '@sitewatch/contract';
import { type exportReports, energyRoutes as r } from '@sitewatch/contract/energy';
import { App, Button } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../components/download.ts';
import type { EnergyQuery } from '../api.ts';

/** Saves what the page shows as the server's xlsx workbook (energy/export), with the page's query. */
export const ExportButton = ({
  report,
  query,
  name,
}: {
  report: (typeof exportReports)[number];
  query: EnergyQuery & { category?: string };
  name: string;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await downloadFile(
        routeUrl(r.exportReport),
        { ...query, report },
        `${name}-${dayjs().format('YYYYMMDDHHmmss')}.xlsx`,
      );
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button onClick={() => void save()} loading={busy} data-testid={`energy-export-${report}`}>
      {t('energyUi.exportXlsx')}
    </Button>
  );
};
