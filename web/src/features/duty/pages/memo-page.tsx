import { dutyRoutes as r } from '@sitewatch/contract/duty';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Flex, Form, Input, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { useSiteName } from '../site-name.ts';

const day = (d: Dayjs) => d.format('YYYY-MM-DD');

/**
 * /duty_manage/duty_memo: the duty memorandum of the last 90 days: the memos of the user's sites and
 * their own notes (a memo with no site); each is changed by its author (docs/inspection-duty.md).
 */
export const MemoPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const canEdit = useCan('/duty_manage/duty_memo', 'edit');
  const siteName = useSiteName();
  const from = day(dayjs().subtract(90, 'day'));
  const to = day(dayjs().add(30, 'day'));
  const done = () => {
    void client.invalidateQueries({ queryKey: ['duty', 'memos'] });
    void message.success(t('dutyUi.saved'));
  };
  const memos = useQuery({ queryKey: ['duty', 'memos'], queryFn: () => api.call(r.memos, { query: { from, to } }) });
  const add = useMutation({
    mutationFn: (v: { date: Dayjs; content: string; device_group_id?: number | null }) =>
      api.call(r.addMemo, {
        body: { date: day(v.date), content: v.content, device_group_id: v.device_group_id ?? null },
      }),
    onSuccess: () => (form.resetFields(), done()),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(r.deleteMemo, { params: { id } }),
    onSuccess: done,
  });
  return (
    <Flex vertical gap={16} data-testid="duty-memo">
      {canEdit && (
        <Card size="small" title={t('dutyUi.memo')}>
          <Form form={form} layout="inline" onFinish={(v) => add.mutate(v)} initialValues={{ date: dayjs() }}>
            <Form.Item name="date">
              <DatePicker allowClear={false} />
            </Form.Item>
            <Form.Item name="device_group_id" tooltip={t('dutyUi.noSiteHelp')} label={t('dutyUi.site')}>
              <SiteSelect allowClear placeholder={t('dutyUi.ownNote')} ariaLabel={t('dutyUi.site')} />
            </Form.Item>
            <Form.Item name="content" rules={[{ required: true, whitespace: true, message: t('dutyUi.content') }]}>
              <Input.TextArea
                aria-label={t('dutyUi.content')}
                placeholder={t('dutyUi.content')}
                rows={1}
                style={{ width: 420 }}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit">
              {t('common.add')}
            </Button>
          </Form>
        </Card>
      )}
      <Card size="small" title={t('dutyUi.memos')}>
        <Table
          rowKey="id"
          size="small"
          dataSource={memos.data ?? []}
          columns={[
            { title: t('dutyUi.date'), dataIndex: 'date', width: 120 },
            { title: t('dutyUi.site'), render: (_, m) => siteName(m.device_group_id, t('dutyUi.ownNote')), width: 160 },
            { title: t('dutyUi.content'), dataIndex: 'content' },
            { title: t('dutyUi.author'), dataIndex: 'user_name', width: 140 },
            { title: t('dutyUi.created'), render: (_, m) => formatTime(m.create_time), width: 180 },
            {
              title: '',
              width: 90,
              render: (_, m) =>
                canEdit &&
                m.editable && (
                  <Button size="small" danger onClick={() => remove.mutate(m.id)}>
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
