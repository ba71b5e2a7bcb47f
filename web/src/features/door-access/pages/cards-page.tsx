import { type CardRow, cardFormats } from '@sitewatch/contract/door-access';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { cardsQuery, devicesQuery, useCreateCard, useRemoveCard, useUpdateCard } from '../api.ts';

interface Draft {
  holder: string;
  job_number: string;
  department: string;
  number: number;
  format: (typeof cardFormats)[number];
  device_group_id: number;
  valid_from: string;
  valid_to: string;
  doors: number[];
  pin?: number | null;
}

/** The card dialog: a new card, or `editing` changed (its PIN kept unless a new one is typed). */
const CardDialog = ({ editing, onClose }: { editing: CardRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Draft>();
  const create = useCreateCard();
  const update = useUpdateCard();
  const devices = useQuery(devicesQuery);
  const site = Form.useWatch('device_group_id', form);
  const { message } = App.useApp();
  const doorOptions = (devices.data?.list ?? [])
    .filter((c) => c.device_group_id === site)
    .flatMap((c) =>
      c.doors.map((d) => ({ value: d.id, label: `${c.name} · ${d.nickname || t('doorPage.doorN', { n: d.number })}` })),
    );
  const submit = async () => {
    const { pin, ...v } = await form.validateFields();
    // A permission's time profile is kept for the doors the card already had.
    const profiles = new Map((editing?.doors ?? []).map((d) => [d.door_id, d.profile]));
    const body = {
      ...v,
      ...(typeof pin === 'number' ? { pin } : {}),
      doors: (v.doors ?? []).map((door_id) => ({ door_id, profile: profiles.get(door_id) ?? 0 })),
    };
    if (editing) await update.mutateAsync({ id: editing.id, body });
    else await create.mutateAsync(body);
    message.success(t('doorPage.saved'));
    onClose();
  };
  const year = new Date().getFullYear();
  return (
    <Modal
      open
      title={editing ? t('doorPage.editCard') : t('doorPage.addCard')}
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
                holder: editing.holder,
                job_number: editing.job_number,
                department: editing.department,
                number: editing.number,
                format: editing.format,
                device_group_id: editing.device_group_id,
                valid_from: editing.valid_from,
                valid_to: editing.valid_to,
                doors: editing.doors.map((d) => d.door_id),
              }
            : { format: 'wiegand26', valid_from: `${year}-01-01`, valid_to: `${year}-12-31`, doors: [] }
        }
      >
        <Form.Item
          name="holder"
          label={t('doorPage.holder')}
          rules={[{ required: true, message: t('doorPage.nameRequired') }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="job_number" label={t('doorPage.jobNumber')}>
          <Input />
        </Form.Item>
        <Form.Item name="department" label={t('doorPage.department')}>
          <Input />
        </Form.Item>
        <Form.Item
          name="number"
          label={t('doorPage.cardNumber')}
          rules={[{ required: true, message: t('doorPage.cardRequired') }]}
        >
          <InputNumber min={1} max={4294967294} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="format" label={t('doorPage.format')}>
          <Select options={cardFormats.map((f) => ({ value: f, label: t(`doorPage.formats.${f}`) }))} />
        </Form.Item>
        <Form.Item
          name="device_group_id"
          label={t('doorPage.site')}
          rules={[{ required: true, message: t('doorPage.siteRequired') }]}
        >
          <SiteSelect />
        </Form.Item>
        <Form.Item name="valid_from" label={t('doorPage.validFrom')}>
          <Input placeholder="YYYY-MM-DD" />
        </Form.Item>
        <Form.Item name="valid_to" label={t('doorPage.validTo')}>
          <Input placeholder="YYYY-MM-DD" />
        </Form.Item>
        <Form.Item name="pin" label={t('doorPage.pin')}>
          <InputNumber
            min={0}
            max={999999}
            style={{ width: '100%' }}
            placeholder={editing?.has_pin ? t('doorPage.pinKept') : t('doorPage.pinNone')}
          />
        </Form.Item>
        <Form.Item name="doors" label={t('doorPage.permissions')}>
          <Select mode="multiple" options={doorOptions} />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** /door_cards (002 §2.1): cards with their holder, format (shown both ways) and permitted doors. */
export const DoorCardsPage = () => {
  const { t } = useTranslation();
  const cards = useQuery(cardsQuery);
  const devices = useQuery(devicesQuery);
  const remove = useRemoveCard();
  const [dialog, setDialog] = useState<{ editing: CardRow | null } | null>(null);
  const canEdit = useCan('/door_cards', 'edit');
  const canAdd = useCan('/door_cards', 'add');
  const canDelete = useCan('/door_cards', 'delete');
  const doorName = new Map(
    (devices.data?.list ?? []).flatMap((c) =>
      c.doors.map((d) => [d.id, `${c.name} · ${d.nickname || t('doorPage.doorN', { n: d.number })}`]),
    ),
  );
  return (
    <Card
      title={t('doorPage.cardsTitle')}
      extra={
        canAdd && (
          <Button type="primary" onClick={() => setDialog({ editing: null })}>
            {t('doorPage.addCard')}
          </Button>
        )
      }
    >
      <Table<CardRow>
        rowKey="id"
        loading={cards.isLoading}
        dataSource={cards.data?.list ?? []}
        pagination={false}
        columns={[
          { title: t('doorPage.holder'), dataIndex: 'holder' },
          { title: t('doorPage.jobNumber'), dataIndex: 'job_number' },
          { title: t('doorPage.department'), dataIndex: 'department' },
          {
            title: t('doorPage.cardNumber'),
            render: (_, c) => (c.format === 'plain' ? c.display : `${c.display} (${c.number})`),
          },
          { title: t('doorPage.format'), render: (_, c) => t(`doorPage.formats.${c.format}`) },
          { title: t('doorPage.validity'), render: (_, c) => `${c.valid_from} ~ ${c.valid_to}` },
          {
            title: t('doorPage.permissions'),
            render: (_, c) => c.doors.map((d) => <Tag key={d.door_id}>{doorName.get(d.door_id) ?? d.door_id}</Tag>),
          },
          {
            title: t('doorPage.actions'),
            render: (_, c) => (
              <Space>
                {canEdit && (
                  <Button size="small" onClick={() => setDialog({ editing: c })}>
                    {t('doorPage.edit')}
                  </Button>
                )}
                {canDelete && (
                  <Popconfirm title={t('doorPage.withdrawConfirm')} onConfirm={() => remove.mutateAsync(c.id)}>
                    <Button size="small" danger>
                      {t('doorPage.withdraw')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {dialog && <CardDialog editing={dialog.editing} onClose={() => setDialog(null)} />}
    </Card>
  );
};
