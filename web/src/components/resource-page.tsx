import type { RouteSpec } from '@sitewatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Form,
  type FormInstance,
  Modal,
  Popconfirm,
  Space,
  Table,
  type TableColumnsType,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import { useCan } from '../session/permissions.ts';
import { validValues } from './form-rules.ts';

interface Crud {
  list: RouteSpec;
  create: RouteSpec;
  update: RouteSpec;
  remove: RouteSpec;
}

/**
 * A resource list with add, edit and delete in a dialog, over a contract route table (list, create,
 * update, remove) and the page's function grants: the alarm settings pages use it, and the other
 * list pages are to move onto it (issue 12). The form's values go to the contract route as they are;
 * the server validates and answers per field.
 */
export const ResourcePage = <Row extends { id: number }>({
  page,
  title,
  routes,
  columns,
  fields,
  toForm,
  fromForm,
  extraActions,
  initial,
}: {
  page: string;
  title: string;
  routes: Crud;
  columns: TableColumnsType<Row>;
  fields: (form: FormInstance) => ReactNode;
  toForm: (row: Row) => Record<string, unknown>;
  fromForm: (values: Record<string, unknown>) => unknown;
  extraActions?: (row: Row) => ReactNode;
  initial: Record<string, unknown>;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const canAdd = useCan(page, 'add');
  const canEdit = useCan(page, 'edit');
  const canDelete = useCan(page, 'delete');
  const key = ['alarms', 'settings', routes.list.path];
  const list = useQuery({
    queryKey: [...key, paging],
    queryFn: async () => (await api.call(routes.list, { query: paging })) as { total: number; data: Row[] },
  });
  const save = useMutation({
    mutationFn: async (values: Record<string, unknown>) => {
      const body = fromForm(values);
      return editing === 'new'
        ? api.call(routes.create, { body })
        : api.call(routes.update, { params: { id: (editing as Row).id }, body });
    },
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setEditing(null);
      void client.invalidateQueries({ queryKey: key });
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(routes.remove, { params: { id } }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: key });
    },
  });
  const open = (row: Row | 'new') => {
    form.resetFields();
    form.setFieldsValue(row === 'new' ? initial : toForm(row));
    setEditing(row);
  };
  return (
    <Card
      title={title}
      extra={
        canAdd && (
          <Button type="primary" onClick={() => open('new')}>
            {t('common.add')}
          </Button>
        )
      }
    >
      <Table<Row>
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
          ...columns,
          {
            title: t('common.actions'),
            render: (_: unknown, row) => (
              <Space>
                {canEdit && (
                  <Button size="small" type="link" onClick={() => open(row)}>
                    {t('common.edit')}
                  </Button>
                )}
                {extraActions?.(row)}
                {canDelete && (
                  <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(row.id)}>
                    <Button size="small" type="link" danger>
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
        title={editing === 'new' ? t('common.add') : t('common.edit')}
        onCancel={() => setEditing(null)}
        onOk={() => void validValues(form).then((values) => values && save.mutate(values))}
        confirmLoading={save.isPending}
        destroyOnHidden
        width={640}
      >
        <Form form={form} layout="vertical" preserve={false}>
          {fields(form)}
        </Form>
      </Modal>
    </Card>
  );
};
