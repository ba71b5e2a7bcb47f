import { authRoutes } from '@sitewatch/contract/auth';
import { operationLogExportPath, usersRoutes } from '@sitewatch/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Flex, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { downloadFile } from '../../../components/download.ts';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';

interface Filters {
  user_name?: string | undefined;
  module?: string | undefined;
  result?: '0' | '1' | undefined;
  t1?: number | undefined;
  t2?: number | undefined;
}

const clean = (f: Filters) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== ''));

/** /system_log_user: who, what, when, from where, result; filters, paging, xlsx export, guarded clearing. */
/** What people read for the logged module and action codes; a code without a name shows as it is. */
const moduleKeys = {
  auth: 'opLog.modules.auth',
  ldap: 'opLog.modules.ldap',
  settings: 'opLog.modules.settings',
  notify: 'opLog.modules.notify',
  dashboard: 'opLog.modules.dashboard',
  alarms: 'opLog.modules.alarms',
  logs: 'opLog.modules.logs',
  users: 'opLog.modules.users',
  roles: 'opLog.modules.roles',
  user_groups: 'opLog.modules.user_groups',
  security: 'opLog.modules.security',
  'device_groups/device/item': 'opLog.modules.device_groups_device_item',
  'setting/device_groups': 'opLog.modules.setting_device_groups',
  'setting/devices': 'opLog.modules.setting_devices',
  'setting/items': 'opLog.modules.setting_items',
} as const;
const actionKeys = {
  create: 'opLog.actions.create',
  add: 'opLog.actions.add',
  update: 'opLog.actions.update',
  edit: 'opLog.actions.edit',
  delete: 'opLog.actions.delete',
  login: 'opLog.actions.login',
  logout: 'opLog.actions.logout',
  lock: 'opLog.actions.lock',
  auto_login: 'opLog.actions.auto_login',
  change_password: 'opLog.actions.change_password',
  verify_password: 'opLog.actions.verify_password',
  revoke_device_token: 'opLog.actions.revoke_device_token',
  import: 'opLog.actions.import',
  auto_create: 'opLog.actions.auto_create',
  export: 'opLog.actions.export',
  clear: 'opLog.actions.clear',
  block: 'opLog.actions.block',
  unblock: 'opLog.actions.unblock',
  test: 'opLog.actions.test',
} as const;
const known = <M extends object>(keys: M, code: string): code is Extract<keyof M, string> => code in keys;

export const OperationLogPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [clearing, setClearing] = useState(false);
  const [password, setPassword] = useState('');
  const canExport = useCan('/system_log_user', 'export');
  const canClear = useCan('/system_log_user', 'clear');
  const query = { ...paging, ...clean(filters) };
  const list = useQuery({
    queryKey: ['logs', 'operation', query],
    queryFn: () => api.call(usersRoutes.operationLog, { query }),
  });
  const clear = useMutation({
    mutationFn: async () => {
      const { public_key } = await api.call(authRoutes.loginParams);
      return api.call(usersRoutes.operationLogClear, {
        body: { verify_password: await encryptForServer(public_key, password) },
      });
    },
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setClearing(false);
      void client.invalidateQueries({ queryKey: ['logs'] });
    },
  });
  const onSearch = (v: { user_name?: string; module?: string; result?: '0' | '1'; range?: [Dayjs, Dayjs] | null }) => {
    setFilters({
      user_name: v.user_name?.trim() || undefined,
      module: v.module?.trim() || undefined,
      result: v.result,
      t1: v.range?.[0] ? v.range[0].startOf('day').unix() : undefined,
      t2: v.range?.[1] ? v.range[1].endOf('day').unix() : undefined,
    });
    setPaging((p) => ({ ...p, page: 1 }));
  };
  return (
    <Card title={t('menu.operationLog')}>
      <Flex justify="space-between" wrap gap={8} style={{ marginBottom: 16 }}>
        <Form layout="inline" name="operation_log_filter" onFinish={onSearch}>
          <Form.Item name="user_name" label={t('opLog.user')}>
            <Input allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="module" label={t('opLog.module')}>
            <Input allowClear style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="result" label={t('opLog.result')}>
            <Select
              allowClear
              style={{ width: 100 }}
              options={[
                { value: '1', label: t('opLog.success') },
                { value: '0', label: t('opLog.failure') },
              ]}
            />
          </Form.Item>
          <Form.Item name="range" label={t('opLog.time')}>
            <DatePicker.RangePicker />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
        </Form>
        <Space>
          {canExport && (
            <Button
              onClick={() =>
                void downloadFile(
                  operationLogExportPath,
                  clean(filters),
                  `operation_record_${dayjs().format('YYYYMMDDHHmmss')}.xlsx`,
                ).catch((err: Error) => message.error(err.message))
              }
            >
              {t('common.export')}
            </Button>
          )}
          {canClear && (
            <Button
              danger
              onClick={() => {
                setPassword('');
                setClearing(true);
              }}
            >
              {t('opLog.clear')}
            </Button>
          )}
        </Space>
      </Flex>
      <Table
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        pagination={{
          current: paging.page,
          pageSize: paging.limit,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (page, limit) => setPaging({ page, limit }),
        }}
        columns={[
          {
            title: t('opLog.time'),
            dataIndex: 'time',
            width: 170,
            render: (s: number) => formatTime(s),
          },
          { title: t('opLog.user'), dataIndex: 'user_name', width: 120 },
          { title: t('opLog.ip'), dataIndex: 'ip', width: 140 },
          {
            title: t('opLog.module'),
            dataIndex: 'module',
            width: 110,
            render: (m: string) => (known(moduleKeys, m) ? t(moduleKeys[m]) : m),
          },
          {
            title: t('opLog.action'),
            dataIndex: 'action',
            width: 140,
            render: (a: string) => (known(actionKeys, a) ? t(actionKeys[a]) : a),
          },
          { title: t('opLog.target'), dataIndex: 'target', ellipsis: true },
          {
            title: t('opLog.result'),
            dataIndex: 'result',
            width: 90,
            render: (r: number) => <Tag color={r ? 'green' : 'red'}>{r ? t('opLog.success') : t('opLog.failure')}</Tag>,
          },
          { title: t('opLog.detail'), dataIndex: 'detail', ellipsis: true },
        ]}
      />
      <Modal
        open={clearing}
        title={t('opLog.clearTitle')}
        onCancel={() => setClearing(false)}
        onOk={() => {
          if (!password) return void message.warning(t('opLog.passwordEmpty'));
          clear.mutate();
        }}
        confirmLoading={clear.isPending}
      >
        <p>{t('opLog.clearExplain')}</p>
        <Input.Password
          aria-label={t('opLog.verifyPassword')}
          placeholder={t('opLog.verifyPassword')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Modal>
    </Card>
  );
};
