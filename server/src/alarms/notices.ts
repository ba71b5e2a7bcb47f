import { handlingState, recoveredStatus } from '@sitewatch/contract/alarms';
import type { NoticeAction, NoticeSubject, Notifier } from '../notify/notifier.ts';
import { inPeriod } from './rules/periods.ts';
import type { AlarmSettings } from './settings.ts';
import type { Alarm, EngineState } from './state.ts';
import type { AlarmStore } from './store.ts';

/**
 * The notices of alarms (002 §4): the problem notice when the rules allow it (not while jittering,
 * inside the notification period, at most the configured times, repeated at the item's interval
 * until confirmed), recovery and still-abnormal notices, and escalation to the further contact
 * group of an alarm not confirmed in time. They go to the notifier's queue.
 */
export const createNotices = (deps: {
  state: EngineState;
  store: AlarmStore;
  notifier: Notifier;
  settings: AlarmSettings;
}) => {
  const { state, store, notifier, settings } = deps;
  const displayDecimals = (itemId: number) => {
    const slot = state.items.slotOf(itemId);
    const d = slot === undefined ? -1 : state.items.decimals[slot]!;
    return d < 0 ? null : d;
  };
  const subjectOf = (a: Alarm): NoticeSubject => ({
    alarm_id: a.id,
    decimals: displayDecimals(a.item_id),
    item_id: a.item_id,
    item_name: a.item_name,
    device_name: a.device_name,
    device_group_id: a.device_group_id,
    device_group_name: a.device_group_name,
    state: a.end_time !== null ? recoveredStatus : a.status,
    level: a.level,
    value: a.value,
    unit: a.unit,
    info: a.info,
    time: a.end_time ?? a.start_time,
  });

  const notify = (a: Alarm, action: NoticeAction, groupId = a.contact_group_id) => {
    if (groupId > 0) notifier.enqueue({ action, subject: subjectOf(a), contact_group_id: groupId });
  };

  const { items } = state;
  const jittering = (a: Alarm) => {
    const slot = items.slotOf(a.item_id);
    return slot !== undefined && items.jitter.jittering[slot] === 1;
  };

  /** Sends the due problem notice of an open alarm, if every rule allows it now. */
  const maybeNotify = (a: Alarm, nowS: number) => {
    if (a.end_time !== null || a.handling !== handlingState.unprocessed) return;
    if (jittering(a) || nowS < a.next_notify_at) return;
    const commons = settings.peek('commons');
    if (a.notify_count >= Math.max(1, commons.notify_times)) return;
    const it = items.slotOf(a.item_id);
    const period = it === undefined ? 0 : items.notificationPeriod[it]!;
    if (period > 0 && !inPeriod(state.periods.get(period) ?? [], new Date(nowS * 1000))) return;
    notify(a, 'notice');
    if (it !== undefined) items.problemNoticed[it] = 1;
    a.notify_count += 1;
    const interval = it === undefined ? 0 : items.notificationInterval[it]!;
    a.next_notify_at = interval > 0 ? nowS + interval : Number.POSITIVE_INFINITY;
    store.changed(a);
  };

  /** Sends an unconfirmed alarm to its group's further group once its minutes have passed. */
  const escalateIfDue = (a: Alarm, nowS: number) => {
    if (a.escalated !== 0 || a.handling !== handlingState.unprocessed) return;
    const group = state.escalation.get(a.contact_group_id);
    if (!group || group.minutes <= 0 || nowS - a.start_time < group.minutes * 60) return;
    a.escalated = 1;
    store.changed(a);
    store.log(a, 'escalate', nowS, `contact group ${group.target}`);
    notify(a, 'escalation', group.target);
  };

  return { notify, maybeNotify, escalateIfDue };
};
export type Notices = ReturnType<typeof createNotices>;
