import { browserNames, defaultPwdComplexity, type PwdComplexityConfig, type RouteBody } from '@sitewatch/contract';
import {
  type AccountSafeConfig,
  authRoutes,
  defaultAccountSafe,
  defaultLoginSafe,
  type LoginSafeConfig,
} from '@sitewatch/contract/auth';
import { usersRoutes } from '@sitewatch/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { validValues } from '../../../components/form-rules.ts';
import { formatTime } from '../../../components/time.ts';
import { WeeklyRangesField } from '../../../components/weekly-ranges-field.tsx';
import { useCan, useIsAdministrator } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { allUsersQuery, blocksQuery, configQuery } from '../api.ts';

const useSaveConfig = () => {
  const { t } = useTranslation();
  const canEdit = useCan('/setting_security', 'edit');
  const { message } = App.useApp();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (body: RouteBody<typeof authRoutes.globalConfigSet>) => api.call(authRoutes.globalConfigSet, { body }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: ['security'] });
      void client.invalidateQueries({ queryKey: ['auth'] });
    },
  });
  return { ...mutation, canEdit };
};

/** Timeout logout (ACCOUNT_SAFE) and the login safety parts of LOGIN_SAFE. */
const SessionSection = ({ loginSafe }: { loginSafe: LoginSafeConfig }) => {
  const { t } = useTranslation();
  const save = useSaveConfig();
  const canEdit = save.canEdit;
  const account = useQuery(configQuery('ACCOUNT_SAFE'));
  const [accountForm] = Form.useForm<AccountSafeConfig['acc_logout_config']>();
  const [form] = Form.useForm<LoginSafeConfig>();
  useEffect(() => {
    const value =
      account.data && 'acc_logout_config' in account.data
        ? account.data.acc_logout_config
        : defaultAccountSafe.acc_logout_config;
    accountForm.setFieldsValue(value);
  }, [account.data, accountForm]);
  useEffect(() => form.setFieldsValue(loginSafe), [loginSafe, form]);
  return (
    <Flex vertical gap={16}>
      <Card size="small" title={t('securityPage.timeout')}>
        <Form
          form={accountForm}
          name="account_safe"
          layout="inline"
          onFinish={(v) => save.mutate({ k: 'ACCOUNT_SAFE', v: { acc_logout_config: v } })}
        >
          <Form.Item name="enabled" label={t('securityPage.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item
            name="opt_period"
            label={t('securityPage.minutes')}
            rules={[{ required: true, message: t('securityPage.durationRequired') }]}
          >
            <InputNumber min={1} max={1440} precision={0} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!canEdit}>
            {t('common.save')}
          </Button>
        </Form>
      </Card>
      <Card size="small" title={t('securityPage.loginSafety')}>
        <Form
          form={form}
          name="login_safety"
          layout="horizontal"
          labelCol={{ span: 6 }}
          wrapperCol={{ span: 14 }}
          onFinish={(v) =>
            save.mutate({
              k: 'LOGIN_SAFE',
              v: { ...loginSafe, ...v, auto_lock: { ...loginSafe.auto_lock, ...v.auto_lock } },
            })
          }
        >
          <Form.Item name="captcha_enabled" label={t('securityPage.captcha')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="single_terminal" label={t('securityPage.singleTerminal')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name={['auto_lock', 'enabled']} label={t('securityPage.autoLock')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label={t('securityPage.autoLockRule')}>
            <Space>
              <Form.Item name={['auto_lock', 'period_minutes']} noStyle rules={[{ required: true }]}>
                <InputNumber min={1} max={1440} precision={0} addonAfter={t('securityPage.minutes')} />
              </Form.Item>
              <Form.Item name={['auto_lock', 'attempts']} noStyle rules={[{ required: true }]}>
                <InputNumber min={1} max={100} precision={0} addonAfter={t('securityPage.attempts')} />
              </Form.Item>
            </Space>
          </Form.Item>
          <Form.Item
            name="lock_expiry_days"
            label={t('securityPage.lockExpiry')}
            extra={t('securityPage.lockExpiryHelp')}
          >
            <InputNumber min={0} max={3650} precision={0} addonAfter={t('securityPage.days')} />
          </Form.Item>
          <Form.Item wrapperCol={{ offset: 6 }}>
            <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!canEdit}>
              {t('common.save')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </Flex>
  );
};

interface RestrictionValues {
  ips: string;
  allowed_browsers: LoginSafeConfig['allowed_browsers'];
  allowed_periods: LoginSafeConfig['allowed_periods'];
  allow_enabled: boolean;
  allow_user_ids: number[];
}

/** Allowed terminal IPs, browsers, time periods and the allow list (002 §3, §5.3). */
const RestrictionsSection = ({ loginSafe }: { loginSafe: LoginSafeConfig }) => {
  const { t } = useTranslation();
  const save = useSaveConfig();
  const canEdit = save.canEdit;
  const users = useQuery(allUsersQuery);
  const [form] = Form.useForm<RestrictionValues>();
  useEffect(
    () =>
      form.setFieldsValue({
        ips: loginSafe.allowed_ips.join('\n'),
        allowed_browsers: loginSafe.allowed_browsers,
        allowed_periods: loginSafe.allowed_periods,
        allow_enabled: loginSafe.allow_list.enabled,
        allow_user_ids: loginSafe.allow_list.user_ids,
      }),
    [loginSafe, form],
  );
  const submit = (v: RestrictionValues) =>
    save.mutate({
      k: 'LOGIN_SAFE',
      v: {
        ...loginSafe,
        allowed_ips: v.ips
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
        allowed_browsers: v.allowed_browsers,
        allowed_periods: v.allowed_periods,
        allow_list: { enabled: v.allow_enabled, user_ids: v.allow_user_ids ?? [] },
      },
    });
  return (
    <Card size="small" title={t('securityPage.restrictions')}>
      <Alert type="info" showIcon title={t('securityPage.lockoutHelp')} style={{ marginBottom: 16 }} />
      <Form form={form} name="login_restrictions" layout="vertical" onFinish={submit}>
        <Form.Item
          name="ips"
          label={t('securityPage.ips')}
          extra={t('securityPage.ipsHelp')}
          rules={[{ required: true, whitespace: true, message: t('securityPage.ipsRequired') }]}
        >
          <Input.TextArea rows={4} placeholder={'192.168.1.0/24\n10.0.0.8'} />
        </Form.Item>
        <Form.Item
          name="allowed_browsers"
          label={t('securityPage.browsers')}
          rules={[{ required: true, type: 'array', min: 1, message: t('securityPage.browsersRequired') }]}
        >
          <Checkbox.Group options={browserNames.map((b) => ({ value: b, label: t(`securityPage.browser.${b}`) }))} />
        </Form.Item>
        <Form.Item label={t('securityPage.periods')} required>
          <WeeklyRangesField
            name="allowed_periods"
            addLabel={t('common.add')}
            rules={[
              {
                validator: async (_, value: unknown[]) => {
                  if (!value || value.length < 1) throw new Error(t('securityPage.periodsRequired'));
                },
              },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="allow_enabled"
          label={t('securityPage.allowList')}
          valuePropName="checked"
          extra={t('securityPage.allowListHelp')}
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="allow_user_ids"
          dependencies={['allow_enabled']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_, value: number[] | undefined) => {
                if (getFieldValue('allow_enabled') && !value?.length)
                  throw new Error(t('securityPage.allowListRequired'));
              },
            }),
          ]}
        >
          <Select
            mode="multiple"
            optionFilterProp="label"
            options={users.data?.data.map((u) => ({ value: u.id, label: u.user_name }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!canEdit}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
};

type PwdKey = keyof Omit<
  PwdComplexityConfig,
  'opt_min_len' | 'opt_validity_days' | 'opt_expire_prompt_days' | 'always_valid_user_ids'
>;
const pwdSwitches: PwdKey[] = [
  'enabled',
  'opt_min_len_enabled',
  'opt_reject_frequent_pwd',
  'opt_exclude_username',
  'opt_mix_up_lo_letter',
  'opt_contain_num',
  'opt_contain_spec_char',
  'opt_reject_same_pwd',
  'opt_validity_enabled',
];

/** PWD_COMPLEXITY (000 §3, 002 §5.2); the page says why composition rules start off. */
const PasswordSection = () => {
  const { t } = useTranslation();
  const save = useSaveConfig();
  const canEdit = save.canEdit;
  const current = useQuery(configQuery('PWD_COMPLEXITY'));
  const users = useQuery(allUsersQuery);
  const [form] = Form.useForm<PwdComplexityConfig>();
  useEffect(() => {
    const value =
      current.data && 'pwd_complexity_config' in current.data
        ? current.data.pwd_complexity_config
        : defaultPwdComplexity;
    form.setFieldsValue(value);
  }, [current.data, form]);
  return (
    <Card size="small" title={t('securityPage.passwordRules')}>
      <Alert type="info" showIcon title={t('securityPage.passwordAdvice')} style={{ marginBottom: 16 }} />
      <Form
        form={form}
        name="pwd_complexity"
        layout="horizontal"
        labelCol={{ span: 8 }}
        wrapperCol={{ span: 12 }}
        onFinish={(v) =>
          save.mutate({ k: 'PWD_COMPLEXITY', v: { pwd_complexity_config: { ...defaultPwdComplexity, ...v } } })
        }
      >
        {pwdSwitches.map((key) => (
          <Form.Item key={key} name={key} label={t(`securityPage.pwd.${key}`)} valuePropName="checked">
            <Switch />
          </Form.Item>
        ))}
        <Form.Item name="opt_min_len" label={t('securityPage.pwd.opt_min_len')} rules={[{ required: true }]}>
          <InputNumber min={6} max={64} precision={0} />
        </Form.Item>
        <Form.Item
          name="opt_validity_days"
          label={t('securityPage.pwd.opt_validity_days')}
          rules={[{ required: true }]}
        >
          <InputNumber min={1} max={3650} precision={0} addonAfter={t('securityPage.days')} />
        </Form.Item>
        <Form.Item
          name="opt_expire_prompt_days"
          label={t('securityPage.pwd.opt_expire_prompt_days')}
          rules={[{ required: true }]}
        >
          <InputNumber min={0} max={365} precision={0} addonAfter={t('securityPage.days')} />
        </Form.Item>
        <Form.Item name="always_valid_user_ids" label={t('securityPage.pwd.always_valid_user_ids')}>
          <Select
            mode="multiple"
            optionFilterProp="label"
            options={users.data?.data.map((u) => ({ value: u.id, label: u.user_name }))}
          />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 8 }}>
          <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!canEdit}>
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
};

/** The account block list: users, reason, days or everlasting; never oneself (002 §5.3). */
const BlockListSection = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const blocks = useQuery(blocksQuery);
  const users = useQuery(allUsersQuery);
  const [open, setOpen] = useState(false);
  const canBlock = useCan('/setting_security', 'block');
  // Never oneself; an administrator account only by an administrator (docs/users.md).
  const isAdministrator = useIsAdministrator();
  const me = useSession((s) => s.user?.id);
  const blockable = (u: { id: number; role_ids: number[] }) =>
    u.id !== me && (isAdministrator || (u.id !== 1 && !u.role_ids.includes(1)));
  const [form] = Form.useForm<{ user_ids: number[]; reason: string; forever: boolean; days: number | null }>();
  const done = () => {
    void message.success(t('common.operationSuccess'));
    setOpen(false);
    void client.invalidateQueries({ queryKey: ['security', 'blocks'] });
  };
  const block = useMutation({
    mutationFn: (v: { user_ids: number[]; reason: string; forever: boolean; days: number | null }) =>
      api.call(usersRoutes.block, {
        body: { user_ids: v.user_ids, reason: v.reason, days: v.forever ? null : (v.days ?? null) },
      }),
    onSuccess: done,
  });
  const unblock = useMutation({
    mutationFn: (id: number) => api.call(usersRoutes.unblock, { params: { id } }),
    onSuccess: done,
  });
  const when = (s: number | null) => formatTime(s, t('securityPage.everlasting'));
  return (
    <Card
      size="small"
      title={t('securityPage.blockList')}
      extra={
        <Button
          disabled={!canBlock}
          onClick={() => {
            form.resetFields();
            form.setFieldsValue({ forever: false, days: 1, user_ids: [] });
            setOpen(true);
          }}
        >
          {t('securityPage.block')}
        </Button>
      }
    >
      <Table
        rowKey="id"
        size="small"
        loading={blocks.isLoading}
        dataSource={blocks.data?.data ?? []}
        pagination={false}
        columns={[
          { title: t('securityPage.account'), dataIndex: 'user_name' },
          { title: t('securityPage.blockTime'), dataIndex: 'created_at', render: (s: number) => when(s) },
          { title: t('securityPage.expiration'), dataIndex: 'expires_at', render: when },
          { title: t('securityPage.reason'), dataIndex: 'reason' },
          {
            title: t('common.actions'),
            render: (_, row: { id: number }) => (
              <Popconfirm title={t('securityPage.unblockConfirm')} onConfirm={() => unblock.mutate(row.id)}>
                <Button size="small" disabled={!canBlock}>
                  {t('securityPage.unblock')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <Modal
        open={open}
        title={t('securityPage.block')}
        onCancel={() => setOpen(false)}
        onOk={() => void validValues(form).then((v) => v && block.mutate(v))}
        confirmLoading={block.isPending}
      >
        <Form form={form} name="block" layout="vertical">
          <Form.Item
            name="user_ids"
            label={t('securityPage.chooseUsers')}
            rules={[{ required: true, type: 'array', min: 1, message: t('securityPage.chooseUsers') }]}
          >
            <Select
              mode="multiple"
              optionFilterProp="label"
              options={users.data?.data.filter(blockable).map((u) => ({ value: u.id, label: u.user_name }))}
            />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('securityPage.reason')}
            rules={[{ required: true, whitespace: true, message: t('securityPage.reasonRequired') }]}
          >
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="forever" label={t('securityPage.expiration')}>
            <Radio.Group
              options={[
                { value: false, label: t('securityPage.forDays') },
                { value: true, label: t('securityPage.everlasting') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="days"
            dependencies={['forever']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_, value: number | null) => {
                  if (!getFieldValue('forever') && !value) throw new Error(t('securityPage.daysRequired'));
                },
              }),
            ]}
          >
            <InputNumber min={1} max={36500} precision={0} addonAfter={t('securityPage.days')} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
};

/** /setting_security (002 §3 Security settings, §5.3): every setting takes effect on the server at once. */
export const SecurityPage = () => {
  const { t } = useTranslation();
  const loginSafe = useQuery(configQuery('LOGIN_SAFE'));
  const value = loginSafe.data && 'captcha_enabled' in loginSafe.data ? loginSafe.data : defaultLoginSafe;
  return (
    <Card title={t('menu.security')}>
      <Tabs
        items={[
          { key: 'session', label: t('securityPage.tabSession'), children: <SessionSection loginSafe={value} /> },
          {
            key: 'restrictions',
            label: t('securityPage.tabRestrictions'),
            children: <RestrictionsSection loginSafe={value} />,
          },
          { key: 'password', label: t('securityPage.tabPassword'), children: <PasswordSection /> },
          { key: 'blocks', label: t('securityPage.tabBlocks'), children: <BlockListSection /> },
        ]}
      />
    </Card>
  );
};
