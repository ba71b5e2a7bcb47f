import {
  type FtpRecord,
  type FtpSettings,
  ftpRoutes as f,
  type ftpEntry,
  ftpSettings,
} from '@sitewatch/contract/maintenance';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError, api } from '../../../api/client.ts';
import { contractRule, validValues } from '../../../components/form-rules.ts';
import { formatTime } from '../../../components/time.ts';
import { backupListQuery, formatSize, ftpKeys, ftpRecordsQuery, ftpSettingsQuery } from '../api.ts';

type Entry = z.infer<typeof ftpEntry>;

/** A failure's reason: a text of ours when the server answered a key, else the FTP server's own words. */
const useReason = () => {
  const { t, i18n } = useTranslation();
  return (detail: string) =>
    i18n.exists(detail) ? t(detail as 'common.operationFailed') : <span data-raw-ok>{detail}</span>;
};

/** The server and its sign-in (002 §5.3: remote address, port (21 by default) and path required). */
const ServerCard = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const reason = useReason();
  const settings = useQuery(ftpSettingsQuery);
  const [form] = Form.useForm<FtpSettings>();
  const secure = Form.useWatch('secure', form);
  const [result, setResult] = useState<{ ok: boolean; entries: number; detail: string } | null>(null);
  useEffect(() => {
    if (!settings.data) return;
    const { has_password: _set, ...values } = settings.data;
    form.setFieldsValue({ ...values, password: '' });
  }, [settings.data, form]);
  const rule = (required: boolean) => contractRule(ftpSettings, { required });
  const save = async (values: FtpSettings) => {
    await api.call(f.save, { body: values });
    await client.invalidateQueries({ queryKey: ftpKeys.settings });
  };
  const saving = useMutation({
    mutationFn: save,
    onSuccess: () => void message.success(t('common.operationSuccess')),
  });
  // The test is of the saved server: the form is saved first, then the server signs in and lists.
  const testing = useMutation({
    mutationFn: async (values: FtpSettings) => {
      await save(values);
      return api.call(f.test);
    },
    onMutate: () => setResult(null),
    onSuccess: setResult,
  });
  const submit = (then: (values: FtpSettings) => void) => () =>
    void validValues(form).then((values) => values && then(values));
  return (
    <Card size="small" title={t('backupPage.ftp.serverTitle')}>
      <Form
        form={form}
        name="backup_ftp"
        layout="vertical"
        initialValues={{ port: 21, user: 'anonymous', path: '/', secure: false, enabled: false, ca: '' }}
        onValuesChange={() => setResult(null)}
      >
        <Row gutter={16}>
          <Col span={9}>
            <Form.Item name="host" label={t('backupPage.ftp.host')} rules={[rule(true)]}>
              <Input placeholder="192.168.1.20" maxLength={253} />
            </Form.Item>
          </Col>
          <Col span={5}>
            <Form.Item name="port" label={t('backupPage.ftp.port')} rules={[rule(true)]}>
              <InputNumber precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={10}>
            <Form.Item name="path" label={t('backupPage.ftp.path')} rules={[rule(true)]}>
              <Input placeholder="/backups/sitewatch" maxLength={255} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={10}>
            <Form.Item name="user" label={t('backupPage.ftp.user')} rules={[rule(false)]}>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={14}>
            <Form.Item
              name="password"
              label={t('backupPage.ftp.password')}
              extra={settings.data?.has_password ? t('backupPage.ftp.passwordKept') : undefined}
              rules={[rule(false)]}
            >
              <Input.Password maxLength={128} autoComplete="new-password" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={10}>
            <Form.Item name="secure" label={t('backupPage.ftp.secure')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col span={14}>
            <Form.Item
              name="enabled"
              label={t('backupPage.ftp.enabled')}
              extra={t('backupPage.ftp.enabledHelp')}
              valuePropName="checked"
            >
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        {secure && (
          <Form.Item name="ca" label={t('backupPage.ftp.ca')} extra={t('backupPage.ftp.caHelp')} rules={[rule(false)]}>
            <Input.TextArea rows={3} placeholder="-----BEGIN CERTIFICATE-----" />
          </Form.Item>
        )}
        <Space wrap>
          <Button type="primary" loading={saving.isPending} onClick={submit((v) => saving.mutate(v))}>
            {t('common.save')}
          </Button>
          <Button loading={testing.isPending} onClick={submit((v) => testing.mutate(v))}>
            {t('backupPage.ftp.test')}
          </Button>
        </Space>
      </Form>
      {result && (
        <Alert
          style={{ marginTop: 12 }}
          showIcon
          type={result.ok ? 'success' : 'error'}
          message={result.ok ? t('backupPage.ftp.testOk', { count: result.entries }) : t('backupPage.ftp.testFailed')}
          description={result.ok ? undefined : reason(result.detail)}
        />
      )}
    </Card>
  );
};

/** The remote folder as the server lists it, read when asked (each read is a conversation). */
const RemoteCard = () => {
  const { t } = useTranslation();
  // Read only when asked; a refusal is told here (a query's failure makes no toast).
  const list = useQuery({
    queryKey: ftpKeys.remote,
    queryFn: () => api.call(f.list),
    enabled: false,
    retry: false,
    gcTime: 0,
  });
  const reason = useReason();
  const error =
    list.error instanceof ApiError
      ? list.error.message
      : list.error
        ? t('common.operationFailed')
        : list.data && !list.data.ok
          ? reason(list.data.detail)
          : null;
  return (
    <Card
      size="small"
      title={t('backupPage.ftp.remoteTitle')}
      extra={
        <Button size="small" loading={list.isFetching} onClick={() => void list.refetch()}>
          {t('backupPage.ftp.listRemote')}
        </Button>
      }
    >
      {error && !list.isFetching && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Table<Entry>
        rowKey="name"
        size="small"
        pagination={false}
        scroll={{ y: 240 }}
        locale={{
          emptyText: (
            <Empty description={list.data ? t('backupPage.ftp.remoteEmpty') : t('backupPage.ftp.remoteNotRead')} />
          ),
        }}
        dataSource={list.isError ? [] : (list.data?.data ?? []).filter((e) => !e.directory)}
        columns={[
          { title: t('backupPage.filename'), dataIndex: 'name', render: (v: string) => <span data-raw-ok>{v}</span> },
          { title: t('backupPage.size'), dataIndex: 'size', render: (v: number) => formatSize(v) },
          { title: t('backupPage.time'), dataIndex: 'time', render: (v: string) => <span data-raw-ok>{v}</span> },
        ]}
      />
    </Card>
  );
};

/** Copy one package now, and the latest copies with their results. */
const SyncCard = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const reason = useReason();
  const packages = useQuery(backupListQuery);
  const records = useQuery(ftpRecordsQuery);
  const [filename, setFilename] = useState<string | undefined>();
  const sync = useMutation({
    mutationFn: (name: string) => api.call(f.sync, { body: { filename: name } }),
    onSuccess: (done) => {
      if (done.ok) void message.success(t('backupPage.ftp.synced'));
      else void message.error(t('backupPage.ftp.syncFailed'));
      void client.invalidateQueries({ queryKey: ftpKeys.records });
    },
  });
  return (
    <Card size="small" title={t('backupPage.ftp.recordsTitle')}>
      <Flex vertical gap={12}>
        <Space wrap>
          <Select
            style={{ width: 320 }}
            placeholder={t('backupPage.ftp.choosePackage')}
            aria-label={t('backupPage.ftp.choosePackage')}
            value={filename}
            onChange={setFilename}
            options={(packages.data?.data ?? []).map((p) => ({
              value: p.filename,
              label: <span data-raw-ok>{p.filename}</span>,
            }))}
          />
          <Button
            type="primary"
            disabled={!filename}
            loading={sync.isPending}
            onClick={() => filename && sync.mutate(filename)}
          >
            {t('backupPage.ftp.syncNow')}
          </Button>
        </Space>
        <Table<FtpRecord>
          rowKey={(r) => `${r.time}-${r.filename}-${r.ok}`}
          size="small"
          loading={records.isLoading}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          dataSource={records.data?.data ?? []}
          columns={[
            { title: t('backupPage.time'), dataIndex: 'time', width: 180, render: (v: number) => formatTime(v) },
            {
              title: t('backupPage.filename'),
              dataIndex: 'filename',
              render: (v: string) => <span data-raw-ok>{v}</span>,
            },
            {
              title: t('backupPage.ftp.result'),
              dataIndex: 'ok',
              width: 100,
              render: (ok: boolean) =>
                ok ? (
                  <Tag color="success">{t('backupPage.ftp.copied')}</Tag>
                ) : (
                  <Tag color="error">{t('backupPage.ftp.failed')}</Tag>
                ),
            },
            { title: t('backupPage.ftp.reason'), dataIndex: 'detail', render: (v: string) => (v ? reason(v) : '') },
          ]}
        />
      </Flex>
    </Card>
  );
};

/** Tab 3 of /setting_backup: the FTP (FTPS) server packages are copied to (docs/maintenance.md "FTP sync"). */
export const FtpTab = () => (
  <Flex vertical gap={12}>
    <ServerCard />
    <RemoteCard />
    <SyncCard />
  </Flex>
);
