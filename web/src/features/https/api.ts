import { authRoutes } from '@sitewatch/contract/auth';
import { type CertUpload, type HttpsSettingsInput, httpsRoutes } from '@sitewatch/contract/https';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { encryptForServer } from '../../api/crypto.ts';
import { downloadFile } from '../../components/download.ts';

/** The page's path: the spec's console ports page holds the HTTPS settings (docs/https.md). */
export const httpsPage = '/setting_port';

export const httpsQuery = queryOptions({
  queryKey: ['https'],
  queryFn: () => api.call(httpsRoutes.get),
});

export const saveSettings = (body: HttpsSettingsInput) => api.call(httpsRoutes.set, { body });
export const saveDomain = (domain: string) => api.call(httpsRoutes.domain, { body: { domain } });
export const issueNow = () => api.call(httpsRoutes.issue);

/** Installs a pair; the caller's password goes encrypted, as every verification password does. */
export const uploadPair = async (pair: Omit<CertUpload, 'verify_password'>, password: string) => {
  const { public_key } = await api.call(authRoutes.loginParams);
  return api.call(httpsRoutes.upload, {
    body: { ...pair, verify_password: await encryptForServer(public_key, password) },
  });
};

export const downloadRootCert = () => downloadFile(`/api/v1/${httpsRoutes.rootCert.path}`, {}, 'root-cert.pem');
