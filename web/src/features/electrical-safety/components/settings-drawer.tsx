import { authRoutes } from '@sitewatch/contract/auth';
import { electricalSafetyRoutes as r, type SafetyLimits } from '@sitewatch/contract/electrical-safety';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { electricalKeys, settingsQuery } from '../api.ts';

type Values = { control_enabled: boolean; limits: SafetyLimits; new_password?: string; old_password?: string };

const limitFields: Array<{ key: keyof SafetyLimits; min: number; max: number; step: number; unit: string }> = [
  { key: 'voltage_unbalance_max', min: 0.1, max: 100, step: 0.1, unit: '%' },
  { key: 'current_unbalance_max', min: 0.1, max: 100, step: 0.1, unit: '%' },
  { key: 'thd_u_max', min: 0.1, max: 100, step: 0.1, unit: '%' },
  { key: 'thd_i_max', min: 0.1, max: 100, step: 0.1, unit: '%' },
  { key: 'pf_min', min: 0, max: 1, step: 0.01, unit: '' },
  { key: 'frequency_band', min: 0.01, max: 5, step: 0.01, unit: 'Hz' },
  { key: 'voltage_nominal', min: 1, max: 100_000, step: 1, unit: 'V' },
  { key: 'voltage_deviation_max', min: 0.1, max: 100, step: 0.1, unit: '%' },
];

/**
 * setting/power_safety_settings: whether switches may be operated, the switch-operation
 * verification password (replacing it needs the current one) and the limits the quality figures
 * are judged by. The password is never read back, only whether one is set.
 */
export const SettingsDrawer = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const settings = useQuery(settingsQuery);
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (open && settings.data)
      form.setFieldsValue({ control_enabled: settings.data.control_enabled, limits: settings.data.limits });
  }, [open, settings.data, form]);
  const save = useMutation({
    mutationFn: async (v: Values) => {
      const { public_key } = await api.call(authRoutes.loginParams);
      const enc = (p?: string) => (p ? encryptForServer(public_key, p) : Promise.resolve(undefined));
      const [new_password, old_password] = await Promise.all([enc(v.new_password), enc(v.old_password)]);
      return api.call(r.saveSettings, {
        body: {
          control_enabled: v.control_enabled,
          limits: v.limits,
          ...(new_password ? { new_password } : {}),
          ...(old_password ? { old_password } : {}),
        },
      });
    },
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      form.resetFields(['new_password', 'old_password']);
      void client.invalidateQueries({ queryKey: electricalKeys.all });
      onClose();
    },
  });
  const passwordSet = settings.data?.password_set ?? false;
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('electricalUi.settings.title')}
      width={440}
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
          {t('common.save')}
        </Button>
      }
    >
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item name="control_enabled" label={t('electricalUi.settings.controlEnabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Typography.Paragraph type="secondary">
          {passwordSet ? t('electricalUi.settings.passwordIsSet') : t('electricalUi.settings.passwordNotSet')}
        </Typography.Paragraph>
        {passwordSet && (
          <Form.Item name="old_password" label={t('electricalUi.settings.oldPassword')}>
            <Input.Password autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item
          name="new_password"
          label={t('electricalUi.settings.newPassword')}
          rules={[{ min: 6, message: t('electricalUi.settings.passwordMin') }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Typography.Title level={5}>{t('electricalUi.settings.limits')}</Typography.Title>
        {limitFields.map((f) => (
          <Form.Item
            key={f.key}
            name={['limits', f.key]}
            label={t(`electricalUi.limits.${f.key}`)}
            rules={[{ required: true }]}
          >
            <InputNumber
              min={f.min}
              max={f.max}
              step={f.step}
              addonAfter={f.unit || undefined}
              style={{ width: '100%' }}
            />
          </Form.Item>
        ))}
        <Form.Item name={['limits', 'frequency_nominal']} label={t('electricalUi.limits.frequency_nominal')}>
          <Select options={[50, 60].map((v) => ({ value: v, label: `${v} Hz` }))} />
        </Form.Item>
      </Form>
    </Drawer>
  );
};
