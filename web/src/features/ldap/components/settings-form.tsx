import {
  type LdapSettingsInput,
  type LdapSettingsView,
  ldapRoutes,
  ldapSettingsInput,
  userNamePlaceholder,
} from '@sitewatch/contract/ldap';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../../api/client.ts';
import { groupsQuery, rolesQuery } from '../api.ts';

type Values = Omit<LdapSettingsInput, 'bind_password'> & { bind_password?: string };

/** Server field paths (`body.url`) to form field errors, with the texts of their keys. */
const fieldErrors = (err: unknown, text: (key: string) => string) => {
  if (!(err instanceof ApiError)) return [];
  const fields = (err.data as { fields?: Array<{ path: string; message: string }> } | null)?.fields ?? [];
  return fields
    .filter((f) => f.path.startsWith('body.'))
    .map((f) => ({ name: f.path.slice('body.'.length).split('.')[0] ?? '', errors: [text(f.message)] }));
};

/** The directory settings, with a connection test of the values as edited (002 §2.3 LDAP users). */
export const SettingsForm = ({ settings, canEdit }: { settings: LdapSettingsView; canEdit: boolean }) => {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const roles = useQuery(rolesQuery);
  const groups = useQuery(groupsQuery);
  const text = (key: string) => (i18n.exists(key) ? t(key as never) : key);

  useEffect(() => {
    const { bind_password_set: _set, ...values } = settings;
    form.setFieldsValue({ ...values, bind_password: '' });
  }, [settings, form]);

  /** The form's values as the API takes them: an untouched bind password keeps the stored one. */
  const input = async (): Promise<LdapSettingsInput | null> => {
    const values = await form.validateFields();
    const { bind_password, ...rest } = values;
    const body = {
      ...rest,
      default_role_ids: rest.default_role_ids ?? [],
      default_user_group_id: rest.default_user_group_id ?? null,
      ...(bind_password ? { bind_password } : {}),
    };
    const parsed = ldapSettingsInput.safeParse(body);
    if (!parsed.success) {
      form.setFields(
        parsed.error.issues.map((issue) => ({
          name: String(issue.path[0] ?? '') as keyof Values,
          errors: [text(issue.message)],
        })),
      );
      return null;
    }
    return body;
  };

  const onFailure = (err: unknown) => {
    const fields = fieldErrors(err, text);
    if (fields.length > 0) form.setFields(fields as never);
  };

  const save = useMutation({
    mutationFn: (body: LdapSettingsInput) => api.call(ldapRoutes.settingsSet, { body }),
    onSuccess: (data) => {
      void message.success(t('ldap.saved'));
      client.setQueryData(['ldap', 'settings'], data);
      void client.invalidateQueries({ queryKey: ['ldap', 'remote-users'] });
    },
    onError: onFailure,
  });
  const test = useMutation({
    mutationFn: (body: LdapSettingsInput) => api.call(ldapRoutes.test, { body }),
    onSuccess: (data) =>
      setTestResult({
        ok: true,
        text: t('ldap.page.testResult', { count: data.users_found, sample: data.sample.join(', ') || '-' }),
      }),
    onError: (err) => {
      onFailure(err);
      setTestResult({ ok: false, text: err instanceof ApiError ? err.message : t('common.operationFailed') });
    },
  });

  const roleOptions = (roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  const groupOptions = (groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name }));

  return (
    <Card title={t('ldap.page.settingsTitle')}>
      <Form
        form={form}
        name="ldap_settings"
        layout="vertical"
        disabled={!canEdit}
        onValuesChange={() => setTestResult(null)}
      >
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="enabled" label={t('ldap.page.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="auto_create" label={t('ldap.page.autoCreate')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="timeout_seconds" label={t('ldap.page.timeout')} rules={[{ required: true }]}>
              <InputNumber min={1} max={60} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="url"
              label={t('ldap.page.url')}
              extra={t('ldap.page.urlHelp')}
              rules={[{ required: true, whitespace: true, message: text('ldap.validation.urlRequired') }]}
            >
              <Input placeholder="ldap://ldap.example.com:389" maxLength={300} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="start_tls" label={t('ldap.page.startTls')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="tls_reject_unauthorized" label={t('ldap.page.verifyCertificate')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="bind_dn" label={t('ldap.page.bindDn')} extra={t('ldap.page.bindDnHelp')}>
              <Input placeholder="cn=reader,dc=example,dc=com" maxLength={500} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="bind_password"
              label={t('ldap.page.bindPassword')}
              extra={settings.bind_password_set ? t('ldap.page.bindPasswordKept') : undefined}
            >
              <Input.Password autoComplete="new-password" maxLength={256} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="base_dn" label={t('ldap.page.baseDn')}>
              <Input placeholder="ou=people,dc=example,dc=com" maxLength={500} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="user_filter"
              label={t('ldap.page.userFilter')}
              extra={t('ldap.page.userFilterHelp', { placeholder: userNamePlaceholder })}
              rules={[{ required: true, whitespace: true, message: text('ldap.validation.filterRequired') }]}
            >
              <Input placeholder="(uid={{username}})" maxLength={500} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          {(
            [
              ['attr_user_name', 'ldap.page.attrUserName'],
              ['attr_alias', 'ldap.page.attrAlias'],
              ['attr_email', 'ldap.page.attrEmail'],
              ['attr_phone', 'ldap.page.attrPhone'],
            ] as const
          ).map(([name, label]) => (
            <Col xs={12} md={6} key={name}>
              <Form.Item
                name={name}
                label={t(label)}
                rules={[{ required: true, whitespace: true, message: text('ldap.validation.attributeRequired') }]}
              >
                <Input maxLength={64} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="default_role_ids" label={t('ldap.page.defaultRoles')}>
              <Select mode="multiple" options={roleOptions} loading={roles.isLoading} allowClear />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="default_user_group_id" label={t('ldap.page.defaultGroup')}>
              <Select
                options={groupOptions}
                loading={groups.isLoading}
                allowClear
                onClear={() => form.setFieldValue('default_user_group_id', null)}
              />
            </Form.Item>
          </Col>
        </Row>
        {testResult && (
          <Alert
            type={testResult.ok ? 'success' : 'error'}
            showIcon
            message={testResult.text}
            data-testid="ldap-test-result"
            style={{ marginBottom: 16 }}
          />
        )}
        {canEdit && (
          <Space>
            <Button
              loading={test.isPending}
              onClick={() =>
                void input()
                  .then((body) => body && test.mutate(body))
                  .catch(() => undefined)
              }
            >
              {t('ldap.page.test')}
            </Button>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() =>
                void input()
                  .then((body) => body && save.mutate(body))
                  .catch(() => undefined)
              }
            >
              {t('common.save')}
            </Button>
          </Space>
        )}
      </Form>
    </Card>
  );
};
