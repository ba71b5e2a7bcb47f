import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../clock/manual.ts';
import { type CpuTimes, cpuPercent, createCpuSampler } from './system-info.ts';

describe('CPU sampler', () => {
  it('answers the busy percent of the last full interval, measured on its clock', async () => {
    const clock = createManualClock();
    let times: CpuTimes = { busy: 1_000, total: 10_000 };
    const sampler = createCpuSampler(3000, () => times, clock.timers);
    // Before the first interval: the figure since the sampler started.
    times = { busy: 1_100, total: 10_400 };
    expect(sampler.percent()).toBe(25);
    await clock.advance(2_999);
    times = { busy: 1_300, total: 11_000 };
    await clock.advance(1);
    expect(sampler.percent()).toBe(30);
    // Later readings do not change the figure until the next interval ends.
    times = { busy: 2_300, total: 12_000 };
    expect(sampler.percent()).toBe(30);
    await clock.advance(3_000);
    expect(sampler.percent()).toBe(100);
    sampler.stop();
    expect(clock.pending()).toBe(0);
  });

  it('rounds to two decimals and has no figure when no time passed', () => {
    expect(cpuPercent({ busy: 0, total: 0 }, { busy: 1, total: 3 })).toBe(33.33);
    expect(cpuPercent({ busy: 5, total: 9 }, { busy: 5, total: 9 })).toBeNull();
  });
});
