import { authRoutes } from '@sitewatch/contract/auth';
import { doorAccessRoutes as r } from '@sitewatch/contract/door-access';
import type { RouteBody, RouteQuery } from '@sitewatch/contract/route';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { encryptForServer } from '../../api/crypto.ts';

/** Door access (docs/door-access.md): controllers, cards, the log, remote control. */
export const devicesQuery = queryOptions({ queryKey: ['door-access', 'devices'], queryFn: () => api.call(r.devices) });
export const cardsQuery = queryOptions({ queryKey: ['door-access', 'cards'], queryFn: () => api.call(r.cards) });
export const logsQuery = (query: RouteQuery<typeof r.logs>) =>
  queryOptions({ queryKey: ['door-access', 'logs', query], queryFn: () => api.call(r.logs, { query }) });

const useInvalidate = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['door-access'] });
};

export const useCreateDevice = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof r.createDevice>) => api.call(r.createDevice, { body }),
    onSuccess: done,
  });
};
export const useRemoveDevice = () => {
  const done = useInvalidate();
  return useMutation({ mutationFn: (id: number) => api.call(r.removeDevice, { params: { id } }), onSuccess: done });
};
export const useSync = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (controller_id: number) => api.call(r.logSync, { body: { controller_id } }),
    onSuccess: done,
  });
};
export const useCreateCard = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof r.createCard>) => api.call(r.createCard, { body }),
    onSuccess: done,
  });
};
export const useRemoveCard = () => {
  const done = useInvalidate();
  return useMutation({ mutationFn: (id: number) => api.call(r.removeCard, { params: { id } }), onSuccess: done });
};
export const useDoorCommand = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: async (input: {
      door_id: number;
      action: 'open' | 'normallyOpen' | 'normallyClosed' | 'controlled';
      password: string;
    }) => {
      const { public_key } = await api.call(authRoutes.loginParams);
      const verify_password = await encryptForServer(public_key, input.password);
      return api.call(r.ctrl, { body: { door_id: input.door_id, action: input.action, delay: 3, verify_password } });
    },
    onSuccess: done,
  });
};
