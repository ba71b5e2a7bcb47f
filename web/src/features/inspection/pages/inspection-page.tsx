import { type InspectedItem, inspectionRoutes as r } from '@sitewatch/contract/inspection';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Flex, Form, Input, Select, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';

const rules = r.addPlan.body.shape.rule.options;

/** /polling_main: walk a site (live values captured on submit), the automatic plans and the switches. */
export const InspectionPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const client = useQueryClient();
  const canInspect = useCan('/polling_main', 'inspect');
  const canEdit = useCan('/polling_main', 'edit');
  const [site, setSite] = useState<number | null>(null);
  const [marks, setMarks] = useState<Record<number, boolean>>({});
  const [summary, setSummary] = useState('');
  const snapshot = useQuery({
    queryKey: ['inspection', 'snapshot', site],
    queryFn: () => api.call(r.snapshot, { query: { device_group_ids: String(site) } }),
    enabled: site !== null,
  });
  const submit = useMutation({
    mutationFn: () =>
      api.call(r.manual, {
        body: {
          device_group_ids: [site!],
          summary,
          marks: Object.entries(marks).map(([id, abnormal]) => ({ item_id: Number(id), abnormal, note: '' })),
        },
      }),
    onSuccess: (report) => {
      void client.invalidateQueries({ queryKey: ['inspection'] });
      void message.success(t('inspectionUi.saved'));
      navigate(`/polling_main_detail?id=${report.id}`);
    },
  });
  const plans = useQuery({ queryKey: ['inspection', 'plans'], queryFn: () => api.call(r.plans, { query: {} }) });
  const patrol = useQuery({ queryKey: ['inspection', 'patrol'], queryFn: () => api.call(r.getPatrol, { query: {} }) });
  const setPatrol = useMutation({
    mutationFn: (body: { enable: boolean; intelligent_enable: boolean }) => api.call(r.setPatrol, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['inspection', 'patrol'] }),
  });
  const addPlan = useMutation({
    mutationFn: (v: { name: string; site: number; rule: (typeof rules)[number] }) =>
      api.call(r.addPlan, {
        body: {
          name: v.name,
          device_group_ids: [v.site],
          rule: v.rule,
          start_time: Math.floor(Date.now() / 1000) + 60,
          enable: true,
        },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['inspection', 'plans'] }),
  });
  const removePlan = useMutation({
    mutationFn: (id: number) => api.call(r.deletePlan, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['inspection', 'plans'] }),
  });
  const abnormalOf = (i: InspectedItem) => marks[i.item_id] ?? i.abnormal;

  return (
    <Flex vertical gap={16} data-testid="inspection-page">
      <Card
        title={t('inspectionUi.manual')}
        extra={
          <Space>
            <Button onClick={() => navigate('/polling_record')}>{t('inspectionUi.records')}</Button>
          </Space>
        }
      >
        <Flex vertical gap={12}>
          <Space wrap>
            <span>{t('inspectionUi.site')}</span>
            <div style={{ width: 260 }}>
              <SiteSelect
                value={site}
                onChange={(v) => (setSite(v), setMarks({}))}
                ariaLabel={t('inspectionUi.site')}
              />
            </div>
          </Space>
          <Table<InspectedItem>
            rowKey="item_id"
            size="small"
            loading={snapshot.isFetching}
            dataSource={snapshot.data ?? []}
            // A site may hold hundreds of items: 20 a page (marks are kept across pages, by item).
            pagination={{
              defaultPageSize: 20,
              showSizeChanger: true,
              pageSizeOptions: [20, 50, 100],
              hideOnSinglePage: true,
            }}
            columns={[
              { title: t('inspectionUi.device'), dataIndex: 'device_name' },
              { title: t('inspectionUi.item'), dataIndex: 'item_name' },
              { title: t('inspectionUi.value'), render: (_, i) => (i.value === null ? '—' : `${i.value} ${i.unit}`) },
              {
                title: t('inspectionUi.abnormal'),
                render: (_, i) => (
                  <Checkbox
                    aria-label={`${i.item_name} ${t('inspectionUi.abnormal')}`}
                    checked={abnormalOf(i)}
                    onChange={(e) => setMarks((m) => ({ ...m, [i.item_id]: e.target.checked }))}
                  />
                ),
              },
            ]}
          />
          <Input.TextArea
            aria-label={t('inspectionUi.summary')}
            placeholder={t('inspectionUi.summary')}
            value={summary}
            onChange={(e) => setSummary(e.target.value)}
            rows={3}
          />
          <div>
            <Button
              type="primary"
              disabled={!canInspect || site === null || summary.trim() === ''}
              loading={submit.isPending}
              onClick={() => submit.mutate()}
              data-testid="inspection-submit"
            >
              {t('inspectionUi.submit')}
            </Button>
          </div>
        </Flex>
      </Card>
      <Card
        title={t('inspectionUi.plans')}
        extra={
          <Space>
            <span>{t('inspectionUi.enable')}</span>
            <Switch
              disabled={!canEdit || !patrol.data}
              checked={patrol.data?.enable}
              onChange={(enable) => patrol.data && setPatrol.mutate({ ...patrol.data, enable })}
            />
            <span>{t('inspectionUi.intelligentEnable')}</span>
            <Switch
              disabled={!canEdit || !patrol.data}
              checked={patrol.data?.intelligent_enable}
              onChange={(intelligent_enable) => patrol.data && setPatrol.mutate({ ...patrol.data, intelligent_enable })}
            />
          </Space>
        }
      >
        {canEdit && (
          <Form layout="inline" onFinish={(v) => addPlan.mutate(v)} style={{ marginBottom: 12 }}>
            <Form.Item name="name" rules={[{ required: true, message: t('inspectionUi.name') }]}>
              <Input placeholder={t('inspectionUi.name')} aria-label={t('inspectionUi.name')} />
            </Form.Item>
            <Form.Item name="site" rules={[{ required: true, message: t('inspectionUi.site') }]}>
              <SiteSelect ariaLabel={t('inspectionUi.site')} placeholder={t('inspectionUi.site')} />
            </Form.Item>
            <Form.Item name="rule" initialValue="daily">
              <Select
                style={{ width: 160 }}
                options={rules.map((v) => ({ value: v, label: t(`inspectionUi.rules.${v}`) }))}
              />
            </Form.Item>
            <Button htmlType="submit" type="primary">
              {t('common.add')}
            </Button>
          </Form>
        )}
        <Table
          rowKey="id"
          size="small"
          dataSource={plans.data ?? []}
          pagination={false}
          columns={[
            { title: t('inspectionUi.name'), dataIndex: 'name' },
            { title: t('inspectionUi.rule'), render: (_, p) => t(`inspectionUi.rules.${p.rule}`) },
            { title: t('inspectionUi.nextRun'), render: (_, p) => formatTime(p.next_run) },
            { title: t('inspectionUi.lastRun'), render: (_, p) => formatTime(p.last_run) },
            {
              title: t('inspectionUi.enable'),
              render: (_, p) => <Tag>{p.enable ? t('inspectionUi.yes') : t('inspectionUi.no')}</Tag>,
            },
            {
              title: '',
              render: (_, p) =>
                canEdit && (
                  <Button size="small" danger onClick={() => removePlan.mutate(p.id)}>
                    {t('common.delete')}
                  </Button>
                ),
            },
          ]}
        />
      </Card>
    </Flex>
  );
};
