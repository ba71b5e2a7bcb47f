import {
  type ApiTokenCreated,
  type ApiTokenRow,
  apiTokenDefaultDays,
  apiTokenInput,
  apiTokenMaxDays,
} from '@sitewatch/contract/tokens';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contractRule, validValues } from '../../../components/form-rules.ts';
import { formatTime } from '../../../components/time.ts';
import { apiTokensKey, apiTokensQuery, createApiToken, revokeApiToken } from '../api.ts';

interface FormValues {
  name: string;
  expires_in_days: number;
  read_only: boolean;
}

/** The dialog that makes a token, then shows its secret once with a copy button and a curl line. */
const CreateDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const create = useMutation({
    mutationFn: createApiToken,
    onSuccess: (token) => {
      setCreated(token);
      void client.invalidateQueries({ queryKey: apiTokensKey });
    },
  });
  const close = () => {
    // The secret leaves memory with the dialog: it is never shown again.
    setCreated(null);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    const values = await validValues(form);
    if (values) create.mutate(values);
  };
  const curl = created
    ? `curl -H "Authorization: Bearer ${created.token}" ${window.location.origin}/api/v1/user/current`
    : '';
  return (
    <Modal
      open={open}
      title={created ? t('apiTokens.createdTitle') : t('apiTokens.create')}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      footer={
        created ? (
          <Button type="primary" onClick={close}>
            {t('apiTokens.done')}
          </Button>
        ) : (
          <Space>
            <Button onClick={close}>{t('apiTokens.cancel')}</Button>
            <Button type="primary" loading={create.isPending} onClick={() => void submit()}>
              {t('apiTokens.create')}
            </Button>
          </Space>
        )
      }
    >
      {created ? (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Alert type="warning" showIcon message={t('apiTokens.copyNow')} />
          <Typography.Paragraph
            data-testid="api-token-secret"
            code
            copyable={{ text: created.token, tooltips: [t('apiTokens.copy'), t('apiTokens.copied')] }}
            style={{ wordBreak: 'break-all', marginBottom: 0 }}
          >
            {created.token}
          </Typography.Paragraph>
          <Typography.Text type="secondary">{t('apiTokens.curlExample')}</Typography.Text>
          <Typography.Paragraph code copyable style={{ wordBreak: 'break-all', marginBottom: 0 }}>
            {curl}
          </Typography.Paragraph>
        </Space>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ name: '', expires_in_days: apiTokenDefaultDays, read_only: false }}
        >
          <Form.Item
            name="name"
            label={t('apiTokens.name')}
            extra={t('apiTokens.nameHelp')}
            rules={[contractRule(apiTokenInput, { required: true, message: t('apiTokens.nameRequired') })]}
          >
            <Input maxLength={64} autoFocus />
          </Form.Item>
          <Form.Item
            name="expires_in_days"
            label={t('apiTokens.expiresIn')}
            extra={t('apiTokens.expiresHelp', { max: apiTokenMaxDays })}
            rules={[
              contractRule(apiTokenInput, {
                required: true,
                message: t('apiTokens.expiryRange', { max: apiTokenMaxDays }),
              }),
            ]}
          >
            <InputNumber min={1} max={apiTokenMaxDays} precision={0} addonAfter={t('apiTokens.days')} />
          </Form.Item>
          <Form.Item name="read_only" valuePropName="checked" extra={t('apiTokens.readOnlyHelp')}>
            <Checkbox>{t('apiTokens.readOnly')}</Checkbox>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
};

/** /setting_api_tokens: the user's personal API tokens, made, listed and revoked (administrator: everyone's). */
export const ApiTokensPage = ({ isAdmin }: { isAdmin: boolean }) => {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const client = useQueryClient();
  const [all, setAll] = useState(false);
  const [creating, setCreating] = useState(false);
  const list = useQuery(apiTokensQuery(all));
  const revoke = useMutation({
    mutationFn: revokeApiToken,
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: apiTokensKey });
    },
  });
  return (
    <Card
      title={t('apiTokens.title')}
      extra={
        <Space>
          {isAdmin && (
            <Switch
              checked={all}
              onChange={setAll}
              checkedChildren={t('autoLogin.allUsers')}
              unCheckedChildren={t('autoLogin.mine')}
            />
          )}
          <Button type="primary" onClick={() => setCreating(true)}>
            {t('apiTokens.create')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('apiTokens.explain')}{' '}
        <Typography.Link href="/api/docs" target="_blank">
          {t('apiTokens.docsLink')}
        </Typography.Link>
      </Typography.Paragraph>
      <Table<ApiTokenRow>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        pagination={false}
        locale={{ emptyText: t('apiTokens.empty') }}
        columns={[
          ...(all ? [{ title: t('autoLogin.user'), dataIndex: 'user_name' }] : []),
          { title: t('apiTokens.name'), dataIndex: 'name' },
          {
            title: t('apiTokens.prefix'),
            dataIndex: 'prefix',
            width: 200,
            render: (prefix: string) => <Typography.Text code>{`swt_${prefix}_…`}</Typography.Text>,
          },
          {
            title: t('apiTokens.access'),
            dataIndex: 'read_only',
            width: 110,
            render: (readOnly: boolean) =>
              readOnly ? <Tag color="blue">{t('apiTokens.readOnly')}</Tag> : <Tag>{t('apiTokens.readWrite')}</Tag>,
          },
          { title: t('apiTokens.created'), dataIndex: 'created_at', width: 120, render: (v: number) => formatTime(v) },
          { title: t('apiTokens.expires'), dataIndex: 'expires_at', width: 120, render: (v: number) => formatTime(v) },
          {
            title: t('apiTokens.lastUsed'),
            dataIndex: 'last_used_at',
            width: 150,
            render: (v: number | null, row) => (v ? `${formatTime(v)} ${row.last_used_ip}` : t('apiTokens.never')),
          },
          {
            title: t('common.actions'),
            width: 100,
            render: (_, row) => (
              <Popconfirm title={t('apiTokens.revokeConfirm')} onConfirm={() => revoke.mutate(row.id)}>
                <Button danger size="small">
                  {t('autoLogin.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <CreateDialog open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
};
