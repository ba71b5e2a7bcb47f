import { workOrderRoutes as r, type WorkOrderSet } from '@sitewatch/contract/work-orders';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, InputNumber, Modal, Select, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { LevelTag, useLevels } from '../../../components/levels.tsx';
import { sitesQuery } from '../../../components/site-select.tsx';
import { priorityKey, usersQuery, workOrderKeys } from '../api.ts';

const setsKey = [...workOrderKeys.all, 'sets'];

/** One rule: which levels and sites raise an order, to whom (or to whoever is on duty), how urgent, by when. */
const RuleForm = ({
  rule,
  nextId,
  onClose,
}: {
  rule: WorkOrderSet | null | undefined;
  nextId: number;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const users = useQuery(usersQuery);
  const sites = useQuery(sitesQuery);
  const level = useLevels();
  const [form] = Form.useForm();
  const save = useMutation({
    mutationFn: (v: Omit<WorkOrderSet, 'id'>) =>
      api.call(r.putSet, {
        params: { id: rule?.id ?? nextId },
        body: {
          name: v.name,
          enable: v.enable,
          levels: v.levels,
          device_group_ids: v.device_group_ids ?? [],
          handler_id: v.handler_id,
          reviewer_id: v.reviewer_id,
          priority: v.priority,
          deadline_hours: v.deadline_hours,
          require_recovered: v.require_recovered,
          handler_on_duty: v.handler_on_duty,
        },
      }),
    onSuccess: () => {
      void message.success(t('workOrderUi.saved'));
      void qc.invalidateQueries({ queryKey: setsKey });
      onClose();
    },
  });
  const people = (users.data ?? []).map((u) => ({ value: u.id, label: u.name }));
  return (
    <Modal
      open={rule !== undefined}
      title={t(rule ? 'workOrderUi.rules.edit' : 'workOrderUi.rules.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={
          rule ?? {
            enable: true,
            levels: [1, 2],
            device_group_ids: [],
            priority: 4,
            deadline_hours: 4,
            require_recovered: false,
            handler_on_duty: false,
          }
        }
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="name" label={t('workOrderUi.rules.name')} rules={[{ required: true, whitespace: true }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="enable" label={t('workOrderUi.rules.enable')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="levels" label={t('workOrderUi.rules.levels')} rules={[{ required: true }]}>
          <Select mode="multiple" options={[1, 2, 3, 4, 5].map((l) => ({ value: l, label: level(l).name }))} />
        </Form.Item>
        <Form.Item name="device_group_ids" label={t('workOrderUi.rules.sites')} extra={t('workOrderUi.rules.allSites')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            options={(sites.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          />
        </Form.Item>
        <Form.Item name="handler_id" label={t('workOrderUi.handler')} rules={[{ required: true }]}>
          <Select options={people} showSearch optionFilterProp="label" />
        </Form.Item>
        <Form.Item
          name="handler_on_duty"
          label={t('workOrderUi.rules.onDuty')}
          extra={t('workOrderUi.rules.onDutyHelp')}
          valuePropName="checked"
        >
          <Switch />
        </Form.Item>
        <Form.Item name="reviewer_id" label={t('workOrderUi.reviewer')} rules={[{ required: true }]}>
          <Select options={people} showSearch optionFilterProp="label" />
        </Form.Item>
        <Form.Item name="priority" label={t('workOrderUi.priority')} rules={[{ required: true }]}>
          <Select options={[1, 2, 3, 4, 5].map((p) => ({ value: p, label: t(priorityKey(p)) }))} />
        </Form.Item>
        <Form.Item
          name="deadline_hours"
          label={t('workOrderUi.deadlineHours')}
          rules={[{ required: true }, { type: 'number', min: 0.1, message: t('workOrderUi.deadlinePositive') }]}
        >
          <InputNumber min={0.1} max={8760} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="require_recovered"
          label={t('workOrderUi.rules.requireRecovered')}
          extra={t('workOrderUi.rules.requireRecoveredHelp')}
          valuePropName="checked"
        >
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** work_order_set (002 §7.7): the automatic dispatch rules, first matching rule by number wins. */
export const DispatchRules = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const sets = useQuery({ queryKey: setsKey, queryFn: () => api.call(r.sets), enabled: open });
  const users = useQuery({ ...usersQuery, enabled: open });
  const sites = useQuery({ ...sitesQuery, enabled: open });
  const [editing, setEditing] = useState<WorkOrderSet | null | undefined>(undefined);
  const name = (id: number) => users.data?.find((u) => u.id === id)?.name ?? `#${id}`;
  const site = (id: number) => sites.data?.data.find((s) => s.id === id)?.name ?? `#${id}`;
  const rows = sets.data ?? [];
  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={880}
      title={t('workOrderUi.rules.title')}
      extra={
        <Button type="primary" onClick={() => setEditing(null)} disabled={rows.length >= 1000}>
          {t('workOrderUi.rules.add')}
        </Button>
      }
    >
      <div data-testid="dispatch-rules">
        <Table<WorkOrderSet>
          rowKey="id"
          size="small"
          loading={sets.isFetching}
          dataSource={rows}
          pagination={false}
          columns={[
            { title: '#', dataIndex: 'id', width: 48 },
            { title: t('workOrderUi.rules.name'), dataIndex: 'name' },
            {
              title: t('workOrderUi.rules.enable'),
              render: (_, s) => (
                <Tag color={s.enable ? 'green' : 'default'}>
                  {t(s.enable ? 'workOrderUi.rules.yes' : 'workOrderUi.rules.no')}
                </Tag>
              ),
            },
            {
              title: t('workOrderUi.rules.levels'),
              render: (_, s) => s.levels.map((l) => <LevelTag key={l} level={l} />),
            },
            {
              title: t('workOrderUi.rules.sites'),
              render: (_, s) =>
                s.device_group_ids.length === 0
                  ? t('workOrderUi.rules.every')
                  : s.device_group_ids.map(site).join(', '),
            },
            {
              title: t('workOrderUi.handler'),
              render: (_, s) =>
                s.handler_on_duty
                  ? `${t('workOrderUi.rules.onDutyShort')} / ${name(s.handler_id)}`
                  : name(s.handler_id),
            },
            { title: t('workOrderUi.reviewer'), render: (_, s) => name(s.reviewer_id) },
            { title: t('workOrderUi.priority'), render: (_, s) => t(priorityKey(s.priority)) },
            { title: t('workOrderUi.deadlineHours'), dataIndex: 'deadline_hours' },
            {
              title: t('workOrderUi.rules.requireRecoveredShort'),
              render: (_, s) => t(s.require_recovered ? 'workOrderUi.rules.yes' : 'workOrderUi.rules.no'),
            },
            {
              title: '',
              render: (_, s) => (
                <Button size="small" type="link" onClick={() => setEditing(s)}>
                  {t('workOrderUi.actions.edit')}
                </Button>
              ),
            },
          ]}
        />
      </div>
      <RuleForm
        rule={editing}
        nextId={rows.reduce((m, s) => Math.max(m, s.id), 0) + 1}
        onClose={() => setEditing(undefined)}
      />
    </Drawer>
  );
};
