import { type Handover, dutyRoutes as r } from '@sitewatch/contract/duty';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Form, Input, Select, Space, Switch, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { useSiteName } from '../site-name.ts';

/**
 * /duty_manage/change_shifts: hand the shift over (of a site, read by its users, or between the two
 * people only), the successor confirms; the shift-handover switch (users granted every site).
 */
export const HandoverPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const me = useSession((s) => s.user?.id);
  const canEdit = useCan('/duty_manage/change_shifts', 'edit');
  // The switch routes every site's notices: a user granted every site sets it (the server checks too).
  const everySite = useSession((s) => s.user?.site_ids === null);
  const siteName = useSiteName();
  const done = () => {
    void client.invalidateQueries({ queryKey: ['duty'] });
    void message.success(t('dutyUi.saved'));
  };
  const list = useQuery({ queryKey: ['duty', 'handovers'], queryFn: () => api.call(r.handovers, { query: {} }) });
  const users = useQuery({ queryKey: ['duty', 'successors'], queryFn: () => api.call(r.successors, { query: {} }) });
  const settings = useQuery({ queryKey: ['duty', 'settings'], queryFn: () => api.call(r.getSettings, { query: {} }) });
  const setSettings = useMutation({
    mutationFn: (handover_enable: boolean) => api.call(r.setSettings, { body: { handover_enable } }),
    onSuccess: done,
  });
  const add = useMutation({
    mutationFn: (v: { successor_id: number; events: string; device_group_id?: number | null }) =>
      api.call(r.addHandover, { body: { ...v, device_group_id: v.device_group_id ?? null } }),
    onSuccess: () => (form.resetFields(), done()),
  });
  const confirm = useMutation({
    mutationFn: (id: number) => api.call(r.confirmHandover, { params: { id }, body: {} }),
    onSuccess: done,
  });
  const withdraw = useMutation({
    mutationFn: (id: number) => api.call(r.deleteHandover, { params: { id } }),
    onSuccess: done,
  });

  return (
    <Flex vertical gap={16} data-testid="duty-handover">
      <Card
        size="small"
        title={t('dutyUi.handover')}
        extra={
          <Space>
            <span>{t('dutyUi.handoverEnable')}</span>
            <Switch
              aria-label={t('dutyUi.handoverEnable')}
              disabled={!canEdit || !everySite || !settings.data}
              checked={settings.data?.handover_enable}
              onChange={(v) => setSettings.mutate(v)}
            />
          </Space>
        }
      >
        {canEdit && (
          <Form form={form} layout="vertical" onFinish={(v) => add.mutate(v)} style={{ maxWidth: 560 }}>
            <Form.Item
              name="successor_id"
              label={t('dutyUi.successor')}
              rules={[{ required: true, message: t('dutyUi.successor') }]}
            >
              <Select
                aria-label={t('dutyUi.successor')}
                options={(users.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
              />
            </Form.Item>
            <Form.Item name="device_group_id" label={t('dutyUi.site')} extra={t('dutyUi.noSiteHelp')}>
              <SiteSelect allowClear placeholder={t('dutyUi.onlyTheTwo')} />
            </Form.Item>
            <Form.Item
              name="events"
              label={t('dutyUi.events')}
              rules={[{ required: true, whitespace: true, message: t('dutyUi.events') }]}
            >
              <Input.TextArea aria-label={t('dutyUi.events')} rows={3} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={add.isPending}>
              {t('dutyUi.handOver')}
            </Button>
          </Form>
        )}
      </Card>
      <Card size="small" title={t('dutyUi.records')}>
        <Table<Handover>
          rowKey="id"
          size="small"
          dataSource={list.data ?? []}
          columns={[
            { title: t('dutyUi.handoverTime'), render: (_, h) => formatTime(h.handover_time) },
            { title: t('dutyUi.site'), render: (_, h) => siteName(h.device_group_id, t('dutyUi.onlyTheTwo')) },
            { title: t('dutyUi.shifter'), dataIndex: 'shifter' },
            { title: t('dutyUi.successor'), dataIndex: 'successor' },
            { title: t('dutyUi.events'), dataIndex: 'events' },
            {
              title: t('dutyUi.status'),
              render: (_, h) => (
                <Tag color={h.status === 1 ? 'green' : 'gold'}>
                  {h.status === 1 ? `${t('dutyUi.confirmed')} ${formatTime(h.confirmed_at)}` : t('dutyUi.waiting')}
                </Tag>
              ),
            },
            {
              title: '',
              render: (_, h) =>
                h.status === 0 && (
                  <Space>
                    {h.successor_id === me && (
                      <Button size="small" type="primary" onClick={() => confirm.mutate(h.id)}>
                        {t('dutyUi.confirm')}
                      </Button>
                    )}
                    {h.shifter_id === me && canEdit && (
                      <Button size="small" onClick={() => withdraw.mutate(h.id)}>
                        {t('dutyUi.withdraw')}
                      </Button>
                    )}
                  </Space>
                ),
            },
          ]}
        />
      </Card>
    </Flex>
  );
};
