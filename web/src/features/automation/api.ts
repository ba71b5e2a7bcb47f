import { automationRoutes as r, readRunDetails } from '@sitewatch/contract/automation';
import { workOrderRoutes } from '@sitewatch/contract/work-orders';
import { queryOptions } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { api } from '../../api/client.ts';

/** The automation pages' cache prefix: a write on one page refreshes the others' lists too. */
export const automationKey = ['automation'] as const;

/** Every action the user may see (the rule, task and item pickers). */
export const actionsQuery = queryOptions({
  queryKey: [...automationKey, 'all-actions'],
  queryFn: () => api.call(r.actions, { query: { page: 1, limit: 1000 } }),
});

/** The action kinds the server offers (any area may contribute one). */
export const kindsQuery = queryOptions({
  queryKey: [...automationKey, 'kinds'],
  queryFn: () => api.call(r.actionKinds),
  staleTime: 60_000,
});

/** The people a work-order command may name as handler or reviewer (enabled users). */
export const peopleQuery = queryOptions({
  queryKey: [...automationKey, 'people'],
  queryFn: () => api.call(workOrderRoutes.users, { query: {} }),
  staleTime: 60_000,
});

/** The actions by id, for the lists' columns. */
export const actionNames = (data: { data: { id: number; name: string }[] } | undefined) =>
  new Map((data?.data ?? []).map((a) => [a.id, a.name]));

/** A text key built at run time (a preset's, a kind's, a repeat option's): present in the four locale files. */
export const key = (k: string) => k as never;

/**
 * A run's stored detail in the reader's language: coded details named (`automationUi.runDetails`, a
 * refusal by its own message), other text as it is (a device's error, a row from before codes).
 */
export const runDetailText = (t: TFunction, detail: string): string =>
  readRunDetails(detail)
    .map((d) => {
      if (typeof d === 'string') return d;
      const named = d.code === 'refused' ? String(d.params.key) : `automationUi.runDetails.${d.code}`;
      return String(t(key(named), d.params));
    })
    .join('; ');
