import { ldapRoutes, type RemoteUser } from '@sitewatch/contract/ldap';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../../api/client.ts';
import { groupsQuery, remoteUsersQuery, rolesQuery } from '../api.ts';

interface ImportValues {
  role_ids: number[];
  user_group_id: number | null;
}

/** The directory's users, searched and paged, with the import of the chosen ones. */
export const RemoteUsers = ({
  enabled,
  canImport,
  defaults,
}: {
  enabled: boolean;
  canImport: boolean;
  defaults: ImportValues;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [paging, setPaging] = useState({ page: 1, limit: 10 });
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [importing, setImporting] = useState(false);
  const [form] = Form.useForm<ImportValues>();
  const users = useQuery({
    ...remoteUsersQuery({ ...paging, ...(name ? { name } : {}) }),
    enabled,
    placeholderData: keepPreviousData,
  });
  const roles = useQuery({ ...rolesQuery, enabled: importing });
  const groups = useQuery({ ...groupsQuery, enabled: importing });
  const run = useMutation({
    mutationFn: (values: ImportValues) => api.call(ldapRoutes.import, { body: { user_names: selected, ...values } }),
    onSuccess: (result) => {
      void message.success(
        t('ldap.page.importResult', { imported: result.imported.length, skipped: result.skipped.length }),
      );
      setImporting(false);
      setSelected([]);
      void client.invalidateQueries({ queryKey: ['ldap', 'remote-users'] });
    },
  });

  const status = (user: RemoteUser) =>
    user.imported ? (
      <Tag color="green">{t('ldap.page.imported')}</Tag>
    ) : user.user_id !== null ? (
      <Tag color="orange">{t('ldap.page.localAccount')}</Tag>
    ) : (
      <Tag>{t('ldap.page.notImported')}</Tag>
    );

  return (
    <Card title={t('ldap.page.usersTitle')}>
      {!enabled ? (
        <Alert type="info" showIcon message={t('ldap.page.enableFirst')} />
      ) : (
        <>
          <Flex justify="space-between" gap={8} style={{ marginBottom: 16 }} wrap>
            <Input.Search
              allowClear
              placeholder={t('ldap.page.searchPlaceholder')}
              aria-label={t('ldap.page.searchPlaceholder')}
              enterButton={t('common.search')}
              maxLength={64}
              style={{ maxWidth: 360 }}
              onSearch={(value) => {
                setName(value.trim());
                setPaging((p) => ({ ...p, page: 1 }));
              }}
            />
            {canImport && (
              <Button
                type="primary"
                disabled={selected.length === 0}
                onClick={() => {
                  form.setFieldsValue(defaults);
                  setImporting(true);
                }}
              >
                {t('ldap.page.importSelected', { count: selected.length })}
              </Button>
            )}
          </Flex>
          {users.error && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              message={users.error instanceof ApiError ? users.error.message : t('common.operationFailed')}
            />
          )}
          <Table<RemoteUser>
            rowKey="dn"
            size="middle"
            loading={users.isFetching}
            dataSource={users.data?.data ?? []}
            rowSelection={
              canImport
                ? {
                    selectedRowKeys: (users.data?.data ?? [])
                      .filter((u) => selected.includes(u.user_name))
                      .map((u) => u.dn),
                    getCheckboxProps: (u) => ({ disabled: u.user_id !== null, name: u.user_name }),
                    onChange: (_keys, rows) => {
                      const onPage = new Set((users.data?.data ?? []).map((u) => u.user_name));
                      setSelected((old) => [...old.filter((n) => !onPage.has(n)), ...rows.map((r) => r.user_name)]);
                    },
                  }
                : undefined
            }
            pagination={{
              current: paging.page,
              pageSize: paging.limit,
              total: users.data?.total ?? 0,
              showSizeChanger: true,
              onChange: (page, limit) => setPaging({ page, limit }),
            }}
            columns={[
              { title: t('ldap.page.userName'), dataIndex: 'user_name' },
              { title: t('ldap.page.alias'), dataIndex: 'alias' },
              { title: t('ldap.page.email'), dataIndex: 'email' },
              { title: t('ldap.page.phone'), dataIndex: 'phone' },
              {
                title: t('ldap.page.dn'),
                dataIndex: 'dn',
                ellipsis: true,
                render: (dn: string) => <Typography.Text type="secondary">{dn}</Typography.Text>,
              },
              { title: t('ldap.page.status'), key: 'status', width: 130, render: (_, user) => status(user) },
            ]}
          />
        </>
      )}
      <Modal
        open={importing}
        title={t('ldap.page.importTitle')}
        onCancel={() => setImporting(false)}
        onOk={() => void form.validateFields().then((values) => run.mutate(values))}
        confirmLoading={run.isPending}
        maskClosable={false}
      >
        <Typography.Paragraph>{selected.join(', ')}</Typography.Paragraph>
        <Form form={form} name="ldap_import" layout="vertical">
          <Form.Item
            name="role_ids"
            label={t('ldap.page.defaultRoles')}
            rules={[{ required: true, type: 'array', min: 1, message: t('ldap.validation.roleRequired') }]}
          >
            <Select mode="multiple" options={(roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }))} />
          </Form.Item>
          <Form.Item
            name="user_group_id"
            label={t('ldap.page.defaultGroup')}
            rules={[{ required: true, message: t('ldap.validation.groupRequired') }]}
          >
            <Select options={(groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
};
