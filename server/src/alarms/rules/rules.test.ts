import { monitorState as S } from '@sitewatch/contract/monitoring';
import { describe, expect, it } from 'vitest';
import { feedJitter, type JitterSettings, JitterTable, jitterPercent, jitterStates } from './jitter.ts';
import { inPeriod } from './periods.ts';
import { feedRepetition } from './repetitions.ts';
import { type ThresholdRule, thresholdState } from './threshold.ts';

const N = S.normal;
const A = S.abnormal;
const numeric: ThresholdRule = {
  value_type: 1,
  threshold_min: 10,
  threshold_max: 30,
  status_threshold: '',
  overrun_point: 2,
  recovery_point: 1,
};

describe('threshold and hysteresis', () => {
  // [value sequence, expected raw states]: raised beyond min−2 / max+2, cleared only inside [11, 29].
  const cases: [string, ThresholdRule, number[], number[]][] = [
    ['inside stays normal', numeric, [20, 10, 30, 8, 32], [N, N, N, N, N]],
    ['over max+overrun raises', numeric, [20, 32.5, 20], [N, A, N]],
    ['under min−overrun raises', numeric, [7.9, 15], [A, N]],
    ['between max and recovery point keeps the alarm', numeric, [33, 31, 30, 29.5, 29], [A, A, A, A, N]],
    ['between min and recovery point keeps the alarm', numeric, [7, 9, 10.5, 11], [A, A, A, N]],
    ['the band does not raise from normal', numeric, [31, 9], [N, N]],
    ['only max', { ...numeric, threshold_min: null }, [-100, 33, 29.5, 28], [N, A, A, N]],
    ['no thresholds never raise', { ...numeric, threshold_min: null, threshold_max: null }, [1e9], [N]],
    ['status item', { ...numeric, value_type: 0, status_threshold: '1' }, [0, 1, 1, 0], [N, A, A, N]],
    ['status item without threshold', { ...numeric, value_type: 0, status_threshold: '' }, [1], [N]],
  ];
  it.each(cases)('%s', (_name, rule, values, expected) => {
    let prev: number = S.notReady;
    const got = values.map((v) => {
      prev = thresholdState(rule, v, prev);
      return prev;
    });
    expect(got).toEqual(expected);
  });
});

describe('repetitions', () => {
  const cases: [number, number[], number[], boolean[]][] = [
    // [repetitions, raw states, confirmed after each, changed after each]
    [1, [N, A, N], [N, A, N], [true, true, true]],
    [0, [N, A], [N, A], [true, true]],
    [
      3,
      [N, N, N, A, A, N, A, A, A],
      [0, 0, N, N, N, N, N, N, A],
      [false, false, true, false, false, false, false, false, true],
    ],
    [2, [N, N, A, N, A, A, N, N], [0, N, N, N, N, A, A, N], [false, true, false, false, false, true, false, true]],
  ];
  it.each(cases)('%i repetitions', (reps, raws, confirmed, changed) => {
    // One slot of the table (notReady is 0, the arrays' initial value).
    const s = { confirmed: new Int8Array(1), pending: new Int8Array(1), count: new Int32Array(1) };
    const got = raws.map((r) => [feedRepetition(s, 0, r, reps), s.confirmed[0]] as const);
    expect(got.map((g) => g[1])).toEqual(confirmed);
    expect(got.map((g) => g[0])).toEqual(changed);
  });
});

describe('time periods', () => {
  const workdays = [{ weekdays: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' }];
  const cases: [string, string, boolean][] = [
    ['Monday 08:00', '2026-11-23T08:00:00', true],
    ['Monday 18:00:59', '2026-11-23T18:00:59', true],
    ['Monday 18:01', '2026-11-23T18:01:00', false],
    ['Monday 07:59', '2026-11-23T07:59:00', false],
    ['Sunday noon', '2026-11-22T12:00:00', false],
    ['Friday noon', '2026-11-27T12:00:00', true],
  ];
  it.each(cases)('%s', (_n, at, expected) => expect(inPeriod(workdays, new Date(at))).toBe(expected));
  it('no period is always; an empty one never', () => {
    expect(inPeriod(undefined, new Date())).toBe(true);
    expect(inPeriod([], new Date())).toBe(false);
  });
});

describe('jitter percent', () => {
  const alt = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? A : N));
  const cases: [string, number[], 'standard' | 'weighted', number][] = [
    ['steady', Array(21).fill(N), 'standard', 0],
    ['20 changes of 20', alt(21), 'standard', 100],
    ['one change', [...Array(20).fill(N), A], 'standard', 5],
    ['10 changes', [...alt(11), ...Array(10).fill(N)], 'standard', 50],
    ['window is the last 21', [...alt(30), ...Array(21).fill(N)], 'standard', 0],
    ['weighted: all changes', alt(21), 'weighted', 100],
    ['weighted: newest change weighs 1.25', [...Array(20).fill(N), A], 'weighted', 6.25],
    ['weighted: oldest change weighs 0.75', [N, ...Array(20).fill(A)], 'weighted', 3.75],
  ];
  it.each(cases)('%s', (_n, states, type, pct) => expect(jitterPercent(states, type)).toBeCloseTo(pct, 2));
});

describe('jitter hold and resume', () => {
  const settings: JitterSettings = {
    enable: true,
    type: 'standard',
    start: 50,
    stop: 25,
    buffer_times: 5,
    max_continuous_lifts: 0,
    recovery_period: 0,
    period: 0,
  };
  /** Feeds confirmed states one per second and returns when jitter started and stopped. */
  const run = (states: number[], s: JitterSettings = settings) => {
    const j = new JitterTable(1);
    const events: string[] = [];
    const held: boolean[] = [];
    states.forEach((st, i) => {
      const prev = jitterStates(j, 0).at(-1);
      const ev = feedJitter(j, 0, st, i, s, prev === A && st === N);
      if (ev) events.push(`${ev}@${i}`);
      held.push(j.jittering[0] === 1);
    });
    return { events, held, j };
  };
  const flap = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? A : N));

  it('holds above the start threshold (11 changes = 55 %) and not at 50 %', () => {
    // 10 changes in the window: exactly 50 %, not above.
    expect(run([...Array(10).fill(N), ...flap(11)]).events).toEqual([]);
    // One more change: 55 % > 50 % → start.
    const r = run(flap(13));
    expect(r.events).toEqual(['start@11']);
    expect(r.held.slice(0, 11).every((h) => !h)).toBe(true);
  });

  it('resumes only below the stop threshold (hysteresis between 25 % and 50 %)', () => {
    const states = [...flap(21), ...Array(30).fill(N)];
    const r = run(states);
    const start = Number(r.events[0]?.split('@')[1]);
    const stop = Number(r.events[1]?.split('@')[1]);
    expect(r.events[0]).toMatch(/^start@/);
    expect(r.events[1]).toMatch(/^stop@/);
    // At stop the window holds fewer than 5 changes (< 25 %): 20 + 20 − 16 states later.
    const j = new JitterTable(1);
    for (const [i, st] of states.slice(0, stop + 1).entries()) feedJitter(j, 0, st, i, settings, false);
    expect(j.percent[0]).toBeLessThan(25);
    // One state earlier it was still at 25 % (not below): still held.
    const k = new JitterTable(1);
    for (const [i, st] of states.slice(0, stop).entries()) feedJitter(k, 0, st, i, settings, false);
    expect(k.percent[0]).toBeGreaterThanOrEqual(25);
    expect(start).toBeLessThan(stop);
  });

  it('waits the recovery period below the stop threshold', () => {
    const states = [...flap(21), ...Array(40).fill(N)];
    const plain = run(states);
    const slow = run(states, { ...settings, recovery_period: 5 });
    const at = (e: string | undefined) => Number(e?.split('@')[1]);
    expect(at(slow.events[1]) - at(plain.events[1])).toBe(5);
  });

  it('needs the buffer of states before judging', () => {
    expect(run(flap(4), { ...settings, buffer_times: 6 }).events).toEqual([]);
  });

  it('starts after max continuous lifts regardless of percent', () => {
    const s = { ...settings, start: 100, max_continuous_lifts: 3 };
    // raise/lift three times in a row: A N A N A N
    const r = run([N, N, N, N, N, A, N, A, N, A, N], s);
    expect(r.events).toEqual(['start@10']);
  });

  it('keeps the last 21 states in its ring, in order, over long runs', () => {
    const j = new JitterTable(1);
    const fed: number[] = [];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const st = seed % 7;
      fed.push(st);
      feedJitter(j, 0, st, 1_700_000_000 + i * 30, { ...settings, type: 'weighted', start: 101 }, false);
      const last = fed.slice(-21);
      expect(jitterStates(j, 0)).toEqual(last);
      if (last.length >= settings.buffer_times) expect(j.percent[0]).toBe(jitterPercent(last, 'weighted'));
    }
  });

  it('drops states older than the jitter period', () => {
    const j = new JitterTable(1);
    const s = { ...settings, period: 10 };
    for (const [i, st] of flap(21).entries()) feedJitter(j, 0, st, i, s, false);
    expect(jitterStates(j, 0).length).toBeLessThanOrEqual(11);
  });
});
