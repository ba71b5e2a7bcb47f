import { authRoutes } from '@sitewatch/contract/auth';
import { doorAccessRoutes as r } from '@sitewatch/contract/door-access';
import type { RouteBody, RouteQuery } from '@sitewatch/contract/route';
import { routeUrl } from '@sitewatch/contract/route';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { encryptForServer } from '../../api/crypto.ts';
import { saveBlob } from '../../components/download.ts';

/** Door access (docs/door-access.md): controllers, cards, the log, remote control. */
export const devicesQuery = queryOptions({ queryKey: ['door-access', 'devices'], queryFn: () => api.call(r.devices) });
export const cardsQuery = queryOptions({ queryKey: ['door-access', 'cards'], queryFn: () => api.call(r.cards) });
export const logsQuery = (query: RouteQuery<typeof r.logs>) =>
  queryOptions({ queryKey: ['door-access', 'logs', query], queryFn: () => api.call(r.logs, { query }) });

export const permissionsQuery = (door_id: number | undefined) =>
  queryOptions({
    queryKey: ['door-access', 'permissions', door_id],
    queryFn: () => api.call(r.permissions, { query: door_id ? { door_id } : {} }),
  });

/** Saves the filtered log (every row, not just the page) as an xlsx file. */
export const exportLogs = async (query: RouteQuery<typeof r.logExport>, fileName: string) => {
  const blob = (await api.send('GET', routeUrl(r.logExport), { query, download: true })) as Blob;
  saveBlob(blob, fileName);
};

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
export const useUpdateDevice = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RouteBody<typeof r.updateDevice> }) =>
      api.call(r.updateDevice, { params: { id }, body }),
    onSuccess: done,
  });
};
export const useUpdateCard = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RouteBody<typeof r.updateCard> }) =>
      api.call(r.updateCard, { params: { id }, body }),
    onSuccess: done,
  });
};
export const useSetPermissions = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: ({ door_id, cards }: { door_id: number; cards: Array<{ card_id: number; profile: number }> }) =>
      api.call(r.setPermissions, { params: { id: door_id }, body: { cards } }),
    onSuccess: done,
  });
};

/** /door_notice_config and /door_setting (docs/door-access.md, "Notifications", "Options"). */
export const noticesQuery = queryOptions({ queryKey: ['door-access', 'notices'], queryFn: () => api.call(r.notices) });
export const contactGroupsQuery = queryOptions({
  queryKey: ['door-access', 'contact-groups'],
  queryFn: () => api.call(r.contacts),
});
export const optionsQuery = queryOptions({ queryKey: ['door-access', 'options'], queryFn: () => api.call(r.options) });
export const useSetNoticeContact = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof r.setContact>) => api.call(r.setContact, { body }),
    onSuccess: done,
  });
};
export const useToggleNotice = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof r.toggle>) => api.call(r.toggle, { body }),
    onSuccess: done,
  });
};
export const useSetOptions = () => {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof r.setOptions>) => api.call(r.setOptions, { body }),
    onSuccess: done,
  });
};
