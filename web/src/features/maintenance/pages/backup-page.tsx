import { routeUrl } from '@sitewatch/contract';
import { authRoutes } from '@sitewatch/contract/auth';
import {
  type AutoBackupSettings,
  type BackupPackage,
  backupUploadPath,
  maintenanceRoutes as r,
} from '@sitewatch/contract/maintenance';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Upload,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { signOutWithNotice } from '../../../api/tokens.ts';
import { downloadFile } from '../../../components/download.ts';
import { formatTime } from '../../../components/time.ts';
import { backupKeys, backupListQuery, backupScheduleQuery, formatSize } from '../api.ts';
import { FileText } from '../components/file-text.tsx';
import { FtpTab } from '../components/ftp-tab.tsx';
import { InstallKeyButtons } from '../components/install-key.tsx';

const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The restore of one package: the caller's verification password (002 §5.3), sent encrypted. */
const RestoreDialog = ({ pkg, onClose }: { pkg: BackupPackage | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ password: string }>();
  useEffect(() => {
    if (pkg) form.resetFields();
  }, [pkg, form]);
  const restore = useMutation({
    mutationFn: async (password: string) => {
      const { public_key } = await api.call(authRoutes.loginParams);
      return api.call(r.restore, {
        body: { filename: pkg!.filename, verify_password: await encryptForServer(public_key, password) },
      });
    },
    onSuccess: () => {
      // A configuration restore ended every session, this one too: the login page says it finished.
      if (pkg?.kind === 'config') return signOutWithNotice('restored');
      void message.success(t('backupPage.restored'));
      onClose();
      void client.invalidateQueries({ queryKey: backupKeys.all });
    },
  });
  return (
    <Modal
      open={pkg !== null}
      title={<FileText i18nKey="backupPage.restoreTitle" file={pkg?.filename ?? ''} />}
      onCancel={onClose}
      okText={t('backupPage.restore')}
      okButtonProps={{ danger: true, loading: restore.isPending }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Alert
          type="warning"
          showIcon
          message={pkg?.kind === 'history' ? t('backupPage.restoreHistoryWarning') : t('backupPage.restoreWarning')}
        />
        <Form form={form} layout="vertical" onFinish={(v) => restore.mutate(v.password)}>
          <Form.Item
            name="password"
            label={t('backupPage.verifyPassword')}
            rules={[{ required: true, message: t('users.verifyPasswordEmpty') }]}
          >
            <Input.Password autoComplete="current-password" aria-label={t('backupPage.verifyPassword')} />
          </Form.Item>
        </Form>
      </Flex>
    </Modal>
  );
};

/** The packages: made now, uploaded, downloaded, restored, deleted (002 §3 Backup package: filename, size). */
const FilesTab = ({ highlight }: { highlight: string | null }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const list = useQuery(backupListQuery);
  const [restoring, setRestoring] = useState<BackupPackage | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: backupKeys.all });
  const create = useMutation({
    mutationFn: (kind: 'config' | 'history') => api.call(r.create, { body: { kind } }),
    onSuccess: (made) => {
      void message.success(<FileText i18nKey="backupPage.made" file={made.filename} />);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (filename: string) => api.call(r.remove, { body: { filename } }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      refresh();
    },
  });
  const [uploading, setUploading] = useState(false);
  const upload = async (file: File) => {
    const form = new FormData();
    form.set('file', file);
    setUploading(true);
    try {
      const taken = (await api.send('POST', backupUploadPath, { body: form })) as BackupPackage;
      void message.success(<FileText i18nKey="backupPage.uploaded" file={taken.filename} />);
      refresh();
    } catch (err) {
      void message.error(err instanceof Error ? err.message : t('common.operationFailed'));
    } finally {
      setUploading(false);
    }
  };
  return (
    <Flex vertical gap={12}>
      <Space wrap>
        <Button
          type="primary"
          loading={create.isPending && create.variables === 'config'}
          onClick={() => create.mutate('config')}
        >
          {t('backupPage.backupConfig')}
        </Button>
        <Button loading={create.isPending && create.variables === 'history'} onClick={() => create.mutate('history')}>
          {t('backupPage.backupHistory')}
        </Button>
        <Upload
          accept=".tar"
          showUploadList={false}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
        >
          <Button loading={uploading}>{t('backupPage.upload')}</Button>
        </Upload>
        <InstallKeyButtons />
      </Space>
      <Table<BackupPackage>
        rowKey="filename"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.data ?? []}
        pagination={false}
        rowClassName={(p) => (p.filename === highlight ? 'ant-table-row-selected' : '')}
        columns={[
          {
            title: t('backupPage.filename'),
            dataIndex: 'filename',
            render: (v: string) => <span data-raw-ok>{v}</span>,
          },
          {
            title: t('backupPage.kind'),
            dataIndex: 'kind',
            render: (_v, p) => (
              <Space size={4}>
                {p.kind === 'config' ? t('backupPage.kindConfig') : t('backupPage.kindHistory')}
                {p.auto && <Tag>{t('backupPage.auto')}</Tag>}
              </Space>
            ),
          },
          { title: t('backupPage.size'), dataIndex: 'size', render: (v: number) => formatSize(v) },
          { title: t('backupPage.time'), dataIndex: 'time', render: (v: number) => formatTime(v) },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_v, p) => (
              <Space size={4}>
                <Button
                  type="link"
                  size="small"
                  onClick={() =>
                    void downloadFile(routeUrl(r.download), { filename: p.filename }, p.filename).catch((err) =>
                      message.error(err instanceof Error ? err.message : t('common.operationFailed')),
                    )
                  }
                >
                  {t('backupPage.download')}
                </Button>
                <Button type="link" size="small" danger onClick={() => setRestoring(p)}>
                  {t('backupPage.restore')}
                </Button>
                <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(p.filename)}>
                  <Button type="link" size="small" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <RestoreDialog pkg={restoring} onClose={() => setRestoring(null)} />
    </Flex>
  );
};

/** The automatic schedule (002 §5.3: date mode, days or date, run count, time, frequency). */
const ScheduleTab = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const schedule = useQuery(backupScheduleQuery);
  const [form] = Form.useForm<AutoBackupSettings>();
  const mode = Form.useWatch('date_mode', form);
  useEffect(() => {
    if (schedule.data) form.setFieldsValue(schedule.data);
  }, [schedule.data, form]);
  const save = useMutation({
    mutationFn: (body: AutoBackupSettings) => api.call(r.saveAutoSetting, { body }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: backupKeys.schedule });
    },
  });
  const number = (name: keyof AutoBackupSettings, min: number, max: number, label: string, required: string) => (
    <Form.Item name={name} label={label} rules={[{ required: true, message: required }]}>
      <InputNumber min={min} max={max} precision={0} style={{ width: 160 }} />
    </Form.Item>
  );
  return (
    <Card size="small" style={{ maxWidth: 640 }}>
      <Form
        form={form}
        name="backup_schedule"
        labelCol={{ span: 8 }}
        wrapperCol={{ span: 14 }}
        onFinish={(v) => save.mutate({ ...schedule.data!, ...v })}
      >
        <Form.Item name="enabled" label={t('backupPage.autoEnabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="date_mode"
          label={t('backupPage.dateMode')}
          rules={[{ required: true, message: t('maintenance.validation.dateMode') }]}
        >
          <Radio.Group
            options={[
              { value: 1, label: t('backupPage.everyDays') },
              { value: 2, label: t('backupPage.monthly') },
            ]}
          />
        </Form.Item>
        {mode === 2
          ? number('date', 1, 28, t('backupPage.date'), t('maintenance.validation.date'))
          : number('days', 1, 365, t('backupPage.days'), t('maintenance.validation.days'))}
        <Form.Item
          name="time"
          label={t('backupPage.time')}
          rules={[
            { required: true, message: t('maintenance.validation.time') },
            { pattern: hhmm, message: t('maintenance.validation.time') },
          ]}
        >
          <Input placeholder="02:00" style={{ width: 160 }} />
        </Form.Item>
        {number('run_count', 1, 24, t('backupPage.runCount'), t('maintenance.validation.runCount'))}
        {number('frequency', 1, 24, t('backupPage.frequency'), t('maintenance.validation.frequency'))}
        <Form.Item wrapperCol={{ offset: 8 }}>
          <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!schedule.data}>
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
      <Alert type="info" showIcon message={t('backupPage.keepsThree')} />
    </Card>
  );
};

/**
 * /setting_backup (000 §2.5, 002 §2.1): tab 1 the automatic schedule, tab 2 the packages, tab 3 the
 * FTP server packages are copied to. The
 * latest-backup notice opens it with `backupShow=true&tabActive=2`: the packages, the latest marked.
 */
export const BackupPage = () => {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tabActive');
  const active = tab === '2' || tab === '3' ? tab : '1';
  const latest = useQuery({ queryKey: backupKeys.latest, queryFn: () => api.call(r.latest) });
  const highlight = search.get('backupShow') === 'true' ? (latest.data?.file ?? null) : null;
  return (
    <Card title={t('backupPage.title')}>
      <Tabs
        activeKey={active}
        onChange={(key) =>
          setSearch((s) => {
            s.set('tabActive', key);
            return s;
          })
        }
        items={[
          { key: '1', label: t('backupPage.scheduleTab'), children: <ScheduleTab /> },
          { key: '2', label: t('backupPage.filesTab'), children: <FilesTab highlight={highlight} /> },
          { key: '3', label: t('backupPage.ftpTab'), children: <FtpTab /> },
        ]}
      />
    </Card>
  );
};
