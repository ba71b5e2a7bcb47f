import { expect, it } from 'vitest';
import { coolingShare, itFactor, localDay, profileHours, profilePower } from './load-profile.ts';

const hourMs = 3_600_000;

it('counts continuously across midnight and never backwards', () => {
  // Local midnight (UTC+8) of 2026-06-03, where one day's mean gives way to the next.
  const midnight = Date.UTC(2026, 5, 2, 16);
  for (const profile of ['it', 'cooling', 'incoming'] as const) {
    expect(profileHours(profile, midnight + 1) - profileHours(profile, midnight - 1)).toBeLessThan(1e-5);
    let last = profileHours(profile, midnight - 2 * hourMs);
    for (let t = midnight - 2 * hourMs; t < midnight + 2 * hourMs; t += 60_000) {
      const now = profileHours(profile, t);
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
  }
});

it('gives a day the integral of its power', () => {
  const start = Date.UTC(2026, 2, 10, 16);
  for (const profile of ['it', 'cooling', 'incoming'] as const) {
    let sum = 0;
    for (let t = start; t < start + 24 * hourMs; t += 60_000) sum += profilePower(profile, t + 30_000) / 60;
    expect(profileHours(profile, start + 24 * hourMs) - profileHours(profile, start)).toBeCloseTo(sum, 3);
  }
});

it('makes the incoming feed the IT load plus cooling plus the rest, with a seasonal PUE', () => {
  const t = Date.UTC(2026, 6, 20, 6);
  // 40 kW of IT and 12 kW of cooling at their means; the rest is 0.15 of the IT load.
  const it = 40 * profilePower('it', t);
  const cooling = 12 * profilePower('cooling', t);
  expect(58 * profilePower('incoming', t)).toBeCloseTo(it * 1.15 + cooling, 6);
  const july = localDay(Date.UTC(2026, 6, 20));
  const january = localDay(Date.UTC(2026, 0, 20));
  expect(1.15 + coolingShare(july)).toBeGreaterThan(1.5);
  expect(1.15 + coolingShare(january)).toBeLessThan(1.37);
  // A Saturday below a Wednesday; a year earlier below now.
  expect(itFactor(localDay(Date.UTC(2026, 10, 28)))).toBeLessThan(itFactor(localDay(Date.UTC(2026, 10, 25))));
  const week = (from: number) => {
    let s = 0;
    for (let d = 0; d < 7; d++) s += itFactor(localDay(from) + d);
    return s;
  };
  expect(week(Date.UTC(2025, 10, 2)) / week(Date.UTC(2026, 10, 1))).toBeLessThan(0.97);
});
