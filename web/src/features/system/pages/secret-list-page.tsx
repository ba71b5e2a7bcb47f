import { authRoutes } from '@sitewatch/contract/auth';
import { systemRoutes as r, sm4KeyPattern } from '@sitewatch/contract/system';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { formatTime } from '../../../components/time.ts';
import { useIsAdministrator } from '../../../session/permissions.ts';
import { sm4Query, systemKeys } from '../api.ts';

interface Values {
  enabled: boolean;
  key: string;
  password: string;
}

/** A new random 128-bit key as 32 hex digits, made in the browser. */
const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** /secret_list: the SM4 key that encrypts debug-log downloads (setting/maintain/sm4; docs/system.md). */
export const SecretListPage = () => {
  const { t } = useTranslation();
  const admin = useIsAdministrator();
  if (!admin) return <Alert type="info" showIcon message={t('systemUi.adminOnly')} />;
  return <Sm4Settings />;
};

const Sm4Settings = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const state = useQuery(sm4Query);
  const [form] = Form.useForm<Values>();
  const save = useMutation({
    mutationFn: async (v: Values) => {
      const { public_key } = await api.call(authRoutes.loginParams);
      return api.call(r.saveSm4, {
        body: {
          enabled: v.enabled,
          key: v.key.trim(),
          verify_password: await encryptForServer(public_key, v.password),
        },
      });
    },
    onSuccess: (data) => {
      client.setQueryData(systemKeys.sm4, data);
      void client.invalidateQueries({ queryKey: systemKeys.debugLog });
      form.setFieldsValue({ key: '', password: '' });
      void message.success(t('common.operationSuccess'));
    },
    onError: (err) => void message.error(err.message),
  });
  const s = state.data;
  return (
    <Card title={t('systemUi.sm4.title')} size="small" loading={state.isPending}>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Paragraph style={{ margin: 0 }}>{t('systemUi.sm4.explain')}</Typography.Paragraph>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('systemUi.sm4.state')}>
            {s?.enabled ? <Tag color="success">{t('systemUi.sm4.on')}</Tag> : <Tag>{t('systemUi.sm4.off')}</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label={t('systemUi.sm4.key')}>
            {s?.key_set ? (
              <span>
                {t('systemUi.sm4.keySet')} <Typography.Text code>{s.fingerprint}</Typography.Text>
              </span>
            ) : (
              t('systemUi.sm4.noKey')
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('systemUi.sm4.updated')}>
            {s?.updated_at ? formatTime(s.updated_at) : '—'}
          </Descriptions.Item>
        </Descriptions>
        {s && (
          <Form
            form={form}
            layout="vertical"
            style={{ maxWidth: 560 }}
            initialValues={{ enabled: s.enabled, key: '', password: '' }}
            onFinish={(v) => save.mutate(v)}
          >
            <Form.Item name="enabled" label={t('systemUi.sm4.enable')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item label={t('systemUi.sm4.newKey')} extra={t('systemUi.sm4.newKeyHelp')}>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item
                  name="key"
                  noStyle
                  rules={[
                    { pattern: sm4KeyPattern, message: t('systemUi.sm4.keyFormat') },
                    ({ getFieldValue }) => ({
                      validator: async (_, value: string) => {
                        if (getFieldValue('enabled') && !value && !s.key_set)
                          throw new Error(t('systemUi.sm4.keyRequired'));
                      },
                    }),
                  ]}
                >
                  <Input aria-label={t('systemUi.sm4.newKey')} maxLength={32} autoComplete="off" spellCheck={false} />
                </Form.Item>
                <Button onClick={() => form.setFieldsValue({ key: newKey() })}>{t('systemUi.sm4.generate')}</Button>
              </Space.Compact>
            </Form.Item>
            <Form.Item
              name="password"
              label={t('systemUi.sm4.password')}
              rules={[{ required: true, message: t('systemUi.sm4.passwordRequired') }]}
            >
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Form>
        )}
      </Space>
    </Card>
  );
};
