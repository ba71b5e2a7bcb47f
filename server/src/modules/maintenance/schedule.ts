import type { AutoBackupSettings } from '@sitewatch/contract/maintenance';
import type { Timer, Timers } from '../../clock/timers.ts';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** Whether a calendar day (local midnight, ms) is a backup day of the schedule. */
const isBackupDay = (s: AutoBackupSettings, midnight: Date) => {
  if (s.date_mode === 2) return midnight.getDate() === s.date;
  // Every `days` days, counted in whole local days since the epoch.
  const day = Math.round((midnight.getTime() - midnight.getTimezoneOffset() * 60_000) / dayMs);
  return day % s.days === 0;
};

/** The first scheduled run strictly after `afterMs` (epoch ms), or null when disabled. */
export const nextRun = (s: AutoBackupSettings, afterMs: number): number | null => {
  if (!s.enabled) return null;
  const [h, m] = s.time.split(':').map(Number) as [number, number];
  const start = new Date(afterMs);
  for (let d = 0; d <= 366; d++) {
    const midnight = new Date(start.getFullYear(), start.getMonth(), start.getDate() + d);
    if (!isBackupDay(s, midnight)) continue;
    for (let run = 0; run < s.run_count; run++) {
      const at = new Date(midnight.getFullYear(), midnight.getMonth(), midnight.getDate(), h, m).getTime();
      const t = at + run * s.frequency * hourMs;
      if (t > afterMs && new Date(t).getDate() === midnight.getDate()) return t;
    }
  }
  return null;
};

/**
 * Runs `backup` at each scheduled time on the kernel's timers (a test's manual clock drives them);
 * `reschedule` after the settings change. A timer is never set further than a day ahead, so a change
 * of the box's clock is caught within a day.
 */
export const createBackupSchedule = (deps: {
  timers: Timers;
  clock: () => number;
  settings: () => Promise<AutoBackupSettings>;
  backup: () => Promise<unknown>;
  onError: (err: unknown) => void;
}) => {
  let timer: Timer | null = null;
  let stopped = true;
  const arm = async () => {
    deps.timers.clearTimeout(timer);
    timer = null;
    if (stopped) return;
    const now = deps.clock();
    const next = nextRun(await deps.settings(), now);
    if (next === null || stopped) return;
    const wait = next - now;
    timer = deps.timers.setTimeout(
      async () => {
        timer = null;
        if (wait <= dayMs) await deps.backup().catch(deps.onError);
        await arm();
      },
      Math.min(wait, dayMs),
    );
  };
  return {
    start: async () => {
      stopped = false;
      await arm();
    },
    reschedule: () => arm(),
    stop: () => {
      stopped = true;
      deps.timers.clearTimeout(timer);
      timer = null;
    },
  };
};
