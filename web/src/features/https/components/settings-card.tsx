import { domainInput, type HttpsSettingsInput, type HttpsState, httpsSettingsInput } from '@sitewatch/contract/https';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { contractRule, validValues } from '../../../components/form-rules.ts';
import { formatTime } from '../../../components/time.ts';
import { issueNow, saveDomain, saveSettings } from '../api.ts';

type Values = HttpsSettingsInput & { domain: string };

const toForm = (s: HttpsState): Values => ({
  enabled: s.enabled,
  redirect: s.redirect,
  port: s.port,
  domain: s.domain,
  acme_enabled: s.acme.enabled,
  acme_email: s.acme.email,
  acme_directory_url: s.acme.directory_url,
});

/** HTTPS on or off, the redirect, the port, the domain and ACME issuance. */
export const SettingsCard = ({ state, canEdit }: { state: HttpsState; canEdit: boolean }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  useEffect(() => form.setFieldsValue(toForm(state)), [state, form]);
  const save = useMutation({
    mutationFn: async ({ domain, acme_directory_ca, ...rest }: Values) => {
      if (domain !== state.domain) await saveDomain(domain);
      return saveSettings({ ...rest, ...(acme_directory_ca ? { acme_directory_ca } : {}) });
    },
    onSuccess: (next) => {
      void message.success(t('common.operationSuccess'));
      client.setQueryData(['https'], next);
    },
    onError: () => void client.invalidateQueries({ queryKey: ['https'] }),
  });
  const issue = useMutation({
    mutationFn: issueNow,
    onSuccess: (next) => {
      void message.success(t('httpsUi.acme.issued'));
      client.setQueryData(['https'], next);
    },
    onError: () => void client.invalidateQueries({ queryKey: ['https'] }),
  });
  const rule = (message?: string) => contractRule(httpsSettingsInput, message ? { message } : {});
  return (
    <Card title={t('httpsUi.settings.title')}>
      <Form form={form} layout="vertical" disabled={!canEdit} style={{ maxWidth: 640 }}>
        <Space size={48}>
          <Form.Item name="enabled" label={t('httpsUi.settings.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="redirect" label={t('httpsUi.settings.redirect')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="port" label={t('httpsUi.settings.port')} rules={[rule()]}>
            <InputNumber min={1} max={65535} style={{ width: 120 }} />
          </Form.Item>
        </Space>
        <Form.Item
          name="domain"
          label={t('httpsUi.settings.domain')}
          extra={t('httpsUi.settings.domainHelp')}
          rules={[contractRule(domainInput)]}
        >
          <Input placeholder="console.example.com" />
        </Form.Item>
        <Form.Item
          name="acme_enabled"
          label={t('httpsUi.acme.enabled')}
          valuePropName="checked"
          extra={t('httpsUi.acme.help')}
        >
          <Switch />
        </Form.Item>
        <Form.Item name="acme_email" label={t('httpsUi.acme.email')} rules={[rule()]}>
          <Input type="email" />
        </Form.Item>
        <Form.Item name="acme_directory_url" label={t('httpsUi.acme.directory')} rules={[rule()]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="acme_directory_ca"
          label={t('httpsUi.acme.directoryCa')}
          extra={state.acme.has_directory_ca ? t('httpsUi.acme.directoryCaSet') : t('httpsUi.acme.directoryCaHelp')}
        >
          <Input.TextArea rows={2} placeholder="-----BEGIN CERTIFICATE-----" />
        </Form.Item>
        {state.acme.last_error ? (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('httpsUi.acme.lastError', { reason: state.acme.last_error })}
          />
        ) : null}
        <p>
          {t('httpsUi.acme.issuedAt', { time: formatTime(state.acme.issued_at) })}
          {state.acme.next_check_at
            ? ` · ${t('httpsUi.acme.nextCheck', { time: formatTime(state.acme.next_check_at) })}`
            : ''}
        </p>
        <Space>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={async () => {
              const values = await validValues(form);
              if (values) save.mutate(values);
            }}
          >
            {t('common.save')}
          </Button>
          <Button loading={issue.isPending} disabled={!state.domain} onClick={() => issue.mutate()}>
            {t('httpsUi.acme.issueNow')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
};
