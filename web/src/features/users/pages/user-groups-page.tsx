import { usersRoutes } from '@sitewatch/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Form, Input, Modal, Popconfirm, Space, Table, TreeSelect } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { groupsQuery, toTree } from '../api.ts';

type Group = { id: number; name: string; parent_id: number; remark: string; user_count: number };
interface Values {
  name: string;
  parent_id: number;
  remark: string;
}

/** /setting_user_groups: user groups as a tree (002 §3 User group: name, parent). */
export const UserGroupsPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const groups = useQuery(groupsQuery);
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [form] = Form.useForm<Values>();
  const canAdd = useCan('/setting_user_groups', 'add');
  const canEdit = useCan('/setting_user_groups', 'edit');
  const canDelete = useCan('/setting_user_groups', 'delete');
  const refresh = () => void client.invalidateQueries({ queryKey: ['users'] });
  const done = () => {
    void message.success(t('common.operationSuccess'));
    setEditing(null);
    refresh();
  };
  const save = useMutation({
    mutationFn: (values: Values) =>
      editing === 'new' || editing === null
        ? api.call(usersRoutes.groupCreate, { body: values })
        : api.call(usersRoutes.groupUpdate, { params: { id: editing.id }, body: values }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(usersRoutes.groupRemove, { params: { id } }),
    onSuccess: done,
  });
  const tree = toTree(groups.data?.data ?? []);
  const open = (group: Group | 'new') => {
    setEditing(group);
    form.resetFields();
    form.setFieldsValue(group === 'new' ? { parent_id: 0, remark: '' } : group);
  };
  return (
    <Card title={t('menu.userGroups')}>
      <Flex justify="flex-end" style={{ marginBottom: 16 }}>
        {canAdd && (
          <Button type="primary" onClick={() => open('new')}>
            {t('common.add')}
          </Button>
        )}
      </Flex>
      <Table
        rowKey="id"
        loading={groups.isLoading}
        dataSource={tree}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        columns={[
          { title: t('userPages.groupName'), dataIndex: 'name' },
          { title: t('userPages.remark'), dataIndex: 'remark' },
          { title: t('userPages.userCount'), dataIndex: 'user_count', width: 120 },
          {
            title: t('common.actions'),
            width: 180,
            render: (_, group: Group) => (
              <Space>
                {canEdit && (
                  <Button size="small" onClick={() => open(group)}>
                    {t('common.edit')}
                  </Button>
                )}
                {canDelete && (
                  <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(group.id)}>
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
        title={editing === 'new' ? t('userPages.addGroup') : t('userPages.editGroup')}
        onCancel={() => setEditing(null)}
        onOk={() => void form.validateFields().then((values) => save.mutate(values))}
        confirmLoading={save.isPending}
        maskClosable={false}
      >
        <Form form={form} name="user_group" layout="vertical">
          <Form.Item
            name="name"
            label={t('userPages.groupName')}
            rules={[{ required: true, whitespace: true, message: t('userPages.nameRequired') }]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="parent_id" label={t('userPages.parentGroup')}>
            <TreeSelect
              treeDefaultExpandAll
              treeData={[{ id: 0, name: t('userPages.topLevel'), parent_id: -1, key: 0, children: tree }]}
              fieldNames={{ label: 'name', value: 'id', children: 'children' }}
            />
          </Form.Item>
          <Form.Item name="remark" label={t('userPages.remark')}>
            <Input.TextArea maxLength={200} rows={2} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
};
