import { type ApiTokenInput, tokensRoutes } from '@sitewatch/contract/tokens';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const apiTokensKey = ['tokens', 'list'] as const;

/** The caller's live API tokens; with `all`, every user's (administrator). */
export const apiTokensQuery = (all: boolean) =>
  queryOptions({
    queryKey: [...apiTokensKey, all],
    queryFn: () => api.call(tokensRoutes.list, { query: { all: all ? '1' : '0' } }),
  });

export const createApiToken = (body: ApiTokenInput) => api.call(tokensRoutes.create, { body });
export const revokeApiToken = (id: number) => api.call(tokensRoutes.revoke, { params: { id } });
