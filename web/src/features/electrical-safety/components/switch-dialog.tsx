import { authRoutes } from '@sitewatch/contract/auth';
import { electricalSafetyRoutes as r } from '@sitewatch/contract/electrical-safety';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { encryptForServer } from '../../../api/crypto.ts';
import { electricalKeys } from '../api.ts';

export interface SwitchTarget {
  item_id: number;
  name: string;
  device_name: string;
  /** 1 close (on), 0 open (off). */
  value: 0 | 1;
}

/**
 * Operating a switch: the action is named in full and the switch-operation verification password is
 * asked for (002 §5.3, §6), sent encrypted like every password; the server checks it, the caller's
 * control function and site, then writes through the device.
 */
export const SwitchDialog = ({ target, onClose }: { target: SwitchTarget | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [password, setPassword] = useState('');
  const operate = useMutation({
    mutationFn: async (s: SwitchTarget) => {
      const { public_key } = await api.call(authRoutes.loginParams);
      return api.call(r.switchOpt, {
        body: { item_id: s.item_id, value: s.value, password: await encryptForServer(public_key, password) },
      });
    },
    onSuccess: () => {
      void message.success(t('electricalUi.switchDone'));
      setPassword('');
      onClose();
      void client.invalidateQueries({ queryKey: electricalKeys.all });
    },
  });
  const action = target?.value === 1 ? t('electricalUi.close') : t('electricalUi.open');
  return (
    <Modal
      open={target !== null}
      title={t('electricalUi.operateTitle', { action })}
      okText={action}
      okButtonProps={{ danger: true, disabled: password === '', loading: operate.isPending }}
      onOk={() => target && operate.mutate(target)}
      onCancel={() => {
        setPassword('');
        onClose();
      }}
      destroyOnHidden
    >
      {target && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type="warning"
            showIcon
            message={t('electricalUi.operateWarning', { action, name: target.name, device: target.device_name })}
          />
          <Typography.Text>{t('electricalUi.verifyPassword')}</Typography.Text>
          <Input.Password
            aria-label={t('electricalUi.verifyPassword')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onPressEnter={() => password && operate.mutate(target)}
            autoComplete="off"
            autoFocus
          />
        </Space>
      )}
    </Modal>
  );
};
