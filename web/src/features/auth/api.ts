import { authRoutes } from '@sitewatch/contract/auth';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { encryptForServer } from '../../api/crypto.ts';

export const loginParamsQuery = queryOptions({
  queryKey: ['auth', 'login-params'],
  queryFn: () => api.call(authRoutes.loginParams),
  staleTime: 60_000,
});

export const pwdComplexityQuery = queryOptions({
  queryKey: ['auth', 'pwd-complexity'],
  queryFn: async () => {
    const data = await api.call(authRoutes.globalConfigRead, { query: { k: 'PWD_COMPLEXITY' } });
    if (!('pwd_complexity_config' in data)) throw new Error('unexpected answer');
    return data.pwd_complexity_config;
  },
  staleTime: 60_000,
});

export const newCaptchaId = async () => (await api.call(authRoutes.captchaId)).captcha_id;
export const captchaUrl = (id: string) => `/api/v1/pub/login/captcha?id=${encodeURIComponent(id)}`;

export const encryptAll = async (publicKey: string, values: string[]) =>
  Promise.all(values.map((value) => encryptForServer(publicKey, value)));

export const deviceTokensQuery = (all: boolean) =>
  queryOptions({
    queryKey: ['auth', 'device-tokens', all],
    queryFn: () => api.call(authRoutes.myDeviceTokens, { query: { all: all ? '1' : '0' } }),
  });
