import { describe, expect, it } from 'vitest';
import { browserOf, inPeriods } from './login-restrictions.ts';

describe('browser from the User-Agent', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
      'chrome',
    ],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0', 'firefox'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0',
      'edge',
    ],
    ['Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko', 'ie'],
    [
      'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0 Safari/537.36 SE 2.X MetaSr 1.0',
      'sogou',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/94.0 Safari/537.36 QQBrowser/12.0',
      'qq',
    ],
    ['curl/8.0', null],
  ])('%s → %s', (ua, name) => {
    expect(browserOf(ua)).toBe(name);
  });
});

describe('allowed time periods', () => {
  const workdays = [{ weekdays: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' }];
  it.each([
    ['2026-11-23T09:30:00', true],
    ['2026-11-23T18:00:00', true],
    ['2026-11-23T18:01:00', false],
    ['2026-11-22T10:00:00', false],
  ])('%s → %s', (when, allowed) => {
    expect(inPeriods(workdays, new Date(when))).toBe(allowed);
  });
});
