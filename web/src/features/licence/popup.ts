import type { LicenceInfo } from '@sitewatch/contract/licence';

/** Pop-up frequency (000 §4.6): 1 daily, 2 daily in the last 3 days, 3 never. */
export type PopupFrequency = 1 | 2 | 3;

export const popupFrequencyKey = 'licence.popupFrequency';
export const popupLastKey = 'licence.popupLast';

export const storedFrequency = (): PopupFrequency => {
  const v = Number(globalThis.localStorage?.getItem(popupFrequencyKey));
  return v === 2 || v === 3 ? v : 1;
};

/** The local day, YYYY-MM-DD: the pop-up shows at most once a day. */
export const localDay = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * Which pop-up shows now, if any: a trial with less than a day left gets the expiry alert, an
 * expired licence its alert, another trial the reminder as its frequency says; each at most once a
 * day (stored locally), and none when the user chose never.
 */
export const popupToShow = (
  info: Pick<LicenceInfo, 'status' | 'remain_days'>,
  frequency: PopupFrequency,
  lastShown: string | null,
  today: string,
): 'reminder' | 'expiring' | 'expired' | null => {
  if (info.status === 'activated' || info.status === 'unknown') return null;
  if (frequency === 3 || lastShown === today) return null;
  if (info.status === 'expired') return 'expired';
  if (info.remain_days < 1) return 'expiring';
  if (frequency === 2 && info.remain_days > 3) return null;
  return 'reminder';
};
