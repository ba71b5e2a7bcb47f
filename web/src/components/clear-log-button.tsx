import type { RouteSpec } from '@sitewatch/contract';
import { authRoutes } from '@sitewatch/contract/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Modal, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';
import { encryptForServer } from '../api/crypto.ts';

/**
 * Clearing a log: a dialog asks for the caller's password, sent encrypted as `verify_password`
 * (the log routes of alarms, notifications and operations); the list under `queryKey` is refreshed.
 */
export const ClearLogButton = ({
  route,
  queryKey,
  label,
  title,
  explain,
  passwordLabel,
}: {
  route: RouteSpec;
  queryKey: readonly unknown[];
  label: string;
  title: string;
  explain?: ReactNode;
  passwordLabel: string;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const clear = useMutation({
    mutationFn: async () => {
      const { public_key } = await api.call(authRoutes.loginParams);
      return api.call(route, { body: { verify_password: await encryptForServer(public_key, password) } });
    },
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      setOpen(false);
      void client.invalidateQueries({ queryKey });
    },
  });
  return (
    <>
      <Button
        danger
        onClick={() => {
          setPassword('');
          setOpen(true);
        }}
      >
        {label}
      </Button>
      <Modal
        open={open}
        title={title}
        onCancel={() => setOpen(false)}
        okButtonProps={{ danger: true, disabled: password === '', loading: clear.isPending }}
        onOk={() => clear.mutate()}
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          {explain}
          <Input.Password
            aria-label={passwordLabel}
            placeholder={passwordLabel}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
          />
        </Space>
      </Modal>
    </>
  );
};
