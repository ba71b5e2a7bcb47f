import { workOrderRoutes as r, type WorkOrderSet } from '@sitewatch/contract/work-orders';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Form, Input, Select, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { LevelTag, useLevels } from '../../../components/levels.tsx';
import { sitesQuery } from '../../../components/site-select.tsx';
import { useSession } from '../../../session/session.ts';
import { priorityKey, usersQuery, workOrderKeys } from '../api.ts';
import { DeadlineItem, PersonItem, PriorityItem, useSucceeded } from './order-fields.tsx';

const setsKey = [...workOrderKeys.all, 'sets'];

/** One rule: which levels and sites raise an order, to whom (or to whoever is on duty), how urgent, by when. */
const RuleForm = ({ rule, onClose }: { rule: WorkOrderSet | null | undefined; onClose: () => void }) => {
  const { t } = useTranslation();
  const sites = useQuery(sitesQuery);
  const restricted = useSession((s) => s.user?.site_ids != null);
  const level = useLevels();
  const [form] = Form.useForm();
  const saved = useSucceeded('workOrderUi.saved', setsKey, onClose);
  const save = useMutation({
    mutationFn: (v: Omit<WorkOrderSet, 'id' | 'editable'>) =>
      api.call(r.putSet, {
        // 0: a new rule, numbered by the server after every rule (some may be of sites the caller cannot see).
        params: { id: rule?.id ?? 0 },
        body: {
          name: v.name,
          enable: v.enable,
          levels: v.levels,
          device_group_ids: v.device_group_ids ?? [],
          handler_id: v.handler_id,
          reviewer_id: v.reviewer_id,
          // 0 in the form: the alarm level decides (null).
          priority: v.priority || null,
          deadline_hours: v.deadline_hours,
          require_recovered: v.require_recovered,
          handler_on_duty: v.handler_on_duty,
        },
      }),
    onSuccess: saved,
  });
  return (
    <FormModal
      open={rule !== undefined}
      title={t(rule ? 'workOrderUi.rules.edit' : 'workOrderUi.rules.add')}
      onCancel={onClose}
      form={form}
      confirmLoading={save.isPending}
      initialValues={
        rule
          ? { ...rule, priority: rule.priority ?? 0 }
          : {
              enable: true,
              levels: [1, 2],
              device_group_ids: [],
              priority: 0,
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
      <Form.Item
        name="levels"
        label={t('workOrderUi.rules.levels')}
        rules={[{ required: true }]}
        normalize={(v: number[]) => [...v].sort((a, b) => a - b)}
      >
        <Select mode="multiple" options={[1, 2, 3, 4, 5].map((l) => ({ value: l, label: level(l).name }))} />
      </Form.Item>
      <Form.Item
        name="device_group_ids"
        label={t('workOrderUi.rules.sites')}
        extra={restricted ? undefined : t('workOrderUi.rules.allSites')}
        // Every site (none chosen) is for users granted every site; a restricted user names theirs.
        rules={restricted ? [{ required: true, message: t('workOrderUi.rules.sites') }] : []}
      >
        <Select
          mode="multiple"
          optionFilterProp="label"
          options={(sites.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
        />
      </Form.Item>
      <PersonItem name="handler_id" label={t('workOrderUi.handler')} />
      <Form.Item
        name="handler_on_duty"
        label={t('workOrderUi.rules.onDuty')}
        extra={t('workOrderUi.rules.onDutyHelp')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <PersonItem name="reviewer_id" label={t('workOrderUi.reviewer')} />
      <PriorityItem byLevel />
      <DeadlineItem />
      <Form.Item
        name="require_recovered"
        label={t('workOrderUi.rules.requireRecovered')}
        extra={t('workOrderUi.rules.requireRecoveredHelp')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
    </FormModal>
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
              // By level, most severe first, not in the order they were ticked.
              render: (_, s) => [...s.levels].sort((a, b) => a - b).map((l) => <LevelTag key={l} level={l} />),
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
            {
              title: t('workOrderUi.priority'),
              render: (_, s) =>
                s.priority === null ? t('workOrderUi.rules.priorityByLevel') : t(priorityKey(s.priority)),
            },
            { title: t('workOrderUi.deadlineHours'), dataIndex: 'deadline_hours' },
            {
              title: t('workOrderUi.rules.requireRecoveredShort'),
              render: (_, s) => t(s.require_recovered ? 'workOrderUi.rules.yes' : 'workOrderUi.rules.no'),
            },
            {
              title: '',
              // A rule naming sites the user does not hold (or every site) is theirs to read, not to change.
              render: (_, s) =>
                s.editable && (
                  <Button size="small" type="link" onClick={() => setEditing(s)}>
                    {t('workOrderUi.actions.edit')}
                  </Button>
                ),
            },
          ]}
        />
      </div>
      <RuleForm rule={editing} onClose={() => setEditing(undefined)} />
    </Drawer>
  );
};
