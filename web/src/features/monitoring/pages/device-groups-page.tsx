import { type SiteRow, siteInput } from '@sitewatch/contract/monitoring';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SiteSelect, sitesQuery } from '../../../components/site-select.tsx';
import { monitoringApi } from '../api.ts';
import { validateWith } from '../form-errors.ts';

type SiteNode = SiteRow & { key: number; children?: SiteNode[] };

const useInvalidate = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['monitoring'] });
};

const SiteForm = ({ site, onClose }: { site: SiteRow | 'new' | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const invalidate = useInvalidate();
  const save = useMutation({
    mutationFn: (body: Parameters<typeof monitoringApi.createSite>[0]) =>
      site && site !== 'new' ? monitoringApi.updateSite(site.id, body) : monitoringApi.createSite(body),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void invalidate();
      onClose();
    },
  });
  const initial =
    site && site !== 'new'
      ? site
      : {
          name: '',
          parent_id: 0,
          weight: 1,
          has_device: true,
          longitude: null,
          latitude: null,
          background: '',
          scene: '',
        };
  return (
    <Modal
      open={site !== null}
      title={site === 'new' ? t('monitoringUi.sites.add') : t('monitoringUi.sites.edit')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="site"
        initialValues={initial}
        preserve={false}
        onFinish={(values) => {
          const body = validateWith(
            siteInput,
            { ...values, parent_id: values.parent_id ?? 0, extend: site && site !== 'new' ? site.extend : '' },
            form,
            (k) => t(k as never),
          );
          if (body) save.mutate(body);
        }}
      >
        <Form.Item name="name" label={t('monitoringUi.sites.name')} required>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="parent_id" label={t('monitoringUi.sites.parent')}>
          <SiteSelect allowClear exclude={site && site !== 'new' ? site.id : undefined} />
        </Form.Item>
        <Form.Item name="weight" label={t('monitoringUi.sites.weight')} required>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="has_device" label={t('monitoringUi.sites.hasDevice')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Space>
          <Form.Item name="longitude" label={t('monitoringUi.sites.longitude')}>
            <InputNumber min={0} max={180} step={0.000001} />
          </Form.Item>
          <Form.Item name="latitude" label={t('monitoringUi.sites.latitude')}>
            <InputNumber min={0} max={90} step={0.000001} />
          </Form.Item>
        </Space>
        <Form.Item name="background" label={t('monitoringUi.sites.background')}>
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="scene" label={t('monitoringUi.sites.scene')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
};

const CopyDialog = ({ site, onClose }: { site: SiteRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const [count, setCount] = useState(1);
  const [withDevices, setWithDevices] = useState(true);
  const copy = useMutation({
    mutationFn: () => monitoringApi.copySite(site!.id, { count, with_devices: withDevices }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void invalidate();
      onClose();
    },
  });
  return (
    <Modal
      open={site !== null}
      title={t('monitoringUi.sites.copy')}
      onCancel={onClose}
      onOk={() => copy.mutate()}
      confirmLoading={copy.isPending}
    >
      <Flex vertical gap={12}>
        <Typography.Text>{site?.name}</Typography.Text>
        <Space>
          {t('monitoringUi.common.copies')}
          <InputNumber
            aria-label={t('monitoringUi.common.copies')}
            min={1}
            max={50}
            value={count}
            onChange={(v) => setCount(v ?? 1)}
          />
        </Space>
        <Space>
          {t('monitoringUi.sites.withDevices')}
          <Switch checked={withDevices} onChange={setWithDevices} />
        </Space>
      </Flex>
    </Modal>
  );
};

/** /setting_device_groups: the site tree with add, edit, copy, batch copy and delete. */
export const DeviceGroupsPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const sites = useQuery(sitesQuery);
  const invalidate = useInvalidate();
  const [editing, setEditing] = useState<SiteRow | 'new' | null>(null);
  const [copying, setCopying] = useState<SiteRow | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => monitoringApi.deleteSite(id),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void invalidate();
    },
  });
  const tree = useMemo(() => {
    const rows = sites.data?.data ?? [];
    const nodes = new Map<number, SiteNode>(rows.map((s) => [s.id, { ...s, key: s.id }]));
    const roots: SiteNode[] = [];
    for (const node of nodes.values()) {
      const parent = nodes.get(node.parent_id);
      if (parent) parent.children = [...(parent.children ?? []), node];
      else roots.push(node);
    }
    return roots;
  }, [sites.data]);
  return (
    <Card
      title={t('monitoringUi.sites.title')}
      extra={
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('monitoringUi.sites.add')}
        </Button>
      }
    >
      <Table<SiteNode>
        rowKey="id"
        loading={sites.isLoading}
        dataSource={tree}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        columns={[
          { title: t('monitoringUi.sites.name'), dataIndex: 'name' },
          { title: t('monitoringUi.sites.weight'), dataIndex: 'weight', width: 100 },
          {
            title: t('monitoringUi.sites.hasDevice'),
            dataIndex: 'has_device',
            width: 120,
            render: (v: boolean) => (v ? t('monitoringUi.common.yes') : t('monitoringUi.common.no')),
          },
          {
            title: t('monitoringUi.sites.deviceCount'),
            width: 110,
            render: (_, s) => s.devices.length,
          },
          {
            title: t('monitoringUi.sites.coordinates'),
            width: 200,
            render: (_, s) => (s.longitude !== null && s.latitude !== null ? `${s.longitude}, ${s.latitude}` : '—'),
          },
          {
            title: t('monitoringUi.common.actions'),
            width: 220,
            render: (_, s) => (
              <Space>
                <Button size="small" onClick={() => setEditing(s)}>
                  {t('monitoringUi.common.edit')}
                </Button>
                <Button size="small" onClick={() => setCopying(s)}>
                  {t('monitoringUi.common.copy')}
                </Button>
                <Popconfirm title={t('monitoringUi.common.confirmDelete')} onConfirm={() => remove.mutate(s.id)}>
                  <Button size="small" danger>
                    {t('monitoringUi.common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <SiteForm site={editing} onClose={() => setEditing(null)} />
      <CopyDialog site={copying} onClose={() => setCopying(null)} />
    </Card>
  );
};
