import type { AlarmRow } from '@sitewatch/contract/alarms';
import { create } from 'zustand';

const switchesKey = 'sitewatch.alarmSwitches';

interface Switches {
  voice: boolean;
  popup: boolean;
}
const readSwitches = (): Switches => {
  try {
    return { voice: true, popup: true, ...JSON.parse(localStorage.getItem(switchesKey) ?? '{}') };
  } catch {
    return { voice: true, popup: true };
  }
};

interface AlarmNotices {
  /** Notices of the pop-up panel, newest first (one per alarm). */
  notices: AlarmRow[];
  /** Bumped on every alarm message, so lists refetch. */
  version: number;
  switches: Switches;
  receive(alarm: AlarmRow): void;
  remove(statusId: number): void;
  clear(): void;
  setSwitch(key: keyof Switches, on: boolean): void;
}

/**
 * Alarm notices of this browser (000 §4.7): the pop-up list, and the user's own sound and pop-up
 * switches (kept per browser, 000 §3 session state "voice and popup switches").
 */
export const useAlarmNotices = create<AlarmNotices>((set) => ({
  notices: [],
  version: 0,
  switches: readSwitches(),
  receive: (alarm) =>
    set((s) => {
      const rest = s.notices.filter((n) => n.status_id !== alarm.status_id);
      // A confirmed or disabled alarm leaves the panel; a recovery stays (no sound) until closed.
      const keep = alarm.handling === 0 || alarm.handling === 3;
      return { notices: keep ? [alarm, ...rest].slice(0, 200) : rest, version: s.version + 1 };
    }),
  remove: (statusId) => set((s) => ({ notices: s.notices.filter((n) => n.status_id !== statusId) })),
  clear: () => set({ notices: [] }),
  setSwitch: (key, on) =>
    set((s) => {
      const switches = { ...s.switches, [key]: on };
      localStorage.setItem(switchesKey, JSON.stringify(switches));
      return { switches };
    }),
}));

/** Whether a notice should sound: not recovered (status 1000) and not yet confirmed. */
export const sounds = (a: AlarmRow) => a.status !== 1000 && a.status_label !== 'recovered' && a.handling === 0;
