import type { HistoryTemplateRow } from '@sitewatch/contract/series';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Empty, Flex, Form, Space, Switch } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tzOffset } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { historyTableQuery, reportsApi } from '../api.ts';
import { HistoryChart, HistoryTable, type Paging } from '../components/history-results.tsx';
import { checkSelection, type RunQuery, type Selection, SelectionForm } from '../components/history-selection.tsx';
import { TemplateBar } from '../components/history-templates.tsx';

/**
 * /history_report (002 §2.1, §4, §7.5): history of chosen items over a range (today … last 7 days,
 * or custom) at a granularity chosen from the range or by hand; a table of times × items paged by
 * the server, a chart, an xlsx export, and saved templates of the whole selection.
 */
export const HistoryReportPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Selection>();
  const [run, setRun] = useState<RunQuery | null>(null);
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20, order: 'asc' });
  const [showChart, setShowChart] = useState(true);
  const [exporting, setExporting] = useState(false);
  const canExport = useCan('/history_report', 'export');
  const table = useQuery({
    ...historyTableQuery(run ? { ...run, ...paging } : { item_ids: [1], t1: 0, t2: 0 }),
    enabled: run !== null,
  });

  /** Runs the selection, or shows each problem on its field. */
  const onQuery = (values: Selection) => {
    const checked = checkSelection(values, Date.now());
    if (Array.isArray(checked)) {
      form.setFields(checked.map((p) => ({ name: p.name, errors: [t(p.key as never)] })));
      return;
    }
    setRun(checked);
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const applyTemplate = (tpl: HistoryTemplateRow) => {
    const values: Selection = {
      site: tpl.site_id > 0 ? tpl.site_id : null,
      device_ids: tpl.device_ids,
      item_ids: tpl.item_ids,
      range: tpl.range,
      custom: tpl.t1 !== null && tpl.t2 !== null ? [dayjs.unix(tpl.t1), dayjs.unix(tpl.t2)] : null,
      interval: tpl.interval,
    };
    form.resetFields();
    form.setFieldsValue(values);
    onQuery(values);
  };

  const onExport = async () => {
    if (!run) return;
    setExporting(true);
    try {
      await reportsApi.exportHistory(
        { ...run, page: 1, limit: 1000, tz_offset: tzOffset() },
        `${t('menu.historyReport')}.xlsx`,
      );
    } catch (err) {
      void message.error(err instanceof Error ? err.message : t('common.operationFailed'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Flex vertical gap={12}>
      <Card title={t('menu.historyReport')} styles={{ body: { paddingBottom: 8 } }}>
        <SelectionForm form={form} onQuery={onQuery} />
        <Flex wrap gap={8} justify="space-between" align="center" style={{ marginTop: 12 }}>
          <TemplateBar form={form} onApply={applyTemplate} />
          <Space wrap size={12}>
            <Space size={6}>
              <Switch
                size="small"
                checked={showChart}
                onChange={setShowChart}
                aria-label={t('reportsUi.history.chart')}
              />
              <span>{t('reportsUi.history.chart')}</span>
            </Space>
            {canExport && (
              <Button onClick={() => void onExport()} loading={exporting} disabled={!run}>
                {t('common.export')}
              </Button>
            )}
          </Space>
        </Flex>
      </Card>

      {!run ? (
        <Card>
          <Empty description={t('reportsUi.history.hint')} />
        </Card>
      ) : (
        <>
          {showChart && <HistoryChart run={run} items={table.data?.items ?? []} />}
          <HistoryTable run={run} table={table.data} loading={table.isFetching} paging={paging} onPaging={setPaging} />
        </>
      )}
    </Flex>
  );
};
