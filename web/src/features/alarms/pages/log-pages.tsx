import { alarmRoutes } from '@sitewatch/contract/alarms';
import { authRoutes } from '@sitewatch/contract/auth';
import { notifyRoutes } from '@sitewatch/contract/notify';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { stateOf } from '../../../components/states.ts';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';

interface LogRow {
  id: number;
  time: number;
  item_name: string;
  device_name: string;
  device_group_name: string;
  state: number;
  action: string;
  result: number;
  detail: string;
  attempts: number;
  channel?: string;
  target?: string;
  user_name?: string;
}

/** One log page: triggered item, state, executed action, result, detail, attempts; clearing asks for the password. */
const LogPage = ({ kind }: { kind: 'alarm' | 'notification' }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [clearing, setClearing] = useState(false);
  const [password, setPassword] = useState('');
  const page = kind === 'alarm' ? '/system_log_alarm' : '/system_log_notification';
  const canClear = useCan(page, 'clear');
  const list = useQuery({
    queryKey: ['alarms', 'logs', kind, paging],
    queryFn: async (): Promise<{ total: number; data: LogRow[] }> =>
      kind === 'alarm'
        ? api.call(alarmRoutes.alarmLog, { query: paging })
        : api.call(notifyRoutes.notificationLog, { query: paging }),
  });
  const clear = useMutation({
    mutationFn: async () => {
      const { public_key } = await api.call(authRoutes.loginParams);
      const body = { verify_password: await encryptForServer(public_key, password) };
      return kind === 'alarm'
        ? api.call(alarmRoutes.alarmLogClear, { body })
        : api.call(notifyRoutes.notificationLogClear, { body });
    },
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setClearing(false);
      setPassword('');
      void client.invalidateQueries({ queryKey: ['alarms', 'logs'] });
    },
  });
  return (
    <Card
      title={kind === 'alarm' ? t('alarmPages.alarmLog') : t('alarmPages.notificationLog')}
      extra={
        canClear && (
          <Button danger onClick={() => setClearing(true)}>
            {t('alarmPages.clear')}
          </Button>
        )
      }
    >
      <Table<LogRow>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          total: list.data?.total ?? 0,
          onChange: (p, l) => setPaging({ page: p, limit: l }),
        }}
        columns={[
          {
            title: t('alarmPages.time'),
            dataIndex: 'time',
            render: (s: number) => formatTime(s),
          },
          {
            title: t('alarmPages.triggered'),
            render: (_: unknown, r) => [r.device_group_name, r.device_name, r.item_name].filter(Boolean).join(' / '),
          },
          {
            title: t('alarmPages.state'),
            dataIndex: 'state',
            render: (s: number) =>
              s === 1000 ? t('alarmPages.label.recovered') : <Tag color={stateOf(s).color}>{t(stateOf(s).key)}</Tag>,
          },
          {
            title: t('alarmPages.executedAction'),
            dataIndex: 'action',
            render: (a: string, r) => {
              const name = isAction(a) ? t(actionKeys[a]) : a;
              return r.channel ? `${name} · ${r.channel}` : name;
            },
          },
          ...(kind === 'notification'
            ? [{ title: t('alarmPages.target'), dataIndex: 'target' }]
            : [{ title: t('alarmPages.user'), dataIndex: 'user_name' }]),
          {
            title: t('alarmPages.result'),
            dataIndex: 'result',
            render: (r: number) => (
              <Tag color={r ? 'green' : 'red'}>{r ? t('alarmPages.ok') : t('alarmPages.failed')}</Tag>
            ),
          },
          { title: t('alarmPages.detail'), dataIndex: 'detail', ellipsis: true },
          { title: t('alarmPages.attempts'), dataIndex: 'attempts' },
        ]}
      />
      <Modal
        open={clearing}
        title={t('alarmPages.clear')}
        onCancel={() => setClearing(false)}
        okButtonProps={{ danger: true, disabled: password === '', loading: clear.isPending }}
        onOk={() => clear.mutate()}
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          {t('alarmPages.verifyPassword')}
          <Input.Password
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
          />
        </Space>
      </Modal>
    </Card>
  );
};

/** What each logged action is called (the log keeps the code; people read the name). */
const actionKeys = {
  raise: 'alarmPages.actions.raise',
  recover: 'alarmPages.actions.recover',
  confirm: 'alarmPages.actions.confirm',
  unconfirm: 'alarmPages.actions.unconfirm',
  disable: 'alarmPages.actions.disable',
  enable: 'alarmPages.actions.enable',
  confirm_all: 'alarmPages.actions.confirm_all',
  escalate: 'alarmPages.actions.escalate',
  jitter_start: 'alarmPages.actions.jitter_start',
  jitter_stop: 'alarmPages.actions.jitter_stop',
  notice: 'alarmPages.actions.notice',
  recovery: 'alarmPages.actions.recovery',
  still_abnormal: 'alarmPages.actions.still_abnormal',
  escalation: 'alarmPages.actions.escalation',
  summary: 'alarmPages.actions.summary',
  test: 'alarmPages.actions.test',
} as const;
const isAction = (a: string): a is keyof typeof actionKeys => a in actionKeys;

export const AlarmLogPage = () => <LogPage kind="alarm" />;
export const NotificationLogPage = () => <LogPage kind="notification" />;
