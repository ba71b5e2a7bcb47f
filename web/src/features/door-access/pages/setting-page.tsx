import type { DoorOptions } from '@sitewatch/contract/door-access';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, InputNumber, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { optionsQuery, useSetOptions } from '../api.ts';

/**
 * /door_setting (002 §2.1; docs/door-access.md, "Options"): what the server uses: the log sync
 * interval, the held-open threshold, and (shown, set at start) the event listener.
 */
export const DoorSettingPage = () => {
  const { t } = useTranslation();
  const options = useQuery(optionsQuery);
  const save = useSetOptions();
  const canEdit = useCan('/door_setting', 'edit');
  const { message } = App.useApp();
  const [form] = Form.useForm<DoorOptions>();
  useEffect(() => {
    if (options.data)
      form.setFieldsValue({
        sync_seconds: options.data.sync_seconds,
        held_open_seconds: options.data.held_open_seconds,
      });
  }, [options.data, form]);
  const submit = async (values: DoorOptions) => {
    try {
      await save.mutateAsync(values);
      message.success(t('doorPage.saved'));
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : String(err));
    }
  };
  const listener = options.data?.listener ?? '';
  return (
    <Card title={t('doorPage.settingTitle')} loading={options.isLoading}>
      <Form form={form} layout="vertical" style={{ maxWidth: 560 }} onFinish={submit} disabled={!canEdit}>
        <Form.Item
          name="sync_seconds"
          label={t('doorPage.syncSeconds')}
          extra={t('doorPage.syncSecondsHelp')}
          rules={[{ required: true }]}
        >
          <InputNumber min={0} max={86_400} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item
          name="held_open_seconds"
          label={t('doorPage.heldOpenSeconds')}
          extra={t('doorPage.heldOpenHelp')}
          rules={[{ required: true }]}
        >
          <InputNumber min={0} max={86_400} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item label={t('doorPage.listener')}>
          <Typography.Text>
            {listener ? t('doorPage.listenerOn', { at: listener }) : t('doorPage.listenerOff')}
          </Typography.Text>
        </Form.Item>
        {canEdit && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('doorPage.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
};
