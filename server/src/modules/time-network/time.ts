import type { HostAbility, NtpState, TimeState } from '@sitewatch/contract/time-network';
import { AppError } from '../../http/errors.ts';
import type { HostAnswer, TimeNetworkHost } from './client.ts';
import { reasonKey } from './network.ts';
import type { HostTime } from './protocol.ts';

/** `YYYY-MM-DD HH:mm:ss` of an instant in a zone (the zone of the server process when the box's is unknown here). */
export const wallClock = (epochSeconds: number, timezone: string): string => {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(epochSeconds * 1000);
  } catch {
    return new Date(epochSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
};

const ability = (answer: HostAnswer<HostTime>): HostAbility =>
  answer.ok ? answer.data.time_host : { available: false, reason: answer.reason, detail: answer.detail };

/**
 * The box's time zone, clock and NTP (docs/time-network.md): read and changed through the host
 * helper (timedatectl, the NTP service's file). Without the helper the page shows the server
 * process's own zone and clock, read-only, and says why.
 */
export const createTimeService = (deps: { host: TimeNetworkHost }) => {
  const read = async (): Promise<HostAnswer<HostTime>> => deps.host.ask({ op: 'timeState' });

  const ntpOf = (answer: HostAnswer<HostTime>): NtpState =>
    answer.ok
      ? {
          enabled: answer.data.ntp_enabled,
          synchronized: answer.data.synchronized,
          servers: answer.data.servers,
          service: answer.data.service,
          host: answer.data.service
            ? answer.data.time_host
            : {
                available: false,
                reason: 'noTool',
                detail: 'no NTP service (chrony or systemd-timesyncd) is installed',
              },
        }
      : { enabled: false, synchronized: false, servers: [], service: '', host: ability(answer) };

  const stateOf = (answer: HostAnswer<HostTime>): TimeState => {
    const timezone = answer.ok ? answer.data.timezone : Intl.DateTimeFormat().resolvedOptions().timeZone;
    const time = answer.ok ? answer.data.time : Math.floor(Date.now() / 1000);
    return { timezone, time, local_time: wallClock(time, timezone), ntp: ntpOf(answer), host: ability(answer) };
  };

  /** 409 with why the host cannot be changed, or the host's state. */
  const writable = async (): Promise<HostTime> => {
    const answer = await read();
    const can = ability(answer);
    if (!answer.ok || !can.available)
      throw new AppError('conflict', reasonKey(can.reason ?? 'failed'), { detail: can.detail });
    return answer.data;
  };
  const must = (answer: HostAnswer<HostTime>) => {
    if (!answer.ok) throw new AppError('conflict', reasonKey(answer.reason), { detail: answer.detail });
    return answer;
  };

  return {
    state: async () => stateOf(await read()),
    ntp: async () => ntpOf(await read()),

    /** Zone first (a time given with it is read in the new zone), then the clock, refused while NTP keeps it. */
    set: async (input: { timezone?: string | undefined; time?: string | undefined }) => {
      const now = await writable();
      if (input.time !== undefined && now.ntp_enabled) throw new AppError('conflict', 'timeNetwork.ntpOn');
      let answer: HostAnswer<HostTime> = { ok: true, data: now };
      if (input.timezone !== undefined && input.timezone !== now.timezone)
        answer = must(await deps.host.ask({ op: 'setTimezone', timezone: input.timezone }));
      if (input.time !== undefined) answer = must(await deps.host.ask({ op: 'setTime', time: input.time }));
      return stateOf(answer);
    },

    setNtp: async (input: { enabled: boolean; servers: string[] }) => {
      const now = await writable();
      if (!now.service) throw new AppError('conflict', 'timeNetwork.noNtpService');
      return ntpOf(must(await deps.host.ask({ op: 'setNtp', enabled: input.enabled, servers: input.servers })));
    },
  };
};
export type TimeService = ReturnType<typeof createTimeService>;
