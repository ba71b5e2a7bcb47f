import { monitoringRoutes as m, type timePeriodRow } from '@sitewatch/contract/monitoring';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { periodsQuery } from '../../../components/period-select.tsx';
import { WeeklyRangesField } from '../../../components/weekly-ranges-field.tsx';
import { useCan } from '../../../session/permissions.ts';

type Period = z.infer<typeof timePeriodRow>;
type Range = Period['ranges'][number];
interface Values {
  name: string;
  ranges: Range[];
}

const weekdays = [1, 2, 3, 4, 5, 6, 7] as const;

/**
 * /week_time: the time periods (check, notification, alarm and working periods) of
 * `setting/time_periods`, at their spec route. Writing them needs the item page's edit grant, as
 * the server asks (docs/system.md, "/week_time").
 */
export const WeekTimePage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const canEdit = useCan('/setting_items', 'edit');
  const periods = useQuery(periodsQuery);
  const [editing, setEditing] = useState<Period | 'new' | null>(null);
  const [form] = Form.useForm<Values>();
  const done = () => {
    void client.invalidateQueries({ queryKey: periodsQuery.queryKey });
    void message.success(t('common.operationSuccess'));
  };
  const save = useMutation({
    mutationFn: (v: Values) =>
      editing && editing !== 'new'
        ? api.call(m.updateTimePeriod, { params: { id: editing.id }, body: v })
        : api.call(m.createTimePeriod, { body: v }),
    onSuccess: () => {
      setEditing(null);
      done();
    },
    onError: (err) => void message.error(err.message),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(m.deleteTimePeriod, { params: { id } }),
    onSuccess: done,
    onError: (err) => void message.error(err.message),
  });
  const open = (row: Period | 'new') => {
    form.setFieldsValue(
      row === 'new' ? { name: '', ranges: [{ weekdays: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' }] } : row,
    );
    setEditing(row);
  };
  const rangeText = (r: Range) =>
    `${r.weekdays.map((d) => t(`securityPage.weekday.${d as (typeof weekdays)[number]}`)).join(' ')} ${r.start}–${r.end}`;
  return (
    <Card
      title={t('systemUi.weekTime.title')}
      size="small"
      extra={
        canEdit && (
          <Button type="primary" onClick={() => open('new')}>
            {t('common.add')}
          </Button>
        )
      }
    >
      <Table<Period>
        rowKey="id"
        size="small"
        loading={periods.isPending}
        dataSource={periods.data?.data ?? []}
        pagination={false}
        columns={[
          { title: t('systemUi.weekTime.name'), dataIndex: 'name', width: 240 },
          {
            title: t('systemUi.weekTime.ranges'),
            render: (_, row) => (
              <Space wrap size={4}>
                {row.ranges.map((r) => (
                  <Tag key={rangeText(r)}>{rangeText(r)}</Tag>
                ))}
              </Space>
            ),
          },
          ...(canEdit
            ? [
                {
                  title: t('common.actions'),
                  width: 160,
                  render: (_: unknown, row: Period) => (
                    <Space>
                      <Button size="small" onClick={() => open(row)}>
                        {t('common.edit')}
                      </Button>
                      <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(row.id)}>
                        <Button size="small" danger>
                          {t('common.delete')}
                        </Button>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Modal
        open={editing !== null}
        title={t(editing === 'new' ? 'systemUi.weekTime.addTitle' : 'systemUi.weekTime.editTitle')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        confirmLoading={save.isPending}
        width={720}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Form.Item
            name="name"
            label={t('systemUi.weekTime.name')}
            rules={[{ required: true, whitespace: true, max: 64, message: t('systemUi.weekTime.nameRequired') }]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item label={t('systemUi.weekTime.ranges')} required>
            <WeeklyRangesField name="ranges" addLabel={t('systemUi.weekTime.addRange')} endOfDay />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
};
