import { describe, expect, it } from 'vitest';
import { fromWallTime, nextRun, type RepeatRule, repeatRules, wallTime } from './repeat.ts';

const SH = 'Asia/Shanghai';
const BER = 'Europe/Berlin';
/** An instant given as wall time in a zone ('2024-01-31 09:00'). */
const at = (text: string, zone = SH) => {
  const [d, t] = text.split(' ');
  const [y, mo, day] = d!.split('-').map(Number);
  const [h, mi] = (t ?? '00:00').split(':').map(Number);
  return fromWallTime({ y: y!, mo: mo!, d: day!, h: h!, mi: mi!, s: 0 }, zone);
};
const show = (ms: number | null, zone = SH) => {
  if (ms === null) return null;
  const w = wallTime(ms, zone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.y}-${p(w.mo)}-${p(w.d)} ${p(w.h)}:${p(w.mi)}`;
};
/** The first n runs of a rule from its anchor. */
const runs = (anchor: string, rule: RepeatRule, n: number, zone = SH) => {
  const out: (string | null)[] = [];
  let after = at(anchor, zone) - 1;
  for (let i = 0; i < n; i++) {
    const next = nextRun(at(anchor, zone), rule, after, zone);
    out.push(show(next, zone));
    if (next === null) break;
    after = next;
  }
  return out;
};

describe('repeat options (002 §4)', () => {
  const table: [string, RepeatRule, string[]][] = [
    ['2024-02-28 22:00', 'hours4', ['2024-02-28 22:00', '2024-02-29 02:00', '2024-02-29 06:00']],
    ['2024-02-29 20:00', 'hours8', ['2024-02-29 20:00', '2024-03-01 04:00', '2024-03-01 12:00']],
    ['2023-12-31 12:00', 'hours12', ['2023-12-31 12:00', '2024-01-01 00:00', '2024-01-01 12:00']],
    ['2024-02-28 09:00', 'daily', ['2024-02-28 09:00', '2024-02-29 09:00', '2024-03-01 09:00']],
    ['2023-02-28 09:00', 'daily', ['2023-02-28 09:00', '2023-03-01 09:00', '2023-03-02 09:00']],
    ['2024-02-27 09:00', 'days2', ['2024-02-27 09:00', '2024-02-29 09:00', '2024-03-02 09:00']],
    ['2024-01-30 09:00', 'days3', ['2024-01-30 09:00', '2024-02-02 09:00', '2024-02-05 09:00']],
    ['2024-12-30 09:00', 'days4', ['2024-12-30 09:00', '2025-01-03 09:00', '2025-01-07 09:00']],
    ['2024-02-26 09:00', 'days5', ['2024-02-26 09:00', '2024-03-02 09:00', '2024-03-07 09:00']],
    ['2024-04-28 09:00', 'days6', ['2024-04-28 09:00', '2024-05-04 09:00', '2024-05-10 09:00']],
    ['2024-02-25 09:00', 'days7', ['2024-02-25 09:00', '2024-03-03 09:00', '2024-03-10 09:00']],
    ['2024-02-20 09:00', 'days15', ['2024-02-20 09:00', '2024-03-06 09:00', '2024-03-21 09:00']],
    ['2024-01-31 09:00', 'days30', ['2024-01-31 09:00', '2024-03-01 09:00', '2024-03-31 09:00']],
    ['2024-02-29 09:00', 'weekly', ['2024-02-29 09:00', '2024-03-07 09:00', '2024-03-14 09:00']],
    // Month ends clamp to the last day and come back to the 31st (counted from the anchor).
    ['2024-01-31 09:00', 'monthly', ['2024-01-31 09:00', '2024-02-29 09:00', '2024-03-31 09:00', '2024-04-30 09:00']],
    ['2023-01-31 09:00', 'monthly', ['2023-01-31 09:00', '2023-02-28 09:00', '2023-03-31 09:00']],
    ['2023-11-30 09:00', 'months3', ['2023-11-30 09:00', '2024-02-29 09:00', '2024-05-30 09:00', '2024-08-30 09:00']],
    ['2023-08-31 09:00', 'months6', ['2023-08-31 09:00', '2024-02-29 09:00', '2024-08-31 09:00', '2025-02-28 09:00']],
    // A leap day: Feb 28 in common years, Feb 29 again in the next leap year.
    [
      '2024-02-29 09:00',
      'yearly',
      ['2024-02-29 09:00', '2025-02-28 09:00', '2026-02-28 09:00', '2027-02-28 09:00', '2028-02-29 09:00'],
    ],
    ['2024-03-01 09:00', 'once', ['2024-03-01 09:00', null as unknown as string]],
  ];
  it.each(table)('%s %s', (anchor, rule, expected) => {
    expect(runs(anchor, rule, expected.length)).toEqual(expected);
  });

  it('covers every option', () => {
    expect(new Set(table.map((r) => r[1]))).toEqual(new Set(repeatRules));
  });

  it('a run far ahead is found without walking from the anchor', () => {
    expect(show(nextRun(at('2000-01-31 09:00'), 'monthly', at('2100-02-10 00:00'), SH))).toBe('2100-02-28 09:00');
    expect(show(nextRun(at('2000-02-29 09:00'), 'yearly', at('2099-03-01 00:00'), SH))).toBe('2100-02-28 09:00');
    expect(show(nextRun(at('2000-01-01 09:00'), 'days7', at('2030-06-01 00:00'), SH))).toBe('2030-06-01 09:00');
  });

  it('once in the past has no next run', () => {
    expect(nextRun(at('2024-03-01 09:00'), 'once', at('2024-03-01 09:00'), SH)).toBeNull();
  });

  describe('daylight saving (Europe/Berlin: 2024-03-31 02:00 → 03:00, 2024-10-27 03:00 → 02:00)', () => {
    it('daily keeps its wall time across both changes', () => {
      expect(runs('2024-03-30 09:00', 'daily', 3, BER)).toEqual([
        '2024-03-30 09:00',
        '2024-03-31 09:00',
        '2024-04-01 09:00',
      ]);
      expect(runs('2024-10-26 09:00', 'daily', 3, BER)).toEqual([
        '2024-10-26 09:00',
        '2024-10-27 09:00',
        '2024-10-28 09:00',
      ]);
      // 23 and 25 hours of elapsed time.
      expect(at('2024-03-31 09:00', BER) - at('2024-03-30 09:00', BER)).toBe(23 * 3_600_000);
      expect(at('2024-10-27 09:00', BER) - at('2024-10-26 09:00', BER)).toBe(25 * 3_600_000);
    });
    it('a wall time skipped by the change runs at the first time after the gap', () => {
      expect(runs('2024-03-30 02:30', 'daily', 3, BER)).toEqual([
        '2024-03-30 02:30',
        '2024-03-31 03:30',
        '2024-04-01 02:30',
      ]);
    });
    it('hour steps are elapsed time', () => {
      expect(runs('2024-03-30 22:00', 'hours4', 3, BER)).toEqual([
        '2024-03-30 22:00',
        '2024-03-31 03:00',
        '2024-03-31 07:00',
      ]);
      expect(runs('2024-10-26 22:00', 'hours4', 3, BER)).toEqual([
        '2024-10-26 22:00',
        '2024-10-27 02:00',
        '2024-10-27 05:00',
      ]);
    });
    it('weekly and monthly keep their wall time', () => {
      expect(runs('2024-03-24 09:00', 'weekly', 2, BER)).toEqual(['2024-03-24 09:00', '2024-03-31 09:00']);
      expect(runs('2024-09-27 09:00', 'monthly', 2, BER)).toEqual(['2024-09-27 09:00', '2024-10-27 09:00']);
    });
  });
});

describe('duty rotation', async () => {
  const { materialise, shiftSpan } = await import('./rotation.ts');
  it('members take turns every N weeks and a night shift ends the next day', () => {
    const rows = materialise(
      { contact_ids: [1, 2, 3], start_date: '2024-02-26', weeks: 1, horizon_weeks: 4 },
      { start: '20:00', end: '08:00' },
      SH,
    );
    expect(rows).toHaveLength(28);
    expect(rows.map((r) => r.contact_id).join('')).toBe('1111111222222233333331111111');
    expect(rows[3]!.date).toBe('2024-02-29');
    expect(show(rows[3]!.start_at * 1000)).toBe('2024-02-29 20:00');
    expect(show(rows[3]!.end_at * 1000)).toBe('2024-03-01 08:00');
  });
  it('a shift over the DST change is 23 hours long', () => {
    const span = shiftSpan('2024-03-30', { start: '08:00', end: '08:00' }, BER);
    expect(span.end_at - span.start_at).toBe(23 * 3600);
  });
});
