import type { CustomMenuPatch, MenuEntry } from '@sitewatch/contract/custom-menus';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Form,
  Popconfirm,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCan } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { createEntry, entriesQuery, removeEntries, settingMenuPage, updateEntry } from '../api.ts';
import { EntryForm } from '../components/entry-form.tsx';

type Row = MenuEntry & { children?: Row[] };

/** The flat catalogue as a tree, each level by weight descending as the menu shows it (000 §4.4). */
const treeOf = (rows: MenuEntry[]): Row[] => {
  const under = (parent: number): Row[] =>
    rows
      .filter((r) => r.parent_id === parent)
      .sort((a, b) => b.weight - a.weight || a.id - b.id)
      .map((r) => {
        const children = under(r.id);
        return children.length ? { ...r, children } : { ...r };
      });
  return under(0);
};

const kindColor = { builtin: 'default', custom: 'blue', asset: 'purple' } as const;

/**
 * /setting_menu (002 §2.3 custom menus, §7.1 `setting/menus`): every entry of the menu with its
 * order, visibility and state; custom entries are added, edited and deleted; built-in ones are
 * hidden, disabled and reordered (docs/custom-menus.md).
 */
export const SettingMenuPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [editing, setEditing] = useState<MenuEntry | 'new' | null>(null);
  const canAdd = useCan(settingMenuPage, 'add');
  const canEdit = useCan(settingMenuPage, 'edit');
  const canDelete = useCan(settingMenuPage, 'delete');
  const entries = useQuery(entriesQuery);
  const rows = entries.data ?? [];
  const done = () => {
    void message.success(t('common.operationSuccess'));
    setEditing(null);
    void client.invalidateQueries({ queryKey: ['custom-menus'] });
    void useSession.getState().refreshMenus();
  };
  const patch = useMutation({
    mutationFn: ({ id, body }: { id: number; body: CustomMenuPatch }) => updateEntry(id, body),
    onSuccess: done,
  });
  const save = useMutation({
    mutationFn: async (values: Record<string, unknown>) => {
      if (editing === 'new' || editing === null) return createEntry(values as Parameters<typeof createEntry>[0]);
      const { name, parent_id, url, target, ...rest } = values;
      const body = editing.kind === 'custom' ? values : editing.kind === 'asset' ? { ...rest, url, target } : rest;
      return updateEntry(editing.id, body as CustomMenuPatch);
    },
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: (id: number) => removeEntries([id]), onSuccess: done });
  const open = (row: MenuEntry | 'new') => {
    form.resetFields();
    form.setFieldsValue(
      row === 'new'
        ? { name: '', icon: 'link', parent_id: 0, url: '', target: '_self', display: true, enable: true, weight: 1 }
        : { ...row },
    );
    setEditing(row);
  };
  const toggle = (row: MenuEntry, field: 'display' | 'enable') => (
    <Switch
      size="small"
      checked={row[field]}
      disabled={!canEdit}
      aria-label={`${t(`customMenusUi.${field}`)} ${row.name}`}
      onChange={(checked) => patch.mutate({ id: row.id, body: { [field]: checked } })}
    />
  );
  const columns: TableColumnsType<Row> = [
    { title: t('customMenusUi.name'), dataIndex: 'name', width: 260 },
    {
      title: t('customMenusUi.url'),
      // A built-in page's route is the product's own, not an address to show.
      render: (_, row) =>
        row.kind === 'builtin' ? null : row.kind === 'asset' && row.url === '' ? (
          <Typography.Text type="warning">{t('customMenusUi.assetNotSet')}</Typography.Text>
        ) : (
          <Typography.Text ellipsis style={{ maxWidth: 300 }}>
            {row.url}
          </Typography.Text>
        ),
    },
    {
      title: t('customMenusUi.target'),
      width: 110,
      render: (_, row) =>
        row.group ? '' : row.target === '_blank' ? t('customMenusUi.targetBlank') : t('customMenusUi.targetSelf'),
    },
    {
      title: t('customMenusUi.kind'),
      width: 100,
      render: (_, row) => <Tag color={kindColor[row.kind]}>{t(`customMenusUi.kinds.${row.kind}`)}</Tag>,
    },
    { title: t('customMenusUi.weight'), dataIndex: 'weight', width: 90 },
    { title: t('customMenusUi.display'), width: 80, render: (_, row) => toggle(row, 'display') },
    { title: t('customMenusUi.enable'), width: 80, render: (_, row) => toggle(row, 'enable') },
    {
      title: t('common.actions'),
      width: 180,
      render: (_, row) => (
        <Space>
          {canEdit && (
            <Button size="small" type="link" onClick={() => open(row)}>
              {t('common.edit')}
            </Button>
          )}
          {row.kind === 'custom' && row.group && (
            <Button size="small" type="link" onClick={() => navigate(`/config_menu?id=${row.id}`)}>
              {t('customMenusUi.open')}
            </Button>
          )}
          {canDelete && row.kind === 'custom' && (
            <Popconfirm title={t('customMenusUi.deleteConfirm')} onConfirm={() => remove.mutate(row.id)}>
              <Button size="small" type="link" danger>
                {t('common.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={t('customMenusUi.title')}
      extra={
        <Space>
          <Button onClick={() => navigate('/config_menu')}>{t('customMenusUi.configTitle')}</Button>
          {canAdd && (
            <Button type="primary" onClick={() => open('new')}>
              {t('customMenusUi.add')}
            </Button>
          )}
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('customMenusUi.intro')}</Typography.Paragraph>
      {rows.length > 0 && (
        <Table<Row>
          rowKey="id"
          size="small"
          loading={entries.isLoading}
          dataSource={treeOf(rows)}
          columns={columns}
          pagination={false}
          expandable={{ defaultExpandAllRows: true }}
        />
      )}
      <EntryForm
        open={editing !== null}
        form={form}
        editing={editing === 'new' ? null : editing}
        rows={rows}
        saving={save.isPending}
        onCancel={() => setEditing(null)}
        onFinish={(values) => save.mutate(values)}
      />
    </Card>
  );
};
