import type { AlarmPushMessage, AlarmRow } from '@sitewatch/contract/alarms';
import type { Channel, NoticeMessage } from '../../src/notify/channel.ts';
import type { PushHub } from '../../src/push/hub.ts';

/** Things a test waits for, kept as they come; `next` answers at once if one is there already. */
const waitable = <T>() => {
  const seen: T[] = [];
  const waiters: Array<{ match: (v: T) => boolean; resolve: (v: T) => void }> = [];
  return {
    seen,
    add(value: T) {
      seen.push(value);
      for (const w of [...waiters]) {
        if (!w.match(value)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(value);
      }
    },
    next: (match: (v: T) => boolean) =>
      new Promise<T>((resolve) => {
        const found = seen.find(match);
        if (found) resolve(found);
        else waiters.push({ match, resolve });
      }),
  };
};

/**
 * What reaches people of an alarm: the push messages of a signed-in administrator's browser, and
 * the notices a webhook channel is given (recorded instead of sent: the channels have their own
 * suite). The test waits for them as events, never for a time.
 */
export const watchAlarms = () => {
  const pushes = waitable<AlarmPushMessage>();
  const notices = waitable<NoticeMessage>();
  const webhook: Channel = {
    kind: 'webhook',
    async send(_settings, message) {
      notices.add(message);
      return 'recorded';
    },
  };
  return {
    webhook,
    /** Signs the administrator's browser in to the hub. */
    listen(hub: PushHub) {
      hub.add({
        principal: { user_id: 1, user_name: 'admin', session_id: 1 },
        send: (text) => {
          const m = JSON.parse(text) as { type: string };
          if (m.type === 'alarm') pushes.add(m as AlarmPushMessage);
        },
      });
    },
    pushed: (alarm: AlarmRow, event: AlarmPushMessage['event']) =>
      pushes.next((m) => m.event === event && m.alarm.status_id === alarm.status_id),
    /** The raises pushed so far, and the next (or an earlier) one `match` accepts. */
    get raised() {
      return pushes.seen.filter((m) => m.event === 'raise');
    },
    raise: (match: (m: AlarmPushMessage) => boolean) => pushes.next((m) => m.event === 'raise' && match(m)),
    notified: (alarm: AlarmRow, action = 'notice') =>
      notices.next((m) => m.fields.alarm_id === alarm.status_id && m.fields.action === action),
    notices: notices.seen,
  };
};
