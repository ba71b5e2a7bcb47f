import { alarmRoutes } from '@sitewatch/contract/alarms';
import { notifyRoutes } from '@sitewatch/contract/notify';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useChannelKinds } from '../../../components/channel-kinds.ts';
import { ClearLogButton } from '../../../components/clear-log-button.tsx';
import { ResourcePage } from '../../../components/resource-page.tsx';
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
  const kinds = useChannelKinds();
  const page = kind === 'alarm' ? '/system_log_alarm' : '/system_log_notification';
  const canClear = useCan(page, 'clear');
  const queryKey = ['alarms', 'logs', kind];
  return (
    <ResourcePage<LogRow>
      page={page}
      title={kind === 'alarm' ? t('alarmPages.alarmLog') : t('alarmPages.notificationLog')}
      routes={{ list: kind === 'alarm' ? alarmRoutes.alarmLog : notifyRoutes.notificationLog }}
      queryKey={queryKey}
      toolbar={() =>
        canClear && (
          <ClearLogButton
            route={kind === 'alarm' ? alarmRoutes.alarmLogClear : notifyRoutes.notificationLogClear}
            queryKey={queryKey}
            label={t('alarmPages.clear')}
            title={t('alarmPages.clear')}
            explain={t('alarmPages.verifyPassword')}
            passwordLabel={t('alarmPages.verifyPassword')}
          />
        )
      }
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
            return r.channel ? `${name} · ${kinds.label(r.channel)}` : name;
          },
        },
        kind === 'notification'
          ? { title: t('alarmPages.target'), dataIndex: 'target' }
          : { title: t('alarmPages.user'), dataIndex: 'user_name' },
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
