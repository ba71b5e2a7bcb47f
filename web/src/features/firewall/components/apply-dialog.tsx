import { Alert, Checkbox, Input, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FirewallChange, useApplyChange } from '../api.ts';

/**
 * The last step of every change: the verification password (002 §5.3), and, for a change that cuts
 * the author off, the second of its two confirmations (the first was asked before): it runs on trial
 * and rolls back after 60 s unless kept.
 */
export const ApplyDialog = ({
  change,
  closes,
  locksOut,
  address,
  onClose,
}: {
  change: FirewallChange | null;
  closes: number[];
  locksOut: boolean;
  address: string;
  onClose: (applied: boolean) => void;
}) => {
  const { t } = useTranslation();
  const apply = useApplyChange();
  const [password, setPassword] = useState('');
  const [trial, setTrial] = useState(false);
  useEffect(() => {
    if (change) {
      setPassword('');
      setTrial(false);
    }
  }, [change]);
  const ready = password !== '' && (!locksOut || trial);
  return (
    <Modal
      open={change !== null}
      title={t('firewallPage.applyTitle')}
      onCancel={() => onClose(false)}
      okText={t('firewallPage.apply')}
      okButtonProps={{ disabled: !ready, loading: apply.isPending, danger: locksOut || closes.length > 0 }}
      onOk={() =>
        change &&
        apply.mutate(
          { change, password, confirm: closes.length > 0, lockout: locksOut },
          { onSuccess: () => onClose(true) },
        )
      }
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t('firewallPage.applyExplain')}</Typography.Text>
        {closes.length > 0 && (
          <Alert type="warning" showIcon message={t('firewallPage.closesPorts', { ports: closes.join(', ') })} />
        )}
        {locksOut && (
          <>
            <Alert type="error" showIcon message={t('firewallPage.lockoutAgain', { address })} />
            <Checkbox checked={trial} onChange={(e) => setTrial(e.target.checked)}>
              {t('firewallPage.lockoutTrial')}
            </Checkbox>
          </>
        )}
        <Input.Password
          aria-label={t('firewallPage.password')}
          placeholder={t('firewallPage.password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
      </Space>
    </Modal>
  );
};
