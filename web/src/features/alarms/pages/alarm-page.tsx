import { type AlarmRow, alarmRoutes } from '@sitewatch/contract/alarms';
import { workOrderRoutes } from '@sitewatch/contract/work-orders';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Select, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../../api/client.ts';
import { LevelSelect } from '../../../components/levels.tsx';
import { SiteSelect } from '../../../components/site-select.tsx';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { useAlarmNotices } from '../alarm-store.ts';
import { operateAlarm, orderFromAlarmPath } from '../api.ts';
import { alarmColumns, alarmTableWidth, handlingKeys } from '../components/alarm-columns.tsx';
import { labelKey } from '../components/alarm-notices.tsx';
import { RemarksDialog } from '../components/remarks-dialog.tsx';

interface Filters {
  level?: number | undefined;
  handling?: number | undefined;
  device_group_id?: number | undefined;
  scope: 'open' | 'all';
  start?: number | undefined;
  end?: number | undefined;
  status_id?: number | undefined;
}

const csvCell = (v: unknown) => `"${String(v ?? '').replace(/"/g, '""')}"`;

/** /alarm: current alarms by site, level, state and time; confirm, disable, export (000 §4.7, 002 §7.3 review). */
export const AlarmPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const version = useAlarmNotices((s) => s.version);
  // A work order opens its alarm by address (?status_id=): that one alarm, open or recovered.
  const [params, setParams] = useSearchParams();
  const statusId = Number(params.get('status_id')) || undefined;
  const [filters, setFilters] = useState<Filters>({ scope: 'open' });
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [pending, setPending] = useState<{ alarm: AlarmRow; action: 0 | 1 | 2 | 3 } | null>(null);
  const canConfirm = useCan('/alarm', 'confirm');
  const canDisable = useCan('/alarm', 'disable');
  const canExport = useCan('/alarm', 'export');
  const canOrders = useCan('/work_order', 'view');
  const canAddOrder = useCan('/work_order', 'add');
  const navigate = useNavigate();
  const shown = statusId ? { ...filters, scope: 'all' as const, status_id: statusId } : filters;
  const withEnd = shown.scope === 'all';
  const query = Object.fromEntries(Object.entries({ ...shown, ...paging }).filter(([, v]) => v !== undefined));
  const list = useQuery({
    queryKey: ['alarms', 'list', 'page', query, version],
    queryFn: () => api.call(alarmRoutes.review, { query }),
  });
  // The work order of each alarm on the page (only where the work-order page is enabled).
  const alarmIds = (list.data?.data ?? []).map((a) => a.status_id).join(',');
  const orders = useQuery({
    queryKey: ['work-orders', 'of-alarms', alarmIds],
    queryFn: () => api.call(workOrderRoutes.ofAlarms, { query: { alarm_ids: alarmIds } }),
    enabled: canOrders && alarmIds !== '',
  });
  const orderOf = new Map((orders.data ?? []).map((o) => [o.alarm_id, o]));
  const actionTitle = (a: 0 | 1 | 2 | 3) =>
    [t('alarmPages.confirm'), t('alarmPages.unconfirm'), t('alarmPages.disable'), t('alarmPages.enable')][a];

  const exportCsv = async () => {
    const all: AlarmRow[] = [];
    for (let page = 1; page <= 100; page++) {
      const r = await api.call(alarmRoutes.review, { query: { ...query, page, limit: 1000 } });
      all.push(...r.data);
      if (all.length >= r.total || r.data.length === 0) break;
    }
    const head = [
      t('alarmPages.site'),
      t('alarmPages.device'),
      t('alarmPages.item'),
      t('alarmPages.level'),
      t('alarmPages.state'),
      t('alarmPages.value'),
      t('alarmPages.start'),
      t('alarmPages.end'),
      t('alarmPages.handling'),
      t('alarmPages.remarks'),
    ];
    const lines = all.map((a) =>
      [
        a.device_group_name,
        a.device_name,
        a.item_name,
        a.level,
        t(`alarmPages.label.${labelKey(a.status_label)}`),
        a.value,
        formatTime(a.start_time),
        formatTime(a.end_time, ''),
        t(`alarmPages.handlingState.${handlingKeys[a.handling] ?? 'unprocessed'}`),
        a.remarks,
      ]
        .map(csvCell)
        .join(','),
    );
    const blob = new Blob([`\ufeff${[head.map(csvCell).join(','), ...lines].join('\r\n')}`], { type: 'text/csv' });
    const link = Object.assign(document.createElement('a'), {
      href: URL.createObjectURL(blob),
      download: 'alarms.csv',
    });
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <Card>
      <Form
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(v: {
          level?: number;
          handling?: number;
          device_group_id?: number;
          scope: 'open' | 'all';
          range?: [Dayjs, Dayjs] | null;
        }) => {
          setFilters({
            level: v.level,
            handling: v.handling,
            device_group_id: v.device_group_id ?? undefined,
            scope: v.scope,
            start: v.range?.[0]?.startOf('day').unix(),
            end: v.range?.[1]?.endOf('day').unix(),
          });
          setPaging((p) => ({ ...p, page: 1 }));
          if (statusId) setParams({});
        }}
        initialValues={{ scope: 'open' }}
      >
        <Form.Item name="scope" label={t('alarmPages.scope')}>
          <Select
            style={{ width: 120 }}
            options={[
              { value: 'open', label: t('alarmPages.scopeOpen') },
              { value: 'all', label: t('alarmPages.scopeAll') },
            ]}
          />
        </Form.Item>
        <Form.Item name="device_group_id" label={t('alarmPages.site')}>
          <SiteSelect allowClear />
        </Form.Item>
        <Form.Item name="level" label={t('alarmPages.level')}>
          <LevelSelect allowClear style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="handling" label={t('alarmPages.handling')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={handlingKeys.map((k, i) => ({ value: i, label: t(`alarmPages.handlingState.${k}`) }))}
          />
        </Form.Item>
        <Form.Item name="range" label={t('alarmPages.time')}>
          <DatePicker.RangePicker />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
          {canExport && (
            <Button onClick={() => void exportCsv().catch(() => message.error(t('common.operationFailed')))}>
              {t('common.export')}
            </Button>
          )}
        </Space>
      </Form>
      {statusId && (
        <Tag closable style={{ marginBottom: 8 }} onClose={() => setParams({})} data-testid="alarm-one">
          {t('alarmPages.oneAlarm', { id: statusId })}
        </Tag>
      )}
      <Table<AlarmRow>
        rowKey="status_id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        // Fits 1366 × 768 with its actions (转工单 too); wider lists scroll inside, actions fixed on the right.
        scroll={{ x: alarmTableWidth(withEnd) }}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (page, limit) => setPaging({ page, limit }),
        }}
        columns={alarmColumns({
          t,
          withEnd,
          canConfirm,
          canDisable,
          canOrders,
          canAddOrder: canAddOrder && orders.isSuccess,
          orderOf,
          onAction: (alarm, action) => setPending({ alarm, action }),
          onToOrder: (a) => void navigate(orderFromAlarmPath(a.status_id)),
        })}
      />
      <RemarksDialog
        open={pending !== null}
        title={pending ? (actionTitle(pending.action) ?? '') : ''}
        onCancel={() => setPending(null)}
        onOk={async (remarks) => {
          if (!pending) return;
          await operateAlarm(pending.alarm, pending.action, remarks);
          setPending(null);
          void message.success(t('common.operationSuccess'));
          void client.invalidateQueries({ queryKey: ['alarms', 'list'] });
        }}
      />
    </Card>
  );
};
