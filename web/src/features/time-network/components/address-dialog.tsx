import { type NetworkInterface, networkIpInput } from '@sitewatch/contract/time-network';
import { Alert, Checkbox, Form, Input, Modal, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { contractRule, validValues } from '../../../components/form-rules.ts';
import { useSetIp } from '../api.ts';

interface Values {
  ip: string;
  mask: string;
  gateway: string;
  verify_password: string;
}

/**
 * Sets one interface's address, mask and gateway, checked with the contract's messages as it is
 * typed; the verification password (002 §5.3). When the interface carries the address the browser
 * reached the console at, the change runs on trial: a box to tick says it rolls back in 60 s unless kept.
 */
export const AddressDialog = ({
  target,
  consoleAddress,
  onClose,
}: {
  target: NetworkInterface | null;
  consoleAddress: string;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const setIp = useSetIp();
  const [trial, setTrial] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rule = [contractRule(networkIpInput, { toBody: (v) => ({ interface: target?.name ?? 'eth0', ...v }) })];
  const locksOut = target?.addresses.some((a) => a.ip === consoleAddress) ?? false;
  useEffect(() => {
    if (!target) return;
    const first = target.addresses[0];
    form.setFieldsValue({ ip: first?.ip ?? '', mask: first?.mask ?? '', gateway: target.gateway, verify_password: '' });
    setTrial(false);
    setError(null);
  }, [target, form]);
  const submit = async () => {
    const values = await validValues(form);
    if (!values || !target) return;
    setIp.mutate(
      {
        interface: target.name,
        ip: values.ip.trim(),
        mask: values.mask.trim(),
        gateway: (values.gateway ?? '').trim(),
        confirm_lockout: locksOut,
        password: values.verify_password,
      },
      {
        onSuccess: onClose,
        onError: (err) => setError(err instanceof ApiError ? err.message : t('common.operationFailed')),
      },
    );
  };
  return (
    <Modal
      open={target !== null}
      title={t('timeNetworkPage.editAddress', { name: target?.name ?? '' })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('timeNetworkPage.apply')}
      okButtonProps={{ disabled: locksOut && !trial, loading: setIp.isPending, danger: locksOut }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="network_address">
        <Form.Item name="ip" label={t('timeNetworkPage.ip')} rules={rule} required>
          <Input placeholder="192.168.1.10" autoComplete="off" />
        </Form.Item>
        <Form.Item name="mask" label={t('timeNetworkPage.mask')} rules={rule} required>
          <Input placeholder="255.255.255.0" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="gateway"
          label={t('timeNetworkPage.gateway')}
          rules={rule}
          extra={t('timeNetworkPage.gatewayHelp')}
        >
          <Input placeholder="192.168.1.1" autoComplete="off" />
        </Form.Item>
        <Form.Item name="verify_password" label={t('timeNetworkPage.password')} rules={rule} required>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
      </Form>
      <Space direction="vertical" style={{ width: '100%' }}>
        {locksOut && (
          <>
            <Alert type="error" showIcon message={t('timeNetworkPage.lockout', { address: consoleAddress })} />
            <Checkbox checked={trial} onChange={(e) => setTrial(e.target.checked)}>
              {t('timeNetworkPage.lockoutTrial')}
            </Checkbox>
          </>
        )}
        {error && <Alert type="error" showIcon message={error} />}
      </Space>
    </Modal>
  );
};
