import { describe, expect, it } from 'vitest';
import { guardVerdict, normalizePage } from './guard.ts';

describe('route guard (002 §2.2)', () => {
  it.each([
    ['/setting_users', 'setting_users'],
    ['/setting_users.html', 'setting_users'],
    ['/setting_users/?a=1', 'setting_users'],
    ['/energy_manage/cost_static', 'energy_managecost_static'],
    ['/', ''],
  ])('normalizes %s', (path, page) => {
    expect(normalizePage(path)).toBe(page);
  });

  const menu = ['/station', '/setting_users.html', '/energy_manage/cost_static'];
  it.each([
    ['/login', [], 'allow'],
    ['/home?fullShow=yes', [], 'allow'],
    ['/setting_auto_login', menu, 'allow'],
    ['/config_menu', menu, 'allow'],
    ['/station', [], 'login'],
    ['/station', menu, 'allow'],
    ['/station.html?x=1', menu, 'allow'],
    ['/setting_users', menu, 'allow'],
    ['/energy_manage/cost_static/', menu, 'allow'],
    ['/setting_security', menu, 'deny'],
  ] as const)('%s with %j → %s', (path, urls, verdict) => {
    expect(guardVerdict(path, [...urls])).toBe(verdict);
  });
});
