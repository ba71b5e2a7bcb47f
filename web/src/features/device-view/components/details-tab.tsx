import { formatValue } from '@sitewatch/contract';
import type { LiveItem } from '@sitewatch/contract/monitoring';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Form, InputNumber, Modal, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stateOf, valueColor } from '../../../components/states.ts';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { deviceItemsQuery, writeItem } from '../api.ts';

/** Writes a setpoint through the device's driver (PUT device_groups/device/item; /station control). */
const SetpointDialog = ({ item, onClose }: { item: LiveItem | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ value: number }>();
  const write = useMutation({
    mutationFn: (value: number) => writeItem({ item_id: item!.id, value }),
    onSuccess: () => {
      void message.success(t('deviceUi.details.writeDone'));
      void client.invalidateQueries({ queryKey: ['monitoring', 'device'] });
      onClose();
    },
    onError: (err: Error) => void message.error(err.message),
  });
  return (
    <Modal
      open={Boolean(item)}
      title={item ? t('deviceUi.details.writeTitle', { name: item.name }) : ''}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={write.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ value: item?.value ?? undefined }}
        onFinish={(v) => write.mutate(v.value)}
      >
        <Form.Item
          name="value"
          label={`${t('deviceUi.details.writeValue')}${item?.unit ? ` (${item.unit})` : ''}`}
          rules={[{ required: true, message: t('deviceUi.details.writeValue') }]}
        >
          <InputNumber style={{ width: '100%' }} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** Details: every item of the device, live (refreshed every 5 s like /station), with setpoint writes. */
export const DetailsTab = ({ deviceId, writable }: { deviceId: number; writable: number[] }) => {
  const { t } = useTranslation();
  const items = useQuery(deviceItemsQuery(deviceId));
  const canControl = useCan('/station', 'control');
  const [writing, setWriting] = useState<LiveItem | null>(null);
  const writableSet = new Set(writable);
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">{t('deviceUi.details.refresh')}</Typography.Text>
      <Table<LiveItem>
        size="small"
        rowKey="id"
        loading={items.isLoading}
        dataSource={items.data ?? []}
        pagination={false}
        scroll={{ x: 760 }}
        data-testid="device-items"
        locale={{ emptyText: t('deviceUi.details.noItems') }}
        columns={[
          { title: t('deviceUi.details.item'), dataIndex: 'name', ellipsis: true },
          {
            title: t('deviceUi.details.value'),
            width: 160,
            render: (_, item) => (
              <Typography.Text strong style={{ color: valueColor(item.state, item.alarm_color) }}>
                {formatValue(item.value, item)}
              </Typography.Text>
            ),
          },
          {
            title: t('deviceUi.details.state'),
            width: 110,
            render: (_, item) => {
              const state = stateOf(item.state);
              return (
                <Tag color={state.color} title={item.info || undefined}>
                  {t(state.key)}
                </Tag>
              );
            },
          },
          {
            title: t('deviceUi.details.alarm'),
            width: 80,
            render: (_, item) =>
              item.alarm ? (
                <span
                  role="img"
                  aria-label={t('deviceUi.details.alarm')}
                  style={{
                    display: 'inline-block',
                    width: 12,
                    height: 12,
                    borderRadius: 6,
                    background: item.alarm_color || '#f5222d',
                  }}
                />
              ) : null,
          },
          {
            title: t('deviceUi.details.lastUpdate'),
            width: 170,
            render: (_, item) => formatTime(item.last_check),
          },
          ...(canControl
            ? [
                {
                  title: t('deviceUi.details.actions'),
                  width: 90,
                  render: (_: unknown, item: LiveItem) =>
                    writableSet.has(item.id) ? (
                      <Button size="small" onClick={() => setWriting(item)}>
                        {t('deviceUi.details.write')}
                      </Button>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      <SetpointDialog item={writing} onClose={() => setWriting(null)} />
    </Flex>
  );
};
