import { type RouteBody, routeUrl } from '@sitewatch/contract';
import { monitoringRoutes as r } from '@sitewatch/contract/monitoring';
import { api } from '../../api/client.ts';
import { downloadFile } from '../../components/download.ts';

/** Device templates and point-table files (docs/point-tables.md). */
export const templateApi = {
  create: (body: RouteBody<typeof r.createTemplate>) => api.call(r.createTemplate, { body }),
  update: (id: number, body: RouteBody<typeof r.updateTemplate>) =>
    api.call(r.updateTemplate, { params: { id }, body }),
  remove: (id: number) => api.call(r.deleteTemplate, { params: { id } }),
  fromDevice: (body: RouteBody<typeof r.createTemplateFromDevice>) => api.call(r.createTemplateFromDevice, { body }),
  importPoints: (deviceId: number, body: RouteBody<typeof r.importDevicePoints>) =>
    api.call(r.importDevicePoints, { params: { id: deviceId }, body }),
  exportTemplate: (id: number, format: 'xlsx' | 'csv') =>
    downloadFile(
      routeUrl(r.exportTemplatePoints).replace(':id', String(id)),
      { format },
      `template_${id}_points.${format}`,
    ),
  exportDevice: (id: number, format: 'xlsx' | 'csv') =>
    downloadFile(
      routeUrl(r.exportDevicePoints).replace(':id', String(id)),
      { format },
      `device_${id}_points.${format}`,
    ),
};

/** A file as the import body: CSV as text, xlsx as base64. */
export const pointFileBody = async (file: File): Promise<RouteBody<typeof r.importDevicePoints>> => {
  if (/\.csv$/i.test(file.name) || file.type === 'text/csv') return { format: 'csv', content: await file.text() };
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { format: 'xlsx', content: btoa(binary) };
};
