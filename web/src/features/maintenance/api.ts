import { ftpRoutes as f, maintenanceRoutes as r } from '@sitewatch/contract/maintenance';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const backupKeys = {
  all: ['maintenance'] as const,
  list: ['maintenance', 'list'] as const,
  schedule: ['maintenance', 'schedule'] as const,
  latest: ['maintenance', 'latest'] as const,
};

export const backupListQuery = queryOptions({
  queryKey: backupKeys.list,
  queryFn: () => api.call(r.list),
});

export const backupScheduleQuery = queryOptions({
  queryKey: backupKeys.schedule,
  queryFn: () => api.call(r.autoSetting),
});

/** Sizes as people read them (1 KB = 1024 bytes). */
export const formatSize = (bytes: number) => {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
};

export const ftpKeys = {
  all: ['maintenance', 'ftp'] as const,
  settings: ['maintenance', 'ftp', 'settings'] as const,
  records: ['maintenance', 'ftp', 'records'] as const,
  remote: ['maintenance', 'ftp', 'remote'] as const,
};

export const ftpSettingsQuery = queryOptions({
  queryKey: ftpKeys.settings,
  queryFn: () => api.call(f.get),
});

export const ftpRecordsQuery = queryOptions({
  queryKey: ftpKeys.records,
  queryFn: () => api.call(f.records),
});
