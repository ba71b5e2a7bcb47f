import { authRoutes } from '@sitewatch/contract/auth';
import { email, phone, type UserRow, usersRoutes } from '@sitewatch/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  TreeSelect,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { matches } from '../../../components/form-rules.ts';
import { useCan, useIsAdministrator } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { groupsQuery, rolesQuery, toTree, usersQuery } from '../api.ts';

interface Values {
  user_name: string;
  alias: string;
  password?: string;
  confirm?: string;
  role_ids: number[];
  user_group_ids: number[];
  email: string;
  phone: string;
  enable: boolean;
  unlock?: boolean;
}

/** /setting_users (002 §2.3 Users, §3 User, §5.1). */
export const UsersPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState({ page: 1, limit: 10 });
  const [editing, setEditing] = useState<UserRow | 'new' | null>(null);
  const [form] = Form.useForm<Values>();
  const canAdd = useCan('/setting_users', 'add');
  const canEdit = useCan('/setting_users', 'edit');
  const canDelete = useCan('/setting_users', 'delete');
  // Only an administrator gives role 1, changes an administrator or their own roles; the server
  // also refuses users and roles beyond the editor's own grants (docs/users.md).
  const isAdministrator = useIsAdministrator();
  const me = useSession((s) => s.user?.id);
  const manageable = (user: UserRow) => isAdministrator || (user.id !== 1 && !user.role_ids.includes(1));
  const list = useQuery(usersQuery({ ...paging, name: search || undefined }));
  const roles = useQuery(rolesQuery);
  const groups = useQuery(groupsQuery);
  const roleName = new Map(roles.data?.data.map((r) => [r.id, r.name]));
  const groupName = new Map(groups.data?.data.map((g) => [g.id, g.name]));
  const refresh = () => void client.invalidateQueries({ queryKey: ['users'] });

  const save = useMutation({
    mutationFn: async (values: Values) => {
      const { public_key } = await api.call(authRoutes.loginParams);
      const password = values.password ? await encryptForServer(public_key, values.password) : undefined;
      const fields = {
        alias: values.alias ?? '',
        email: values.email ?? '',
        phone: values.phone ?? '',
        enable: values.enable,
        role_ids: values.role_ids,
        user_group_ids: values.user_group_ids,
      };
      if (editing === 'new') {
        await api.call(usersRoutes.create, {
          body: { ...fields, user_name: values.user_name, password: password ?? '' },
        });
      } else if (editing) {
        await api.call(usersRoutes.update, {
          params: { id: editing.id },
          body: { ...fields, ...(password ? { password } : {}), ...(values.unlock ? { unlock: true } : {}) },
        });
      }
    },
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setEditing(null);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(usersRoutes.remove, { params: { id } }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (user: UserRow) =>
      api.call(usersRoutes.update, {
        params: { id: user.id },
        body: {
          alias: user.alias,
          email: user.email,
          phone: user.phone,
          enable: !user.enable,
          role_ids: user.role_ids,
          user_group_ids: user.user_group_ids,
        },
      }),
    onSuccess: refresh,
  });

  const open = (user: UserRow | 'new') => {
    setEditing(user);
    form.resetFields();
    form.setFieldsValue(
      user === 'new'
        ? { enable: true, role_ids: [], user_group_ids: [], alias: '', email: '', phone: '' }
        : { ...user, password: undefined, confirm: undefined, unlock: false },
    );
  };
  const isNew = editing === 'new';
  const zodRule = (schema: typeof email | typeof phone, key: 'userPages.emailInvalid' | 'userPages.phoneInvalid') => ({
    validator: (_: unknown, value: string | undefined) =>
      schema.safeParse(value ?? '').success ? Promise.resolve() : Promise.reject(new Error(t(key))),
  });

  return (
    <Card title={t('menu.users')}>
      <Flex justify="space-between" style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('userPages.searchName')}
          onSearch={(value) => {
            setSearch(value.trim());
            setPaging((p) => ({ ...p, page: 1 }));
          }}
          style={{ width: 280 }}
        />
        {canAdd && (
          <Button type="primary" onClick={() => open('new')}>
            {t('common.add')}
          </Button>
        )}
      </Flex>
      <Table<UserRow>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          total: list.data?.total ?? 0,
          onChange: (page, limit) => setPaging({ page, limit }),
        }}
        columns={[
          { title: t('userPages.userName'), dataIndex: 'user_name' },
          { title: t('userPages.alias'), dataIndex: 'alias' },
          {
            title: t('userPages.roles'),
            dataIndex: 'role_ids',
            render: (ids: number[]) => ids.map((id) => <Tag key={id}>{roleName.get(id) ?? id}</Tag>),
          },
          {
            title: t('userPages.groups'),
            dataIndex: 'user_group_ids',
            render: (ids: number[]) => ids.map((id) => <Tag key={id}>{groupName.get(id) ?? id}</Tag>),
          },
          { title: t('userPages.email'), dataIndex: 'email' },
          { title: t('userPages.phone'), dataIndex: 'phone' },
          {
            title: t('userPages.enable'),
            dataIndex: 'enable',
            render: (enable: boolean, user) => (
              <Space>
                <Switch
                  size="small"
                  checked={enable}
                  disabled={user.id === 1 || !canEdit || !manageable(user)}
                  onChange={() => toggle.mutate(user)}
                />
                {user.locked && <Tag color="red">{t('userPages.locked')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            render: (_, user) => (
              <Space>
                {canEdit && manageable(user) && (
                  <Button size="small" onClick={() => open(user)}>
                    {t('common.edit')}
                  </Button>
                )}
                {user.id !== 1 && canDelete && manageable(user) && (
                  <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(user.id)}>
                    <Button size="small" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={isNew ? t('userPages.addUser') : t('userPages.editUser')}
        onCancel={() => setEditing(null)}
        onOk={() => void form.validateFields().then((values) => save.mutate(values))}
        confirmLoading={save.isPending}
        maskClosable={false}
        width={640}
      >
        <Form form={form} name="user" layout="horizontal" labelCol={{ span: 6 }} wrapperCol={{ span: 16 }}>
          <Form.Item
            name="user_name"
            label={t('userPages.userName')}
            rules={[{ required: true, whitespace: true, message: t('userPages.userNameRequired') }]}
          >
            <Input disabled={!isNew} maxLength={64} autoComplete="off" />
          </Form.Item>
          <Form.Item name="alias" label={t('userPages.alias')}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="password"
            label={isNew ? t('userPages.password') : t('userPages.resetPassword')}
            rules={[
              { required: isNew, message: t('userPages.passwordRequired') },
              { min: 6, message: t('userPages.passwordMin') },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('userPages.confirm')}
            dependencies={['password']}
            rules={[
              ({ getFieldValue }) => ({
                required: Boolean(getFieldValue('password')),
                message: t('login.dialog.confirmRequired'),
              }),
              matches('password', t('login.dialog.mismatch')),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="role_ids"
            label={t('userPages.roles')}
            rules={[{ required: true, type: 'array', min: 1, message: t('userPages.roleRequired') }]}
          >
            <Select
              mode="multiple"
              disabled={!isAdministrator && editing !== null && editing !== 'new' && editing.id === me}
              options={roles.data?.data
                .filter((r) => isAdministrator || r.id !== 1)
                .map((r) => ({ value: r.id, label: r.name }))}
            />
          </Form.Item>
          <Form.Item
            name="user_group_ids"
            label={t('userPages.groups')}
            rules={[{ required: true, type: 'array', min: 1, message: t('userPages.groupRequired') }]}
          >
            <TreeSelect
              multiple
              treeDefaultExpandAll
              treeData={toTree(groups.data?.data ?? [])}
              fieldNames={{ label: 'name', value: 'id', children: 'children' }}
            />
          </Form.Item>
          <Form.Item name="email" label={t('userPages.email')} rules={[zodRule(email, 'userPages.emailInvalid')]}>
            <Input maxLength={128} />
          </Form.Item>
          <Form.Item name="phone" label={t('userPages.phone')} rules={[zodRule(phone, 'userPages.phoneInvalid')]}>
            <Input maxLength={13} />
          </Form.Item>
          <Form.Item name="enable" label={t('userPages.enable')} valuePropName="checked">
            <Switch disabled={!isNew && editing !== null && editing.id === 1} />
          </Form.Item>
          {!isNew && editing !== null && editing.locked && (
            <Form.Item name="unlock" label={t('userPages.unlock')} valuePropName="checked">
              <Switch />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Card>
  );
};
