import type { RouteSpec } from '@sitewatch/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  type FormInstance,
  type FormProps,
  Modal,
  Popconfirm,
  Space,
  Table,
  type TableColumnsType,
  type TableProps,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import { useCan } from '../session/permissions.ts';
import { validValues } from './form-rules.ts';

type Values = Record<string, unknown>;

/** The contract routes of a resource: a read-only list has only `list`. */
export interface ResourceRoutes {
  list: RouteSpec;
  create?: RouteSpec;
  update?: RouteSpec;
  remove?: RouteSpec;
}

export interface ResourcePageProps<Row extends { id: number }> {
  /** The page whose function grants (add, edit, delete) show the write buttons (002 §6). */
  page: string;
  title: ReactNode;
  routes: ResourceRoutes;
  /** The list's cache key; it is invalidated after every write, so a prefix refreshes the area. */
  queryKey: readonly unknown[];
  columns: TableColumnsType<Row>;
  /** Rows per page, or false for a list the route answers whole. */
  pageSize?: number | false;
  /** Fixed list query fields (a tree shown whole asks for the route's largest page). */
  listQuery?: Values;
  /** The filter form's items; `toQuery` makes list query fields of its values (page 1 again). */
  filters?: (submit: () => void) => ReactNode;
  toQuery?: (values: Values) => Values;
  /** Whether the filter form has its own search button (false: a field submits it, as Input.Search). */
  searchButton?: boolean;
  /** Buttons beside "add", given the list query in use (an export takes the filters). */
  toolbar?: (query: Values) => ReactNode;
  /** The rows to show of the list answer (a tree of parent ids, say). */
  rows?: (data: Row[]) => Row[];
  table?: Omit<TableProps<Row>, 'columns' | 'dataSource' | 'pagination' | 'loading' | 'rowKey'>;
  /** The dialog's form items; without them the page has no add or edit. */
  fields?: (form: FormInstance, editing: Row | null) => ReactNode;
  initial?: Values;
  /** A row's form values (may load its details first). */
  toForm?: (row: Row) => Values | Promise<Values>;
  /** The request body of the form's values; `editing` is null when adding. */
  fromForm?: (values: Values, editing: Row | null) => unknown;
  dialog?: { addTitle?: string; editTitle?: string; width?: number; form?: Omit<FormProps, 'form'> };
  /** The add button's text where the page names what it adds ("add site"). */
  addLabel?: ReactNode;
  /** Rules beyond the grants: a row this user may not change or delete shows no such button. */
  mayEdit?: (row: Row) => boolean;
  mayDelete?: (row: Row) => boolean;
  /** A note shown instead of the row's actions (the administrator's role), or null. */
  rowNote?: (row: Row) => ReactNode;
  extraActions?: (row: Row) => ReactNode;
}

/**
 * A resource list over a contract route table: filters and paging as list query fields, add and
 * edit in a dialog, delete after a confirmation, each write button shown only with the page's
 * function grant. The form's values go to the contract route through `fromForm`; fields validate
 * with contractRule (form-rules.ts), and the server validates again.
 */
export const ResourcePage = <Row extends { id: number }>(props: ResourcePageProps<Row>) => {
  const { page, routes, queryKey, pageSize = 20, filters, toQuery = (v) => v, dialog = {}, fields } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [filterForm] = Form.useForm();
  const [paging, setPaging] = useState({ page: 1, limit: pageSize || 20 });
  const [filter, setFilter] = useState<Values>({});
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const canAdd = useCan(page, 'add') && Boolean(routes.create && fields);
  const canEdit = useCan(page, 'edit') && Boolean(routes.update && fields);
  const canDelete = useCan(page, 'delete') && Boolean(routes.remove);
  const query = { ...props.listQuery, ...(pageSize === false ? filter : { ...paging, ...filter }) };
  const list = useQuery({
    // The route's path in the key: pages of one area share the prefix (to refresh each other) but
    // never a cache entry (the users and roles lists asked with the same paging would collide).
    queryKey: [...queryKey, routes.list.method, routes.list.path, query],
    queryFn: async () => (await api.call(routes.list, { query })) as { total?: number; data: Row[] },
  });
  const done = () => {
    void message.success(t('common.operationSuccess'));
    setEditing(null);
    void client.invalidateQueries({ queryKey });
  };
  const save = useMutation({
    mutationFn: async (values: Values) => {
      const row = editing === 'new' ? null : editing;
      const body = await (props.fromForm ?? ((v) => v))(values, row);
      return row
        ? api.call(routes.update as RouteSpec, { params: { id: row.id }, body })
        : api.call(routes.create as RouteSpec, { body });
    },
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(routes.remove as RouteSpec, { params: { id } }),
    onSuccess: done,
  });
  const open = async (row: Row | 'new') => {
    const values = row === 'new' ? (props.initial ?? {}) : await (props.toForm ?? ((r) => ({ ...r })))(row);
    // Into the store before the dialog's fields mount (they read it); no initialValues on the form:
    // a field leaving a form without `preserve` falls back to them, and they would outlive the row.
    form.resetFields();
    form.setFieldsValue(values);
    setEditing(row);
  };
  const applyFilters = (values: Values) => {
    setFilter(Object.fromEntries(Object.entries(toQuery(values)).filter(([, v]) => v !== undefined && v !== '')));
    setPaging((p) => ({ ...p, page: 1 }));
  };
  const actions = (row: Row) => {
    const note = props.rowNote?.(row);
    if (note) return note;
    return (
      <Space>
        {canEdit && (props.mayEdit?.(row) ?? true) && (
          <Button size="small" type="link" onClick={() => void open(row)}>
            {t('common.edit')}
          </Button>
        )}
        {props.extraActions?.(row)}
        {canDelete && (props.mayDelete?.(row) ?? true) && (
          <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(row.id)}>
            <Button size="small" type="link" danger>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    );
  };
  const hasActions = routes.update || routes.remove || props.extraActions;
  const tools = (
    <Space>
      {props.toolbar?.(query)}
      {canAdd && (
        <Button type="primary" onClick={() => void open('new')}>
          {props.addLabel ?? t('common.add')}
        </Button>
      )}
    </Space>
  );
  const rows = list.data?.data ?? [];
  return (
    <Card title={props.title} extra={filters ? undefined : tools}>
      {filters && (
        <Flex justify="space-between" wrap gap={8} style={{ marginBottom: 16 }}>
          <Form form={filterForm} name="filter" layout="inline" onFinish={applyFilters}>
            {filters(() => filterForm.submit())}
            {props.searchButton !== false && (
              <Button type="primary" htmlType="submit">
                {t('common.search')}
              </Button>
            )}
          </Form>
          {tools}
        </Flex>
      )}
      <Table<Row>
        rowKey="id"
        size="small"
        {...props.table}
        loading={list.isLoading}
        dataSource={props.rows ? props.rows(rows) : rows}
        pagination={
          pageSize !== false && {
            current: paging.page,
            pageSize: paging.limit,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (p, l) => setPaging({ page: p, limit: l }),
          }
        }
        columns={[
          ...props.columns,
          ...(hasActions ? [{ title: t('common.actions'), render: (_: unknown, row: Row) => actions(row) }] : []),
        ]}
      />
      {fields && (
        <Modal
          open={editing !== null}
          title={editing === 'new' ? (dialog.addTitle ?? t('common.add')) : (dialog.editTitle ?? t('common.edit'))}
          onCancel={() => setEditing(null)}
          onOk={() => void validValues(form).then((values) => values && save.mutate(values))}
          confirmLoading={save.isPending}
          maskClosable={false}
          destroyOnHidden
          width={dialog.width ?? 640}
        >
          <Form layout="vertical" {...dialog.form} form={form} preserve={false}>
            {editing !== null && fields(form, editing === 'new' ? null : editing)}
          </Form>
        </Modal>
      )}
    </Card>
  );
};
