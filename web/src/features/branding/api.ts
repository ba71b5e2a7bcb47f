import {
  brandingRoutes,
  type EditionInfo,
  type EditionUpdate,
  type InfoUpdate,
  type LogoKind,
  logoPaths,
} from '@sitewatch/contract/branding';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const editionsQuery = queryOptions({
  queryKey: ['branding', 'editions'],
  queryFn: () => api.call(brandingRoutes.edition),
});

export const updateEdition = (id: number, body: EditionUpdate) =>
  api.call(brandingRoutes.updateEdition, { params: { id }, body });
export const updateInfo = (body: InfoUpdate) => api.call(brandingRoutes.updateInfo, { body });
export const removeLogo = (type: LogoKind) => api.call(brandingRoutes.removeLogo, { query: { type } });
export const uploadLogo = async (type: LogoKind, file: File) => {
  const form = new FormData();
  form.set('file', file);
  return (await api.send('POST', logoPaths.upload, { query: { type }, body: form })) as EditionInfo;
};
