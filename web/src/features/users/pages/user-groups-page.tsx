import { userGroupInput, usersRoutes } from '@sitewatch/contract/users';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { groupsQuery, toTree } from '../api.ts';

type Group = { id: number; name: string; parent_id: number; remark: string; user_count: number };

/** /setting_user_groups: user groups as a tree (002 §3 User group: name, parent). */
export const UserGroupsPage = () => {
  const { t } = useTranslation();
  const groups = useQuery(groupsQuery);
  return (
    <ResourcePage<Group>
      page="/setting_user_groups"
      title={t('menu.userGroups')}
      routes={{
        list: usersRoutes.groups,
        create: usersRoutes.groupCreate,
        update: usersRoutes.groupUpdate,
        remove: usersRoutes.groupRemove,
      }}
      // A write refreshes every users query: user counts and the group pickers.
      queryKey={['users']}
      pageSize={false}
      rows={toTree}
      table={{ expandable: { defaultExpandAllRows: true } }}
      columns={[
        { title: t('userPages.groupName'), dataIndex: 'name' },
        { title: t('userPages.remark'), dataIndex: 'remark' },
        { title: t('userPages.userCount'), dataIndex: 'user_count', width: 120 },
      ]}
      initial={{ parent_id: 0, remark: '' }}
      toForm={({ name, parent_id, remark }) => ({ name, parent_id, remark })}
      dialog={{
        addTitle: t('userPages.addGroup'),
        editTitle: t('userPages.editGroup'),
        width: 520,
        form: { name: 'user_group' },
      }}
      fields={() => (
        <>
          <Form.Item
            name="name"
            label={t('userPages.groupName')}
            rules={[contractRule(userGroupInput, { required: true, message: t('userPages.nameRequired') })]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="parent_id" label={t('userPages.parentGroup')}>
            <TreeSelect
              treeDefaultExpandAll
              treeData={[
                {
                  id: 0,
                  name: t('userPages.topLevel'),
                  parent_id: -1,
                  key: 0,
                  children: toTree(groups.data?.data ?? []),
                },
              ]}
              fieldNames={{ label: 'name', value: 'id', children: 'children' }}
            />
          </Form.Item>
          <Form.Item name="remark" label={t('userPages.remark')}>
            <Input.TextArea maxLength={200} rows={2} />
          </Form.Item>
        </>
      )}
    />
  );
};
