import { authRoutes } from '@sitewatch/contract/auth';
import { api } from '../../api/client.ts';
import { deviceTokenKey } from '../../api/tokens.ts';
import { useSession } from '../session.ts';

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
