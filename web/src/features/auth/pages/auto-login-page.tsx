import { authRoutes } from '@sitewatch/contract/auth';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { formatTime } from '../../../components/time.ts';
import { deviceTokensQuery } from '../api.ts';

const when = (seconds: number | null) => formatTime(seconds);

/** /setting_auto_login: the browsers that log in automatically, each revocable (administrator: everyone's). */
export const AutoLoginPage = ({ isAdmin }: { isAdmin: boolean }) => {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const client = useQueryClient();
  const [all, setAll] = useState(false);
  const list = useQuery(deviceTokensQuery(all));
  const revoke = useMutation({
    mutationFn: (id: number) => api.call(authRoutes.revokeDeviceToken, { params: { id } }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: ['auth', 'device-tokens'] });
    },
  });
  return (
    <Card
      title={t('autoLogin.title')}
      extra={
        isAdmin && (
          <Switch
            checked={all}
            onChange={setAll}
            checkedChildren={t('autoLogin.allUsers')}
            unCheckedChildren={t('autoLogin.mine')}
          />
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('autoLogin.explain')}</Typography.Paragraph>
      <Table
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        pagination={false}
        columns={[
          ...(all ? [{ title: t('autoLogin.user'), dataIndex: 'user_name' }] : []),
          {
            title: t('autoLogin.browser'),
            dataIndex: 'user_agent',
            ellipsis: true,
            render: (ua: string, row) => (
              <>
                {row.current && <Tag color="green">{t('autoLogin.thisBrowser')}</Tag>}
                {ua}
              </>
            ),
          },
          { title: t('autoLogin.ip'), dataIndex: 'ip', width: 140 },
          {
            title: t('autoLogin.period'),
            dataIndex: 'period',
            width: 120,
            render: (p: 1 | 2 | 3 | 4 | 5 | 6) => t(`login.periods.${p}`),
          },
          { title: t('autoLogin.created'), dataIndex: 'created_at', width: 180, render: when },
          { title: t('autoLogin.lastUsed'), dataIndex: 'last_used_at', width: 180, render: when },
          {
            title: t('autoLogin.expires'),
            dataIndex: 'expires_at',
            width: 180,
            render: (v: number | null) => (v ? when(v) : t('login.periods.1')),
          },
          {
            title: t('common.actions'),
            width: 100,
            render: (_, row) => (
              <Popconfirm title={t('autoLogin.revokeConfirm')} onConfirm={() => revoke.mutate(row.id)}>
                <Button danger size="small">
                  {t('autoLogin.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
};
