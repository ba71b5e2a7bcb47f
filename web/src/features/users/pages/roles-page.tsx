import type { CatalogueMenu } from '@sitewatch/contract/users';
import { usersRoutes } from '@sitewatch/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Space,
  Table,
  Tree,
  Typography,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { useCan, useIsAdministrator } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { catalogueQuery, grantableContactsQuery, rolesQuery, siteTreeQuery } from '../api.ts';

type Role = { id: number; name: string; remark: string; user_count: number };
type SiteNode = { id: number; name: string; children: SiteNode[] };

/** Menus and their functions as one checkable tree: function keys are `f<id>`. */
const grantTree = (menus: CatalogueMenu[]): DataNode[] =>
  menus.map((menu) => ({
    key: `m${menu.id}`,
    title: menu.name,
    children: [
      ...grantTree(menu.children),
      ...menu.functions.map((f) => ({ key: `f${f.id}`, title: f.name, isLeaf: true })),
    ],
  }));
const siteTree = (sites: SiteNode[]): DataNode[] =>
  sites.map((s) => ({ key: s.id, title: s.name, children: siteTree(s.children) }));
/** A menu is granted when any of its entries is checked, so its group shows too. */
const menuIdsOf = (menus: CatalogueMenu[], checked: Set<string>): number[] =>
  menus.flatMap((menu) => {
    const below = menuIdsOf(menu.children, checked);
    const own = checked.has(`m${menu.id}`) || menu.functions.some((f) => checked.has(`f${f.id}`)) || below.length > 0;
    return own ? [menu.id, ...below] : below;
  });

/** /authority_groups: roles and their grants over sites, menus and functions (002 §3 Permissions, §6). */
export const RolesPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const roles = useQuery(rolesQuery);
  const catalogue = useQuery(catalogueQuery);
  const sites = useQuery(siteTreeQuery);
  const contacts = useQuery(grantableContactsQuery);
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const canAdd = useCan('/authority_groups', 'add');
  const canEdit = useCan('/authority_groups', 'edit');
  const canDelete = useCan('/authority_groups', 'delete');
  // A restricted user does not edit a role they hold: it would change their own grants (docs/users.md).
  const isAdministrator = useIsAdministrator();
  const ownRoles = useSession((s) => s.user?.role_ids ?? []);
  const mayChange = (role: Role) => isAdministrator || !ownRoles.includes(role.id);
  const [form] = Form.useForm<{ name: string; remark: string }>();
  const [checkedSites, setCheckedSites] = useState<number[]>([]);
  const [checkedGrants, setCheckedGrants] = useState<string[]>([]);
  const [checkedContacts, setCheckedContacts] = useState<number[]>([]);
  const done = () => {
    void message.success(t('common.operationSuccess'));
    setEditing(null);
    void client.invalidateQueries({ queryKey: ['users'] });
  };
  const save = useMutation({
    mutationFn: (values: { name: string; remark: string }) => {
      const checked = new Set(checkedGrants);
      const body = {
        ...values,
        site_ids: checkedSites,
        menu_ids: menuIdsOf(catalogue.data?.list ?? [], checked),
        function_ids: checkedGrants.filter((k) => k.startsWith('f')).map((k) => Number(k.slice(1))),
        // Video grants come with the video module (docs/users.md).
        video_ids: [],
        contact_ids: checkedContacts,
      };
      return editing === 'new' || editing === null
        ? api.call(usersRoutes.roleCreate, { body })
        : api.call(usersRoutes.roleUpdate, { params: { id: editing.id }, body });
    },
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(usersRoutes.roleRemove, { params: { id } }),
    onSuccess: done,
  });
  const open = async (role: Role | 'new') => {
    form.resetFields();
    if (role === 'new') {
      setCheckedSites([]);
      setCheckedGrants([]);
      setCheckedContacts([]);
      form.setFieldsValue({ name: '', remark: '' });
    } else {
      const detail = await api.call(usersRoutes.role, { params: { id: role.id } });
      form.setFieldsValue({ name: detail.name, remark: detail.remark });
      setCheckedSites(detail.device_groups.map((g) => g.id));
      setCheckedGrants(detail.function_ids.map((id) => `f${id}`));
      setCheckedContacts(detail.contact_ids);
    }
    setEditing(role);
  };
  const submit = async () => {
    const values = await form.validateFields();
    // A grant needs site, menu and function permissions (002 §6).
    if (checkedSites.length === 0) return void message.warning(t('userPages.needSites'));
    if (!checkedGrants.some((k) => k.startsWith('f'))) return void message.warning(t('userPages.needFunctions'));
    save.mutate(values);
  };
  return (
    <Card title={t('menu.roles')}>
      <Flex justify="flex-end" style={{ marginBottom: 16 }}>
        {canAdd && (
          <Button type="primary" onClick={() => void open('new')}>
            {t('common.add')}
          </Button>
        )}
      </Flex>
      <Table<Role>
        rowKey="id"
        loading={roles.isLoading}
        dataSource={roles.data?.data ?? []}
        pagination={false}
        columns={[
          { title: t('userPages.roleName'), dataIndex: 'name' },
          { title: t('userPages.remark'), dataIndex: 'remark' },
          { title: t('userPages.userCount'), dataIndex: 'user_count', width: 120 },
          {
            title: t('common.actions'),
            width: 180,
            render: (_, role) =>
              role.id === 1 || !mayChange(role) ? (
                <Typography.Text type="secondary">
                  {role.id === 1 ? t('userPages.adminRole') : t('userPages.ownRole')}
                </Typography.Text>
              ) : (
                <Space>
                  {canEdit && (
                    <Button size="small" onClick={() => void open(role)}>
                      {t('common.edit')}
                    </Button>
                  )}
                  {canDelete && (
                    <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(role.id)}>
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
        title={editing === 'new' ? t('userPages.addRole') : t('userPages.editRole')}
        onCancel={() => setEditing(null)}
        onOk={() => void submit()}
        confirmLoading={save.isPending}
        maskClosable={false}
        width={860}
      >
        <Form form={form} name="role" layout="vertical">
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="name"
                label={t('userPages.roleName')}
                rules={[{ required: true, whitespace: true, message: t('userPages.nameRequired') }]}
              >
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="remark" label={t('userPages.remark')}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
        <Row gutter={16}>
          <Col span={7}>
            <Typography.Title level={5}>{t('userPages.siteGrants')}</Typography.Title>
            <div style={{ maxHeight: 360, overflow: 'auto' }} data-testid="site-grants">
              <Tree
                checkable
                defaultExpandAll
                treeData={siteTree((sites.data ?? []) as SiteNode[])}
                checkedKeys={checkedSites}
                onCheck={(keys) => setCheckedSites((Array.isArray(keys) ? keys : keys.checked).map(Number))}
              />
            </div>
          </Col>
          <Col span={10}>
            <Typography.Title level={5}>{t('userPages.menuGrants')}</Typography.Title>
            <div style={{ maxHeight: 360, overflow: 'auto' }} data-testid="menu-grants">
              <Tree
                checkable
                defaultExpandAll
                treeData={grantTree(catalogue.data?.list ?? [])}
                checkedKeys={checkedGrants}
                onCheck={(keys) => setCheckedGrants((Array.isArray(keys) ? keys : keys.checked).map(String))}
              />
            </div>
          </Col>
          <Col span={7}>
            <Typography.Title level={5}>{t('userPages.contactGrants')}</Typography.Title>
            <div style={{ maxHeight: 360, overflow: 'auto' }} data-testid="contact-grants">
              {contacts.data?.list.length ? (
                <Checkbox.Group
                  style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                  value={checkedContacts}
                  onChange={(values) => setCheckedContacts(values as number[])}
                  options={contacts.data.list.map((c) => ({
                    value: c.id,
                    label: c.phone ? `${c.name} (${c.phone})` : c.name,
                  }))}
                />
              ) : (
                <Typography.Text type="secondary">{t('userPages.noContacts')}</Typography.Text>
              )}
            </div>
          </Col>
        </Row>
      </Modal>
    </Card>
  );
};
