import { statfs } from 'node:fs/promises';
import os from 'node:os';
import { formatSize } from '@sitewatch/contract';
import { realTimers, type Timers } from '../../clock/timers.ts';

/** Busy and total CPU time of the host, summed over its cores (ms). */
export interface CpuTimes {
  busy: number;
  total: number;
}

export const readCpuTimes = (cpus: os.CpuInfo[] = os.cpus()): CpuTimes => {
  let busy = 0;
  let total = 0;
  for (const c of cpus) {
    const { user, nice, sys, idle, irq } = c.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  return { busy, total };
};

/** Busy percent between two readings, two decimals; null when no time passed. */
export const cpuPercent = (a: CpuTimes, b: CpuTimes): number | null => {
  const total = b.total - a.total;
  if (total <= 0) return null;
  return Math.round(Math.min(100, Math.max(0, ((b.busy - a.busy) / total) * 100)) * 100) / 100;
};

export interface CpuSampler {
  /** Busy percent over the last full interval (or since the sampler started, before the first one). */
  percent(): number | null;
  stop(): void;
  intervalMs: number;
}

/**
 * Measures host CPU usage over a fixed interval (000 §7: 3000 ms) in the background, so that a
 * request answers at once with the last interval's figure instead of waiting for one.
 */
export const createCpuSampler = (
  intervalMs = 3000,
  read: () => CpuTimes = () => readCpuTimes(),
  timers: Timers = realTimers,
): CpuSampler => {
  let previous = read();
  let last: number | null = null;
  const timer = timers.setInterval(() => {
    const now = read();
    last = cpuPercent(previous, now) ?? last;
    previous = now;
  }, intervalMs);
  timer.unref();
  return {
    intervalMs,
    percent: () => last ?? cpuPercent(previous, read()),
    stop: () => timers.clearInterval(timer),
  };
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Total, used and free as texts with a unit suffix and bytes, and the used percent. */
export const sizeFigures = (totalBytes: number, freeBytes: number, usedBytes = totalBytes - freeBytes) => ({
  total: formatSize(totalBytes),
  used: formatSize(usedBytes),
  free: formatSize(freeBytes),
  percent: totalBytes > 0 ? round2((usedBytes / totalBytes) * 100) : 0,
  total_bytes: totalBytes,
  used_bytes: usedBytes,
  free_bytes: freeBytes,
});

/** Memory of the host: free is what the kernel reports as available (os.freemem). */
export const memoryFigures = () => sizeFigures(os.totalmem(), os.freemem());

/**
 * The file system holding `dir`, as `df` shows it: used = blocks − free blocks, free = blocks
 * available to the server's user, total = used + free (the root reserve is not counted).
 */
export const diskFigures = async (dir: string) => {
  const s = await statfs(dir);
  const used = (s.blocks - s.bfree) * s.bsize;
  const free = s.bavail * s.bsize;
  return { ...sizeFigures(used + free, free, used), path: dir };
};
