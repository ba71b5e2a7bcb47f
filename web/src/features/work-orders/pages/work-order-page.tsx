import { alarmRoutes } from '@sitewatch/contract/alarms';
import {
  alarmOrderDescription,
  priorityForLevel,
  workOrderRoutes as r,
  type WorkOrderRow,
} from '@sitewatch/contract/work-orders';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Select, Space, Table, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../../api/client.ts';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { priorityKey, stateKey, workOrderKeys } from '../api.ts';
import { DispatchRules } from '../components/dispatch-rules.tsx';
import { OrderDetail, OrderForm, type OrderPrefill, StateTag } from '../components/order-dialogs.tsx';

/**
 * "转工单" of an alarm row or notice comes here as `?from_alarm=<alarm id>`: the new-order form opens
 * prefilled from that alarm (site, its text, the priority its level maps to) and linked to it.
 */
const useOrderFromAlarm = (alarmId: number | undefined): OrderPrefill | undefined => {
  const alarm = useQuery({
    queryKey: ['alarms', 'list', 'for-order', alarmId],
    queryFn: () => api.call(alarmRoutes.review, { query: { scope: 'all', status_id: alarmId!, page: 1, limit: 1 } }),
    enabled: alarmId !== undefined,
  });
  const a = alarm.data?.data[0];
  return a
    ? {
        alarm_id: a.status_id,
        alarm_level: a.level,
        device_group_id: a.device_group_id,
        description: alarmOrderDescription(a),
        priority: priorityForLevel(a.level),
      }
    : undefined;
};

/** /work_order (002 §2.1): tabs by `index`, the state filter by `state` (the bell opens index=0&state=1). */
export const WorkOrderPage = () => {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const index = Number(params.get('index') ?? 0) || 0;
  const stateParam = params.get('state');
  const state = stateParam ? Number(stateParam) : undefined;
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(params.get('id') ? Number(params.get('id')) : null);
  // The bell opens an order by address, also when this page is already shown.
  const idParam = params.get('id');
  useEffect(() => {
    if (idParam) setOpen(Number(idParam));
  }, [idParam]);
  const [creating, setCreating] = useState<null | undefined>(undefined);
  const fromAlarm = Number(params.get('from_alarm')) || undefined;
  const prefill = useOrderFromAlarm(fromAlarm);
  const closeFromAlarm = () => {
    const p = new URLSearchParams(params);
    p.delete('from_alarm');
    setParams(p);
  };
  const [rules, setRules] = useState(false);
  // The dispatch rules are the page's edit function (migration 0019).
  const canRules = useCan('/work_order', 'edit');
  const canAdd = useCan('/work_order', 'add');
  const list = useQuery({
    queryKey: [...workOrderKeys.all, 'list', index, state, page],
    queryFn: () => api.call(r.list, { query: { index, page, limit: 10, ...(state ? { state } : {}) } }),
  });
  const set = (next: { index?: number; state?: number | undefined }) => {
    const p = new URLSearchParams(params);
    if (next.index !== undefined) p.set('index', String(next.index));
    if ('state' in next) next.state ? p.set('state', String(next.state)) : p.delete('state');
    setParams(p);
    setPage(1);
  };
  return (
    <Card
      title={t('workOrderUi.title')}
      extra={
        <Space>
          {canRules && (
            <Button onClick={() => setRules(true)} data-testid="dispatch-rules-open">
              {t('workOrderUi.rules.title')}
            </Button>
          )}
          {canAdd && (
            <Button type="primary" onClick={() => setCreating(null)}>
              {t('workOrderUi.create')}
            </Button>
          )}
        </Space>
      }
    >
      <Tabs
        activeKey={String(index)}
        onChange={(k) => set({ index: Number(k) })}
        items={[0, 1, 2, 3].map((i) => ({ key: String(i), label: t(`workOrderUi.tabs.${i as 0 | 1 | 2 | 3}`) }))}
        tabBarExtraContent={
          <Select
            allowClear
            placeholder={t('workOrderUi.state')}
            style={{ width: 160 }}
            value={state}
            onChange={(v) => set({ state: v })}
            options={[1, 2, 3, 4, 5].map((s) => ({ value: s, label: t(stateKey(s)) }))}
            data-testid="work-order-state-filter"
          />
        }
      />
      <Table<WorkOrderRow>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.data ?? []}
        pagination={{ current: page, pageSize: 10, total: list.data?.total ?? 0, onChange: setPage }}
        onRow={(o) => ({ onClick: () => setOpen(o.id), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('workOrderUi.number'), dataIndex: 'number' },
          { title: t('workOrderUi.description'), dataIndex: 'description', ellipsis: true },
          { title: t('workOrderUi.priority'), render: (_, o) => t(priorityKey(o.priority)) },
          { title: t('workOrderUi.state'), render: (_, o) => <StateTag state={o.state} /> },
          { title: t('workOrderUi.handler'), dataIndex: 'handler' },
          { title: t('workOrderUi.creator'), render: (_, o) => o.creator || t('workOrderUi.system') },
          { title: t('workOrderUi.deadline'), render: (_, o) => formatTime(o.deadline) },
          { title: t('workOrderUi.createTime'), render: (_, o) => formatTime(o.creation_time) },
        ]}
      />
      <OrderDetail id={open} onClose={() => setOpen(null)} />
      <OrderForm order={creating} onClose={() => setCreating(undefined)} />
      {prefill && <OrderForm order={null} from={prefill} onClose={closeFromAlarm} />}
      <DispatchRules open={rules} onClose={() => setRules(false)} />
    </Card>
  );
};
