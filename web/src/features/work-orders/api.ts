import { workOrderRoutes as r, type WorkOrderFile, workOrderUploads } from '@sitewatch/contract/work-orders';
import { api } from '../../api/client.ts';

export const workOrderKeys = { all: ['work-orders'] as const };

/** People for the handler and reviewer pickers. */
export const usersQuery = { queryKey: ['work-orders', 'users'], queryFn: () => api.call(r.users) };

/** Attaches a jpg or png to a received order (multipart fields id and file). */
export const uploadAttachment = async (orderId: number, file: File): Promise<WorkOrderFile> => {
  const form = new FormData();
  form.set('id', String(orderId));
  form.set('file', file);
  return (await api.send('POST', workOrderUploads.path, { body: form })) as WorkOrderFile;
};

type Five = 1 | 2 | 3 | 4 | 5;
/** Locale keys of a state and a priority (1–5). */
export const stateKey = (s: number) => `workOrderUi.states.${s as Five}` as const;
export const priorityKey = (p: number) => `workOrderUi.priorities.${p as Five}` as const;
export const historyKey = (a: string) =>
  `workOrderUi.historyActions.${a as 'create' | 'edit' | 'receive' | 'transfer' | 'refuse' | 'complete' | 'pass' | 'delete'}` as const;
