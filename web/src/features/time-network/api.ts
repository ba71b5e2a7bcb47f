import { authRoutes } from '@sitewatch/contract/auth';
import { type NetworkIpInput, timeNetworkRoutes as r, type ServiceName } from '@sitewatch/contract/time-network';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { encryptForServer } from '../../api/crypto.ts';

export const timeQuery = queryOptions({ queryKey: ['time-network', 'time'], queryFn: () => api.call(r.time) });
export const servicesQuery = queryOptions({
  queryKey: ['time-network', 'services'],
  queryFn: () => api.call(r.services),
});
export const networkQuery = queryOptions({
  queryKey: ['time-network', 'network'],
  queryFn: () => api.call(r.network),
  // A change on trial rolls back on the server by itself: the page follows it.
  refetchInterval: (query) => (query.state.data?.pending ? 5_000 : false),
});

const encrypt = async (password: string) => {
  const { public_key } = await api.call(authRoutes.loginParams);
  return encryptForServer(public_key, password);
};

export const useSetTime = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { timezone?: string; time?: string }) => api.call(r.setTime, { body }),
    onSuccess: (state) => client.setQueryData(timeQuery.queryKey, state),
  });
};

export const useSetNtp = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { enabled: boolean; servers: string[] }) => api.call(r.setSyncd, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['time-network'] }),
  });
};

export const useServiceAction = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: ServiceName; action: 'start' | 'stop' | 'restart' }) =>
      api.call(r.service, { params: { name: input.name }, body: { action: input.action } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['time-network', 'services'] }),
  });
};

export const useSetIp = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: Omit<NetworkIpInput, 'verify_password'> & { password: string }) => {
      const { password, ...rest } = input;
      return api.call(r.ip, { body: { ...rest, verify_password: await encrypt(password) } });
    },
    onSuccess: (state) => client.setQueryData(networkQuery.queryKey, state),
  });
};

export const useSetDns = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { dns: string[]; password: string }) =>
      api.call(r.dns, { body: { dns: input.dns, verify_password: await encrypt(input.password) } }),
    onSuccess: (state) => client.setQueryData(networkQuery.queryKey, state),
  });
};

export const useKeepNetwork = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(r.keep, { body: {} }),
    onSuccess: (state) => client.setQueryData(networkQuery.queryKey, state),
  });
};
