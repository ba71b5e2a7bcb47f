import { licenceRoutes } from '@sitewatch/contract/licence';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const licenceQuery = queryOptions({
  queryKey: ['licence'],
  queryFn: () => api.call(licenceRoutes.get),
  // The remaining days change once a day; the top bar re-reads every 10 minutes.
  refetchInterval: 10 * 60_000,
});
export const categoriesLicenceQuery = queryOptions({
  queryKey: ['licence', 'categories'],
  queryFn: () => api.call(licenceRoutes.categories),
});
export const softwareVersionQuery = queryOptions({
  queryKey: ['licence', 'software-version'],
  queryFn: () => api.call(licenceRoutes.softwareVersion),
});
export const activate = (code: string) => api.call(licenceRoutes.activate, { body: { code } });
