import type { ControllerRow } from '@sitewatch/contract/door-access';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { devicesQuery, useCreateDevice, useRemoveDevice, useSync, useUpdateDevice } from '../api.ts';

interface Draft {
  name: string;
  device_group_id: number;
  brand: string;
  model: string;
  serial: number;
  address: string;
  port: number;
  doors: number;
}

/** The controller dialog: a new one, or `editing` changed (its doors' names and directions kept). */
const ControllerDialog = ({ editing, onClose }: { editing: ControllerRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Draft>();
  const create = useCreateDevice();
  const update = useUpdateDevice();
  const { message } = App.useApp();
  const submit = async () => {
    const v = await form.validateFields();
    const doors = Array.from({ length: v.doors }, (_, i) => {
      const held = editing?.doors.find((d) => d.number === i + 1);
      return {
        number: i + 1,
        nickname: held?.nickname ?? '',
        direction: (held?.direction ?? 'both') as 'in' | 'out' | 'both',
      };
    });
    const body = { ...v, protocol: 'wg-udp' as const, doors };
    if (editing) await update.mutateAsync({ id: editing.id, body });
    else await create.mutateAsync(body);
    message.success(t('doorPage.saved'));
    onClose();
  };
  return (
    <Modal
      open
      title={editing ? t('doorPage.editController') : t('doorPage.addController')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={create.isPending || update.isPending}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={
          editing
            ? {
                name: editing.name,
                device_group_id: editing.device_group_id,
                brand: editing.brand,
                model: editing.model,
                serial: editing.serial,
                address: editing.address,
                port: editing.port,
                doors: Math.max(1, editing.doors.length),
              }
            : { port: 60000, doors: 2, brand: 'UHPPOTE' }
        }
      >
        <Form.Item
          name="name"
          label={t('doorPage.name')}
          rules={[{ required: true, message: t('doorPage.nameRequired') }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="device_group_id"
          label={t('doorPage.site')}
          rules={[{ required: true, message: t('doorPage.siteRequired') }]}
        >
          <SiteSelect />
        </Form.Item>
        <Space>
          <Form.Item name="brand" label={t('doorPage.brand')}>
            <Input />
          </Form.Item>
          <Form.Item name="model" label={t('doorPage.model')}>
            <Input />
          </Form.Item>
        </Space>
        <Form.Item
          name="serial"
          label={t('doorPage.serial')}
          rules={[{ required: true, message: t('doorPage.serialRequired') }]}
        >
          <InputNumber min={1} max={4294967294} style={{ width: '100%' }} />
        </Form.Item>
        <Space>
          <Form.Item
            name="address"
            label={t('doorPage.address')}
            rules={[{ required: true, message: t('doorPage.addressRequired') }]}
          >
            <Input placeholder="192.168.1.100" />
          </Form.Item>
          <Form.Item name="port" label={t('doorPage.port')}>
            <InputNumber min={1} max={65535} />
          </Form.Item>
          <Form.Item name="doors" label={t('doorPage.doorCount')}>
            <InputNumber min={1} max={4} />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
};

/** /door_devices (002 §2.1): the controllers of the user's sites, their doors, state and sync. */
export const DoorDevicesPage = () => {
  const { t } = useTranslation();
  const devices = useQuery(devicesQuery);
  const [dialog, setDialog] = useState<{ editing: ControllerRow | null } | null>(null);
  const remove = useRemoveDevice();
  const sync = useSync();
  const { message } = App.useApp();
  const canAdd = useCan('/door_devices', 'add');
  const canEdit = useCan('/door_devices', 'edit');
  const canDelete = useCan('/door_devices', 'delete');
  return (
    <Card
      title={t('doorPage.devicesTitle')}
      extra={
        canAdd && (
          <Button type="primary" onClick={() => setDialog({ editing: null })}>
            {t('doorPage.addController')}
          </Button>
        )
      }
    >
      <Table<ControllerRow>
        rowKey="id"
        loading={devices.isLoading}
        dataSource={devices.data?.list ?? []}
        pagination={false}
        columns={[
          { title: t('doorPage.name'), dataIndex: 'name' },
          { title: t('doorPage.brand'), render: (_, c) => [c.brand, c.model].filter(Boolean).join(' ') },
          { title: t('doorPage.serial'), dataIndex: 'serial' },
          { title: t('doorPage.address'), render: (_, c) => `${c.address}:${c.port}` },
          {
            title: t('doorPage.doors'),
            render: (_, c) =>
              c.doors.map((d) => d.nickname || t('doorPage.doorN', { n: d.number })).join(t('doorPage.separator')),
          },
          {
            title: t('doorPage.state'),
            render: (_, c) => (
              <Tag color={c.online ? 'green' : 'default'}>
                {c.online ? t('doorPage.online') : t('doorPage.offline')}
              </Tag>
            ),
          },
          { title: t('doorPage.lastEvent'), dataIndex: 'last_event_index' },
          {
            title: t('doorPage.actions'),
            render: (_, c) => (
              <Space>
                {canEdit && (
                  <Button size="small" onClick={() => setDialog({ editing: c })}>
                    {t('doorPage.edit')}
                  </Button>
                )}
                {canEdit && (
                  <Button
                    size="small"
                    loading={sync.isPending && sync.variables === c.id}
                    onClick={async () => {
                      const r = await sync.mutateAsync(c.id);
                      message.info(
                        t('doorPage.synced', { events: r.events, gaps: r.gaps, cards: r.cards_put + r.cards_removed }),
                      );
                    }}
                  >
                    {t('doorPage.sync')}
                  </Button>
                )}
                {canDelete && (
                  <Popconfirm title={t('doorPage.removeConfirm')} onConfirm={() => remove.mutateAsync(c.id)}>
                    <Button size="small" danger>
                      {t('doorPage.remove')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {dialog && <ControllerDialog editing={dialog.editing} onClose={() => setDialog(null)} />}
    </Card>
  );
};
