import { authRoutes } from '@sitewatch/contract/auth';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { deviceTokenKey } from '../api/tokens.ts';
import { useSession } from './session.ts';

/**
 * Logs out (000 §4.10): ends the session and this browser's auto-login on the server, then
 * clears the stored token, user name and session storage.
 */
export const logout = async () => {
  const deviceToken = localStorage.getItem(deviceTokenKey) ?? undefined;
  try {
    await api.call(authRoutes.exit, { body: deviceToken ? { device_token: deviceToken } : {} });
  } finally {
    localStorage.removeItem(deviceTokenKey);
    useSession.getState().clear();
  }
};

/** Asks before logging out (000 §2.6, §4.10); cancelling says so. */
export const useLogoutConfirm = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { modal, message } = App.useApp();
  return () =>
    modal.confirm({
      title: t('shell.logout.confirm'),
      onCancel: () => void message.info(t('shell.logout.cancelled')),
      onOk: async () => {
        await logout().catch(() => undefined);
        navigate('/login', { replace: true });
      },
    });
};
