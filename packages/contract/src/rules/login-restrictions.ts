/**
 * Login restrictions (002 §3 Security settings, §5.3): browsers from the User-Agent, and allowed
 * time periods. IP lists are matched on the server (CIDR needs an IP library).
 */
export const browserNames = ['chrome', 'firefox', 'ie', 'edge', 'sogou', 'qq'] as const;
export type BrowserName = (typeof browserNames)[number];

/** The browser family of a User-Agent; the Chinese shells and Edge are told apart from Chrome first. */
export const browserOf = (userAgent: string): BrowserName | null => {
  if (/QQBrowser/i.test(userAgent)) return 'qq';
  if (/MetaSr|SogouMobileBrowser|SE 2\.X/i.test(userAgent)) return 'sogou';
  if (/Edg(e|A|iOS)?\//.test(userAgent)) return 'edge';
  if (/MSIE |Trident\//.test(userAgent)) return 'ie';
  if (/Firefox\//.test(userAgent)) return 'firefox';
  if (/Chrome\/|Chromium\/|CriOS\//.test(userAgent)) return 'chrome';
  return null;
};

/** A weekly period: ISO weekdays 1 (Monday) … 7 and a time range "HH:mm" inclusive. */
export interface TimePeriod {
  weekdays: number[];
  start: string;
  end: string;
}

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** Whether `date` (in the server's local time) falls in any of the periods. */
export const inPeriods = (periods: TimePeriod[], date: Date): boolean => {
  const weekday = date.getDay() === 0 ? 7 : date.getDay();
  const now = date.getHours() * 60 + date.getMinutes();
  return periods.some((p) => p.weekdays.includes(weekday) && now >= minutes(p.start) && now <= minutes(p.end));
};
