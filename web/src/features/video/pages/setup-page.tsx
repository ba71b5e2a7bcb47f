import { videoRoutes as r, type VideoDevice, type VideoDeviceInput } from '@sitewatch/contract/video';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { StateTag, videoDevicesQuery } from '../components/state-tag.tsx';

const brands = ['hikvision', 'dahua', 'uniview', 'tiandy', 'axis', 'onvif', 'other'] as const;

/**
 * /setting_video_mange (002 §2.1): recorders and cameras of the granted sites, their channels and
 * stream addresses, the connection test. The password is never shown; empty on an edit keeps it.
 */
export const VideoSetupPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const can = { add: useCan('/setting_video_mange', 'add'), edit: useCan('/setting_video_mange', 'edit') };
  const canDelete = useCan('/setting_video_mange', 'delete');
  const list = useQuery(videoDevicesQuery);
  const [editing, setEditing] = useState<VideoDevice | 'new' | null>(null);
  const [form] = Form.useForm<VideoDeviceInput>();
  const refresh = () => void client.invalidateQueries({ queryKey: videoDevicesQuery.queryKey });
  const save = useMutation({
    mutationFn: (v: VideoDeviceInput) =>
      editing && editing !== 'new'
        ? api.call(r.update, { body: { ...v, id: editing.id } })
        : api.call(r.create, { body: v }),
    onSuccess: () => {
      setEditing(null);
      refresh();
      void message.success(t('videoUi.saved'));
    },
    onError: (err) => void message.error(err.message),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.call(r.remove, { params: { id } }),
    onSuccess: () => {
      refresh();
      void message.success(t('common.operationSuccess'));
    },
    onError: (err) => void message.error(err.message),
  });
  const test = useMutation({
    mutationFn: (id: number) => api.call(r.test, { params: { id } }),
    onSuccess: (p) => {
      refresh();
      if (p.ok) void message.success(t('videoUi.testOk', { codec: p.video_codec, size: `${p.width}×${p.height}` }));
      else void message.error(t('videoUi.testFailed', { reason: p.reason }));
    },
    onError: (err) => void message.error(err.message),
  });
  // The contract's rule, said at the field before anything is sent.
  const streamRule = {
    validator: async (_: unknown, v?: string) => {
      if (v && !/^rtsps?:\/\/[^\s/?#]+/i.test(v.trim())) throw new Error(t('videoUi.streamFormat'));
    },
  };
  const open = (row: VideoDevice | 'new') => {
    form.resetFields();
    form.setFieldsValue(
      row === 'new'
        ? {
            type: 2,
            brand: 'hikvision',
            protocol: 'rtsp',
            port: 554,
            enable: true,
            channels: [{ channel_no: 1, name: '', main_stream: '', sub_stream: '' }],
          }
        : {
            name: row.name,
            brand: row.brand,
            type: row.type === 1 ? 1 : 2,
            ip_address: row.ip_address,
            port: row.port,
            user: row.user,
            device_group: row.device_group,
            enable: row.enable,
            password: '',
            channels: row.channels.map((c) => ({
              channel_no: c.ChannelNo,
              name: c.Name,
              main_stream: c.main_stream,
              sub_stream: c.sub_stream,
            })),
          },
    );
    setEditing(row);
  };
  return (
    <Card
      title={t('videoUi.setupTitle')}
      size="small"
      extra={
        can.add && (
          <Button type="primary" onClick={() => open('new')}>
            {t('common.add')}
          </Button>
        )
      }
    >
      <Table<VideoDevice>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { title: t('videoUi.name'), dataIndex: 'name' },
          { title: t('videoUi.site'), dataIndex: 'device_group_name' },
          { title: t('videoUi.type'), render: (_, d) => t(`videoUi.types.${d.type === 1 ? 'nvr' : 'camera'}`) },
          { title: t('videoUi.brand'), render: (_, d) => t(`videoUi.brands.${d.brand}`, { defaultValue: d.brand }) },
          { title: t('videoUi.address'), render: (_, d) => `${d.ip_address}:${d.port}` },
          { title: t('videoUi.channels'), render: (_, d) => d.channels.length },
          { title: t('videoUi.codec'), render: (_, d) => d.video_codec.toUpperCase() || '—' },
          { title: t('videoUi.state'), render: (_, d) => <StateTag device={d} /> },
          {
            title: t('common.actions'),
            width: 220,
            render: (_, d) => (
              <Space>
                {can.edit && (
                  <Button
                    size="small"
                    loading={test.isPending && test.variables === d.id}
                    onClick={() => test.mutate(d.id)}
                  >
                    {t('videoUi.test')}
                  </Button>
                )}
                {can.edit && (
                  <Button size="small" onClick={() => open(d)}>
                    {t('common.edit')}
                  </Button>
                )}
                {canDelete && (
                  <Popconfirm title={t('common.deleteConfirm')} onConfirm={() => remove.mutate(d.id)}>
                    <Button size="small" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t(editing === 'new' ? 'videoUi.addTitle' : 'videoUi.editTitle')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        confirmLoading={save.isPending}
        width={760}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Space wrap align="start">
            <Form.Item
              name="name"
              label={t('videoUi.name')}
              rules={[{ required: true, message: t('videoUi.nameRequired') }]}
            >
              <Input style={{ width: 220 }} maxLength={64} />
            </Form.Item>
            <Form.Item
              name="device_group"
              label={t('videoUi.site')}
              rules={[{ required: true, message: t('videoUi.siteRequired') }]}
            >
              <SiteSelect />
            </Form.Item>
            <Form.Item name="type" label={t('videoUi.type')}>
              <Select
                style={{ width: 160 }}
                options={[
                  { value: 1, label: t('videoUi.types.nvr') },
                  { value: 2, label: t('videoUi.types.camera') },
                ]}
              />
            </Form.Item>
            <Form.Item name="brand" label={t('videoUi.brand')}>
              <Select
                style={{ width: 140 }}
                options={brands.map((b) => ({ value: b, label: t(`videoUi.brands.${b}`) }))}
              />
            </Form.Item>
          </Space>
          <Space wrap align="start">
            <Form.Item
              name="ip_address"
              label={t('videoUi.ip')}
              rules={[{ required: true, message: t('videoUi.ipRequired') }]}
            >
              <Input style={{ width: 200 }} />
            </Form.Item>
            <Form.Item
              name="port"
              label={t('videoUi.port')}
              rules={[{ required: true, message: t('videoUi.portRequired') }]}
            >
              <InputNumber min={1} max={65535} precision={0} style={{ width: 110 }} />
            </Form.Item>
            <Form.Item
              name="user"
              label={t('videoUi.user')}
              rules={[{ required: true, message: t('videoUi.userRequired') }]}
            >
              <Input style={{ width: 160 }} autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="password"
              label={
                <Tooltip title={editing !== 'new' ? t('videoUi.passwordKeep') : undefined}>
                  {t('videoUi.password')}
                </Tooltip>
              }
            >
              <Input.Password
                style={{ width: 160 }}
                autoComplete="new-password"
                placeholder={editing !== 'new' ? t('videoUi.passwordKeep') : ''}
              />
            </Form.Item>
          </Space>
          <Form.List name="channels">
            {(fields, { add, remove: drop }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="start" wrap>
                    <Form.Item name={[f.name, 'channel_no']} label={t('videoUi.channelNo')}>
                      <InputNumber min={1} max={512} precision={0} style={{ width: 80 }} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'name']} label={t('videoUi.channelName')}>
                      <Input style={{ width: 120 }} />
                    </Form.Item>
                    <Form.Item name={[f.name, 'main_stream']} label={t('videoUi.mainStream')} rules={[streamRule]}>
                      <Input style={{ width: 200 }} placeholder="rtsp://" />
                    </Form.Item>
                    <Form.Item name={[f.name, 'sub_stream']} label={t('videoUi.subStream')} rules={[streamRule]}>
                      <Input style={{ width: 200 }} placeholder="rtsp://" />
                    </Form.Item>
                    {fields.length > 1 && (
                      <Button style={{ marginTop: 30 }} onClick={() => drop(f.name)}>
                        {t('common.delete')}
                      </Button>
                    )}
                  </Space>
                ))}
                <Button
                  onClick={() => add({ channel_no: fields.length + 1, name: '', main_stream: '', sub_stream: '' })}
                >
                  {t('videoUi.addChannel')}
                </Button>
              </>
            )}
          </Form.List>
        </Form>
      </Modal>
      <Tag style={{ marginTop: 12 }}>{t('videoUi.codecPolicy')}</Tag>
    </Card>
  );
};
