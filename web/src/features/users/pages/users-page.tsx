import { authRoutes } from '@sitewatch/contract/auth';
import { type UserRow, userCreate, usersRoutes, userUpdate } from '@sitewatch/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Select, Space, Switch, Tag, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { ConfirmPasswordItem } from '../../../components/confirm-password-item.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { useCan, useIsAdministrator } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { groupsQuery, rolesQuery, toTree } from '../api.ts';

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
  const client = useQueryClient();
  const canEdit = useCan('/setting_users', 'edit');
  // Only an administrator gives role 1, changes an administrator or their own roles; the server
  // also refuses users and roles beyond the editor's own grants (docs/users.md).
  const isAdministrator = useIsAdministrator();
  const me = useSession((s) => s.user?.id);
  const manageable = (user: UserRow) => isAdministrator || (user.id !== 1 && !user.role_ids.includes(1));
  const roles = useQuery(rolesQuery);
  const groups = useQuery(groupsQuery);
  const roleName = new Map(roles.data?.data.map((r) => [r.id, r.name]));
  const groupName = new Map(groups.data?.data.map((g) => [g.id, g.name]));
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
    onSuccess: () => void client.invalidateQueries({ queryKey: ['users'] }),
  });
  // The password travels encrypted; a new user's name and password, an edited user's unlock.
  const toBody = async (form: Record<string, unknown>, editing: UserRow | null) => {
    const values = form as unknown as Values;
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
    return editing
      ? { ...fields, ...(password ? { password } : {}), ...(values.unlock ? { unlock: true } : {}) }
      : { ...fields, user_name: values.user_name, password: password ?? '' };
  };

  return (
    <ResourcePage<UserRow>
      page="/setting_users"
      title={t('menu.users')}
      routes={usersRoutes}
      // A write refreshes every users query (the roles' and groups' user counts too).
      queryKey={['users']}
      pageSize={10}
      filters={(submit) => (
        <Form.Item name="name">
          <Input.Search allowClear placeholder={t('userPages.searchName')} onSearch={submit} style={{ width: 280 }} />
        </Form.Item>
      )}
      searchButton={false}
      toQuery={(v) => ({ name: typeof v.name === 'string' ? v.name.trim() : undefined })}
      mayEdit={manageable}
      mayDelete={(user) => user.id !== 1 && manageable(user)}
      initial={{ enable: true, role_ids: [], user_group_ids: [], alias: '', email: '', phone: '' }}
      toForm={(user) => ({ ...user, password: undefined, confirm: undefined, unlock: false })}
      fromForm={toBody}
      dialog={{
        addTitle: t('userPages.addUser'),
        editTitle: t('userPages.editUser'),
        form: { name: 'user', layout: 'horizontal', labelCol: { span: 6 }, wrapperCol: { span: 16 } },
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
      ]}
      fields={(_, editing) => {
        const schema = editing ? userUpdate : userCreate;
        return (
          <>
            <Form.Item
              name="user_name"
              label={t('userPages.userName')}
              rules={[contractRule(schema, { required: true, message: t('userPages.userNameRequired') })]}
            >
              <Input disabled={editing !== null} maxLength={64} autoComplete="off" />
            </Form.Item>
            <Form.Item name="alias" label={t('userPages.alias')}>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item
              name="password"
              label={editing ? t('userPages.resetPassword') : t('userPages.password')}
              // The contract sees the encrypted password; the length rule is the plain text's (002 §5.1).
              rules={[
                { required: !editing, message: t('userPages.passwordRequired') },
                { min: 6, message: t('userPages.passwordMin') },
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <ConfirmPasswordItem
              name="confirm"
              of="password"
              label={t('userPages.confirm')}
              mismatch={t('login.dialog.mismatch')}
              whenTyped
            />
            <Form.Item
              name="role_ids"
              label={t('userPages.roles')}
              rules={[contractRule(schema, { required: true, message: t('userPages.roleRequired') })]}
            >
              <Select
                mode="multiple"
                disabled={!isAdministrator && editing?.id === me}
                options={roles.data?.data
                  .filter((r) => isAdministrator || r.id !== 1)
                  .map((r) => ({ value: r.id, label: r.name }))}
              />
            </Form.Item>
            <Form.Item
              name="user_group_ids"
              label={t('userPages.groups')}
              rules={[contractRule(schema, { required: true, message: t('userPages.groupRequired') })]}
            >
              <TreeSelect
                multiple
                treeDefaultExpandAll
                treeData={toTree(groups.data?.data ?? [])}
                fieldNames={{ label: 'name', value: 'id', children: 'children' }}
              />
            </Form.Item>
            <Form.Item
              name="email"
              label={t('userPages.email')}
              rules={[contractRule(schema, { message: t('userPages.emailInvalid') })]}
            >
              <Input maxLength={128} />
            </Form.Item>
            <Form.Item
              name="phone"
              label={t('userPages.phone')}
              rules={[contractRule(schema, { message: t('userPages.phoneInvalid') })]}
            >
              <Input maxLength={13} />
            </Form.Item>
            <Form.Item name="enable" label={t('userPages.enable')} valuePropName="checked">
              <Switch disabled={editing?.id === 1} />
            </Form.Item>
            {editing?.locked && (
              <Form.Item name="unlock" label={t('userPages.unlock')} valuePropName="checked">
                <Switch />
              </Form.Item>
            )}
          </>
        );
      }}
    />
  );
};
