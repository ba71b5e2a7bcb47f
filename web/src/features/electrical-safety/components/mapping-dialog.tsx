import {
  type MeterMapping,
  type MeterRole,
  meterRoles,
  electricalSafetyRoutes as r,
} from '@sitewatch/contract/electrical-safety';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { electricalKeys } from '../api.ts';
import { roleKey } from './labels.ts';

type Values = { points: Partial<Record<MeterRole, number | null>>; switches: Array<{ item_id: number; name: string }> };

/**
 * Which item of a device is which phase voltage, current, power, PF, THD or frequency, and which
 * items are switches. Without a stored mapping the server reads the cell names; "Read from cell
 * names" forgets the stored one.
 */
export const MappingDialog = ({ meter, onClose }: { meter: MeterMapping | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (meter)
      form.setFieldsValue({
        points: Object.fromEntries(meterRoles.map((role) => [role, meter.points[role] ?? null])),
        switches: meter.switches,
      });
  }, [meter, form]);
  const done = () => {
    void message.success(t('common.operationSuccess'));
    void client.invalidateQueries({ queryKey: electricalKeys.all });
    onClose();
  };
  const save = useMutation({
    mutationFn: (v: Values) =>
      api.call(r.setMeter, {
        params: { id: meter!.device_id },
        body: {
          points: Object.fromEntries(meterRoles.map((role) => [role, v.points[role] ?? null])),
          switches: (v.switches ?? []).filter((s) => s?.item_id),
        },
      }),
    onSuccess: done,
  });
  const reset = useMutation({
    mutationFn: () => api.call(r.resetMeter, { params: { id: meter!.device_id } }),
    onSuccess: done,
  });
  const options = (meter?.items ?? []).map((i) => ({
    value: i.id,
    label: `${i.name} (${i.item_cell_name}${i.unit ? `, ${i.unit}` : ''})`,
  }));
  return (
    <Modal
      open={meter !== null}
      title={t('electricalUi.mapping.title', { device: meter?.device_name ?? '' })}
      width={720}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="reset" loading={reset.isPending} onClick={() => reset.mutate()}>
          {t('electricalUi.mapping.reset')}
        </Button>,
        <Button key="cancel" onClick={onClose}>
          {t('electricalUi.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={save.isPending} onClick={() => form.submit()}>
          {t('common.save')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">
        {meter?.source === 'auto' ? t('electricalUi.mapping.auto') : t('electricalUi.mapping.stored')}
      </Typography.Paragraph>
      <Form form={form} layout="horizontal" labelCol={{ span: 9 }} onFinish={(v) => save.mutate(v)}>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 }}>
          {meterRoles.map((role) => (
            <Form.Item key={role} name={['points', role]} label={t(roleKey(role))} style={{ marginBottom: 8 }}>
              <Select allowClear options={options} aria-label={t(roleKey(role))} popupMatchSelectWidth={false} />
            </Form.Item>
          ))}
        </div>
        <Typography.Title level={5}>{t('electricalUi.switches')}</Typography.Title>
        <Form.List name="switches">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline">
                  <Form.Item name={[field.name, 'item_id']} rules={[{ required: true }]} style={{ marginBottom: 8 }}>
                    <Select options={options} style={{ width: 260 }} aria-label={t('electricalUi.switch')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'name']} style={{ marginBottom: 8 }}>
                    <Input maxLength={50} placeholder={t('electricalUi.mapping.switchName')} />
                  </Form.Item>
                  <Button type="link" danger onClick={() => remove(field.name)}>
                    {t('common.delete')}
                  </Button>
                </Space>
              ))}
              <Button onClick={() => add({ name: '' })}>{t('electricalUi.mapping.addSwitch')}</Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
};
