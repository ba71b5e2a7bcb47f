import { useQuery } from '@tanstack/react-query';
import { App, Card, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { contactGroupsQuery, noticesQuery, useSetNoticeContact, useToggleNotice } from '../api.ts';

const builtIn = ['email', 'sms', 'voice', 'webhook', 'dingtalk', 'wecom', 'feishu'] as const;
type BuiltIn = (typeof builtIn)[number];
const isBuiltIn = (kind: string): kind is BuiltIn => (builtIn as readonly string[]).includes(kind);

/**
 * /door_notice_config (002 §2.1; docs/door-access.md, "Notifications"): each kind of door event, on
 * or off, and the contact group it notifies, with the channels that group reaches its contacts by.
 */
export const DoorNoticeConfigPage = () => {
  const { t } = useTranslation();
  const notices = useQuery(noticesQuery);
  const groups = useQuery(contactGroupsQuery);
  const setContact = useSetNoticeContact();
  const toggle = useToggleNotice();
  const canEdit = useCan('/door_notice_config', 'edit');
  const { message } = App.useApp();
  const tell = async (work: Promise<unknown>) => {
    try {
      await work;
      message.success(t('doorPage.saved'));
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };
  const groupOf = (id: number) => groups.data?.list.find((g) => g.id === id);
  const channelName = (c: { kind: string; name: string }) =>
    c.name || (isBuiltIn(c.kind) ? t(`doorPage.channelKinds.${c.kind}`) : c.kind);
  return (
    <Card title={t('doorPage.noticeTitle')}>
      <Typography.Paragraph type="secondary">{t('doorPage.noticeIntro')}</Typography.Paragraph>
      <Table
        rowKey="kind"
        loading={notices.isLoading}
        dataSource={notices.data?.list ?? []}
        pagination={false}
        columns={[
          { title: t('doorPage.noticeEvent'), render: (_, n) => t(`doorPage.noticeKinds.${n.kind}`) },
          {
            title: t('doorPage.noticeEnabled'),
            render: (_, n) => (
              <Switch
                aria-label={`${t(`doorPage.noticeKinds.${n.kind}`)} ${t('doorPage.noticeEnabled')}`}
                checked={n.enabled}
                disabled={!canEdit}
                loading={toggle.isPending && toggle.variables?.kind === n.kind}
                onChange={(enabled) => tell(toggle.mutateAsync({ kind: n.kind, enabled }))}
              />
            ),
          },
          {
            title: t('doorPage.noticeGroup'),
            render: (_, n) => (
              <Select
                aria-label={`${t(`doorPage.noticeKinds.${n.kind}`)} ${t('doorPage.noticeGroup')}`}
                style={{ minWidth: 200 }}
                value={n.contact_group_id}
                disabled={!canEdit}
                onChange={(contact_group_id: number) =>
                  tell(setContact.mutateAsync({ kind: n.kind, contact_group_id }))
                }
                options={[
                  { value: 0, label: t('doorPage.noticeNone') },
                  ...(groups.data?.list ?? []).map((g) => ({ value: g.id, label: g.name })),
                ]}
              />
            ),
          },
          {
            title: t('doorPage.noticeChannels'),
            render: (_, n) => {
              const g = groupOf(n.contact_group_id);
              if (!g) return null;
              if (g.channels.length === 0)
                return <Typography.Text type="warning">{t('doorPage.noticeNoChannels')}</Typography.Text>;
              return (
                <Space wrap size={4}>
                  <Typography.Text type="secondary">{t('doorPage.noticeContacts', { n: g.contacts })}</Typography.Text>
                  {g.channels.map((c) => (
                    <Tag key={`${c.kind}-${c.name}`}>{channelName(c)}</Tag>
                  ))}
                </Space>
              );
            },
          },
        ]}
      />
    </Card>
  );
};
