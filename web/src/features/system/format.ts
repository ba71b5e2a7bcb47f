import type { HostReason } from '@sitewatch/contract/system';
import type { TFunction } from 'i18next';

/** Bytes as text with a unit (B, KB, MB, GB, TB), one decimal from KB on. */
export const formatBytes = (bytes: number): string => {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
};

/** A duration in days, hours and minutes. */
export const formatSeconds = (seconds: number, t: TFunction): string => {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return t('systemUi.duration', { days, hours, minutes });
};

/** The text key of why a host feature cannot run. */
export const hostReasonKey = (reason: HostReason) =>
  reason === 'binaryMissing'
    ? 'systemUi.reason.binaryMissing'
    : reason === 'notPermitted'
      ? 'systemUi.reason.notPermitted'
      : 'systemUi.reason.noLogSource';
