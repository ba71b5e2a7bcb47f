import { formatValue } from '@sitewatch/contract';
import type { EmailService } from '@sitewatch/contract/notify';
import { type ChannelConfig, type ChannelKind, channelConfig } from '@sitewatch/contract/notify';
import { inPeriod, type PeriodRange } from '../alarms/rules/periods.ts';
import type { AlarmSettings } from '../alarms/settings.ts';
import { realTimers, type Timer, type Timers } from '../clock/timers.ts';
import { readIdList } from '../db/json.ts';
import type { Db } from '../db/kysely.ts';
import { mapJsonFields, type SecretBox } from '../secrets/index.ts';
import type { ChannelSettings, Destination, NoticeMessage } from './channel.ts';
import type { ChannelRegistry } from './channels/index.ts';

/** What a notice is about: the fields of the templates and the log. */
export interface NoticeSubject {
  alarm_id: number;
  item_id: number;
  item_name: string;
  device_name: string;
  /** The alarm's site: with shift handover on, the notices go to who is on duty for it. */
  device_group_id: number;
  device_group_name: string;
  state: number;
  level: number;
  value: number | null;
  /** The item's display decimals: `{value}` of the texts is written with them (as read when null). */
  decimals: number | null;
  unit: string;
  info: string;
  time: number;
}

export type NoticeAction = 'notice' | 'recovery' | 'still_abnormal' | 'escalation';

export interface NotifyJob {
  action: NoticeAction;
  subject: NoticeSubject;
  contact_group_id: number;
}

export interface DeliveryResult {
  result: number;
  detail: string;
  attempts: number;
}

export interface Notifier {
  /** Queues the notices of one event; returns at once (the engine never waits for channels). */
  enqueue(job: NotifyJob): void;
  /** Sends one test message and logs it. */
  test(settings: ChannelSettings, to: Destination): Promise<DeliveryResult>;
  /**
   * Drops queued deliveries not yet started (clean_notice_list): those of alarms of `sites`, or every
   * one (summaries and tests too) when `sites` is null.
   */
  drop(sites?: readonly number[] | null): number;
  /** Forgets cached contacts, groups, channels and periods after they change. */
  invalidate(): void;
  /** Resolves when the queue is empty and nothing is in flight (tests, shutdown). */
  idle(): Promise<void>;
  /**
   * Resolves when nothing moves without time passing: the queue is empty (or waits behind full
   * concurrency) and every delivery in flight sleeps on its retry delay; true when it waited.
   */
  settled(): Promise<boolean>;
  stop(): Promise<void>;
  /** Whether the dispatcher takes and sends notices (not stopped): the dashboard's notification service state. */
  running(): boolean;
}

/**
 * Who is on duty (the duty area's stored shifts): the contact ids on duty at a time, or null when
 * shift handover is disabled (the standard mode: each group's own mode). 002 §4 shift handover.
 */
export interface DutyRoster {
  /** For a site: the shifts of that site, of the sites above it and of every site (all shifts without one). */
  onDuty(atSeconds: number, siteId?: number): Promise<number[] | null>;
  /** The user ids on duty (users with an on-duty contact's e-mail), or null as above. */
  onDutyUsers?(atSeconds: number, siteId?: number): Promise<number[] | null>;
}

export interface NotifierOptions {
  db: Db;
  /** Routes notices by who is on duty while shift handover is enabled (the duty area's roster). */
  roster?: DutyRoster | undefined;
  settings: AlarmSettings;
  channels: ChannelRegistry;
  /** Decrypts channel secrets stored encrypted. */
  secrets?: SecretBox | undefined;
  clock?: () => number;
  timers?: Timers;
  /** First retry delay (ms); doubles each attempt. */
  retryDelayMs?: number;
  concurrency?: number;
  log?: { warn(obj: object, msg: string): void };
}

interface Delivery {
  action: NoticeAction | 'summary' | 'test';
  subject: NoticeSubject | null;
  channelName: string;
  settings: ChannelSettings;
  message: NoticeMessage;
  to: Destination;
  retries: number;
}

/** A contact group: who, by which of e-mail, SMS, voice and channels, and in which mode (1: duty). */
interface DirectoryGroup {
  contact_ids: number[];
  email: boolean;
  sms: boolean;
  voice: boolean;
  channel_ids: number[];
  mode: number;
}

interface Directory {
  groups: Map<number, DirectoryGroup>;
  contacts: Map<
    number,
    {
      name: string;
      alias: string;
      email: string;
      sms_number: string;
      voice_number: string;
      alarm_level: number;
      time_period_id: number;
      duty: boolean;
      enable: boolean;
    }
  >;
  channels: Map<number, { name: string; kind: Exclude<ChannelKind, 'email'>; config: ChannelConfig; enable: boolean }>;
  periods: Map<number, PeriodRange[]>;
}

/** Fills {placeholders} of a template. */
export const renderTemplate = (template: string, fields: Record<string, string | number | null>): string =>
  template.replace(/\{(\w+)\}/g, (all, key: string) => {
    const v = fields[key];
    return v === undefined ? all : v === null ? '' : String(v);
  });

const pad = (n: number) => String(n).padStart(2, '0');
const formatTime = (t: number) => {
  const d = new Date(t * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

/** The contact groups, contacts, channels and time periods notices are sent by, read at once (and again after a change). */
const loadDirectory = async (options: Pick<NotifierOptions, 'db' | 'secrets'>): Promise<Directory> => {
  const db = options.db.kysely;
  const [groups, contacts, channels, periods] = await Promise.all([
    db.selectFrom('contact_groups').selectAll().execute(),
    db.selectFrom('contacts').selectAll().execute(),
    db.selectFrom('notify_channels').selectAll().execute(),
    db.selectFrom('time_periods').selectAll().execute(),
  ]);
  const dir: Directory = { groups: new Map(), contacts: new Map(), channels: new Map(), periods: new Map() };
  for (const g of groups) {
    dir.groups.set(g.id, {
      contact_ids: readIdList(g.contact_ids),
      email: g.email === 1,
      sms: g.sms === 1,
      voice: g.voice === 1,
      channel_ids: readIdList(g.channel_ids),
      mode: g.mode,
    });
  }
  for (const c of contacts) dir.contacts.set(c.id, { ...c, duty: c.duty === 1, enable: c.enable === 1 });
  for (const ch of channels) {
    const parsed = channelConfig.safeParse(
      JSON.parse(options.secrets ? mapJsonFields(ch.config, ['secret'], options.secrets.decrypt) : ch.config),
    );
    if (!parsed.success) continue;
    dir.channels.set(ch.id, {
      name: ch.name,
      kind: ch.kind as Exclude<ChannelKind, 'email'>,
      config: parsed.data,
      enable: ch.enable === 1,
    });
  }
  for (const p of periods) {
    try {
      dir.periods.set(p.id, JSON.parse(p.ranges) as PeriodRange[]);
    } catch {
      // a period that does not parse never matches
      dir.periods.set(p.id, []);
    }
  }
  return dir;
};

/** The notice of a job: its template filled with the alarm's fields, with a prefix for repeats and escalations. */
const noticeOf = (job: NotifyJob, tpl: { subject: string; body: string }): NoticeMessage => {
  const s = job.subject;
  const fields: Record<string, string | number | null> = {
    site: s.device_group_name,
    device: s.device_name,
    item: s.item_name,
    value: s.value,
    unit: s.unit,
    level: s.level,
    info: s.info,
    time: formatTime(s.time),
    state: s.state,
    action: job.action,
    alarm_id: s.alarm_id,
    item_id: s.item_id,
  };
  const prefix = job.action === 'still_abnormal' ? '[仍异常] ' : job.action === 'escalation' ? '[升级] ' : '';
  // The texts show the value as the pages do (the item's display decimals); the fields, which a
  // webhook sends as JSON, keep the number as read.
  const shown = { ...fields, value: s.value === null ? null : formatValue(s.value, { decimals: s.decimals }) };
  return {
    subject: prefix + renderTemplate(tpl.subject, shown),
    text: renderTemplate(tpl.body, shown),
    fields,
  };
};

/**
 * The contacts of a group a notice of `level` goes to now: enabled, of that level or a higher one;
 * those on duty when shift handover gives a duty list (else, in duty mode, those marked on duty);
 * and inside their own time period.
 */
const recipientsOf = (dir: Directory, group: DirectoryGroup, level: number, onDuty: number[] | null, now: Date) =>
  group.contact_ids
    .map((id) => {
      const c = dir.contacts.get(id);
      return c && { ...c, id };
    })
    .filter((c) => c !== undefined)
    .filter((c) => c.enable && level <= c.alarm_level)
    // Duty mode: only contacts on duty; timed notification: only inside the contact's period.
    .filter((c) => (onDuty !== null ? onDuty.includes(c.id) : group.mode === 1 ? c.duty : true))
    .filter((c) => c.time_period_id === 0 || inPeriod(dir.periods.get(c.time_period_id) ?? [], now));

/**
 * The deliveries of one notice to a group: e-mail to each of its contacts with an address, and each
 * enabled channel of the group (SMS and voice to each contact's number, the others once).
 */
const deliveriesOf = (
  dir: Directory,
  group: DirectoryGroup,
  contacts: ReturnType<typeof recipientsOf>,
  mail: EmailService,
  base: Pick<Delivery, 'action' | 'subject' | 'message'>,
): Delivery[] => {
  const out: Delivery[] = [];
  if (group.email && mail.enable) {
    for (const c of contacts) {
      if (!c.email) continue;
      out.push({
        ...base,
        channelName: 'email',
        settings: { kind: 'email', config: mail },
        to: { address: c.email, name: c.alias || c.name },
        retries: 2,
      });
    }
  }
  for (const chId of group.channel_ids) {
    const ch = dir.channels.get(chId);
    if (!ch?.enable) continue;
    const settings: ChannelSettings = { kind: ch.kind, config: ch.config };
    if (ch.kind === 'sms' || ch.kind === 'voice') {
      if ((ch.kind === 'sms' && !group.sms) || (ch.kind === 'voice' && !group.voice)) continue;
      for (const c of contacts) {
        const number = ch.kind === 'sms' ? c.sms_number : c.voice_number;
        if (number)
          out.push({
            ...base,
            channelName: ch.name,
            settings,
            to: { address: number, name: c.name },
            retries: ch.config.retries,
          });
      }
    } else
      out.push({
        ...base,
        channelName: ch.name,
        settings,
        to: { address: '', name: ch.name },
        retries: ch.config.retries,
      });
  }
  return out;
};

/**
 * The notifier: turns an alarm event into deliveries (contacts of the item's contact group × the
 * group's channels), sends them from a queue with retries, logs every delivery with its attempts,
 * and folds notices over the flood limit (per destination and channel, a minute) into one summary.
 */
export const createNotifier = (options: NotifierOptions): Notifier => {
  const clock = options.clock ?? Date.now;
  const timers = options.timers ?? realTimers;
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const concurrency = options.concurrency ?? 8;
  const queue: Delivery[] = [];
  let running = 0;
  /** Deliveries in flight that wait for their retry delay. */
  let sleeping = 0;
  let stopped = false;
  let directory: Promise<Directory> | null = null;
  const roster = options.roster ?? null;
  const idleWaiters: (() => void)[] = [];
  const settledWaiters: (() => void)[] = [];
  /** Flood limiter: deliveries per key in the current minute, and what was folded. */
  const flood = new Map<string, { minute: number; count: number; folded: number; last: Delivery }>();
  let floodTimer: Timer | null = null;

  const quiet = () => running === sleeping && (queue.length === 0 || running >= concurrency);
  /** Called after every change of what is in flight: wakes whoever waits for idle or settled. */
  const changed = () => {
    if (running === 0 && queue.length === 0) for (const w of idleWaiters.splice(0)) w();
    if (quiet()) for (const w of settledWaiters.splice(0)) w();
  };
  /** Wakes the deliveries asleep on their retry delay (stop). */
  const wakers = new Set<() => void>();
  const retryAfter = async (ms: number) => {
    sleeping += 1;
    changed();
    try {
      await new Promise<void>((resolve) => {
        const wake = () => {
          timers.clearTimeout(timer);
          wakers.delete(wake);
          resolve();
        };
        const timer = timers.setTimeout(wake, ms);
        timer.unref();
        wakers.add(wake);
      });
    } finally {
      sleeping -= 1;
    }
  };

  const getDirectory = () => {
    directory ??= loadDirectory(options).catch((err) => {
      directory = null;
      throw err;
    });
    return directory;
  };

  const writeLog = async (d: Delivery, r: DeliveryResult) => {
    const s = d.subject;
    await options.db.kysely
      .insertInto('notification_logs')
      .values({
        time: Math.floor(clock() / 1000),
        alarm_id: s?.alarm_id ?? 0,
        item_id: s?.item_id ?? 0,
        item_name: (s?.item_name ?? '').slice(0, 64),
        device_name: (s?.device_name ?? '').slice(0, 64),
        device_group_name: (s?.device_group_name ?? '').slice(0, 64),
        state: s?.state ?? 0,
        action: d.action,
        channel: d.settings.kind,
        target: `${d.channelName}${d.to.address ? ` → ${d.to.address}` : ''}`.slice(0, 300),
        result: r.result,
        detail: r.detail.slice(0, 2000),
        attempts: r.attempts,
      })
      .execute();
  };

  const attempt = async (d: Delivery): Promise<DeliveryResult> => {
    const channel = options.channels[d.settings.kind];
    let detail = '';
    for (let n = 1; ; n++) {
      try {
        detail = await channel.send(d.settings, d.message, d.to);
        return { result: 1, detail, attempts: n };
      } catch (err) {
        detail = err instanceof Error ? err.message : String(err);
        if (n > d.retries || stopped) return { result: 0, detail, attempts: n };
        await retryAfter(retryDelayMs * 2 ** (n - 1));
        // Stopping cuts the wait short and gives up: the attempts made are logged.
        if (stopped) return { result: 0, detail, attempts: n };
      }
    }
  };

  const run = async (d: Delivery): Promise<DeliveryResult> => {
    const r = await attempt(d);
    await writeLog(d, r).catch((err) => options.log?.warn({ err }, 'could not write the notification log'));
    return r;
  };

  const pump = () => {
    while (running < concurrency && queue.length > 0) {
      const d = queue.shift()!;
      running += 1;
      void run(d).finally(() => {
        running -= 1;
        pump();
        changed();
      });
    }
  };

  const floodKey = (d: Delivery) => `${d.settings.kind}:${d.channelName}:${d.to.address}`;

  const flushFolded = () => {
    const minute = Math.floor(clock() / 60_000);
    for (const [key, f] of flood) {
      if (f.minute === minute) continue;
      if (f.folded > 0) {
        const text = `${f.folded} more alarm notices in the last minute were folded into this summary (flood limit).`;
        queue.push({
          ...f.last,
          action: 'summary',
          subject: null,
          message: { subject: `[告警汇总] ${f.folded}`, text, fields: { folded: f.folded } },
        });
      }
      flood.delete(key);
    }
    pump();
  };

  const push = (d: Delivery) => {
    const limit = options.settings.peek('commons').flood_limit;
    if (limit > 0) {
      const minute = Math.floor(clock() / 60_000);
      const key = floodKey(d);
      let f = flood.get(key);
      if (!f || f.minute !== minute) {
        if (f && f.folded > 0) flushFolded();
        f = { minute, count: 0, folded: 0, last: d };
        flood.set(key, f);
      }
      f.count += 1;
      if (f.count > limit) {
        f.folded += 1;
        f.last = d;
        if (!floodTimer) {
          floodTimer = timers.setInterval(flushFolded, 5_000);
          floodTimer.unref();
        }
        return;
      }
    }
    queue.push(d);
  };

  const expand = async (job: NotifyJob) => {
    const [dir, commons, noticeTpl, recoverTpl, mail] = await Promise.all([
      getDirectory(),
      options.settings.get('commons'),
      options.settings.get('notice_tpl'),
      options.settings.get('recover_tpl'),
      options.settings.get('email_service'),
    ]);
    if (!commons.notify_enable) return;
    const group = dir.groups.get(job.contact_group_id);
    if (!group) return;
    const s = job.subject;
    const message = noticeOf(job, job.action === 'recovery' ? recoverTpl : noticeTpl);
    const now = new Date(clock());
    // Shift handover enabled: the contacts on duty now by the stored shifts, whatever the group's mode.
    const onDuty = roster ? await roster.onDuty(Math.floor(clock() / 1000), s.device_group_id) : null;
    const contacts = recipientsOf(dir, group, s.level, onDuty, now);
    for (const d of deliveriesOf(dir, group, contacts, mail, { action: job.action, subject: s, message })) push(d);
    pump();
  };

  return {
    enqueue(job) {
      if (stopped) return;
      running += 1;
      void expand(job)
        .catch((err) => options.log?.warn({ err }, 'could not prepare notices'))
        .finally(() => {
          running -= 1;
          pump();
          changed();
        });
    },
    async test(settings, to) {
      const message: NoticeMessage = {
        subject: 'Sitewatch test message / 测试消息',
        text: `Test message sent at ${formatTime(Math.floor(clock() / 1000))}.`,
        fields: { test: 1 },
      };
      const retries = settings.kind === 'email' ? 0 : settings.config.retries;
      running += 1;
      try {
        return await run({ action: 'test', subject: null, channelName: settings.kind, settings, message, to, retries });
      } finally {
        running -= 1;
        changed();
      }
    },
    drop(sites = null) {
      const n = queue.length;
      if (sites === null) {
        queue.length = 0;
        for (const f of flood.values()) f.folded = 0;
        changed();
        return n;
      }
      // A user of some sites drops only their alarms' notices: other sites' people are still told.
      const kept = queue.filter((d) => d.subject === null || !sites.includes(d.subject.device_group_id));
      queue.splice(0, queue.length, ...kept);
      changed();
      return n - kept.length;
    },
    invalidate() {
      directory = null;
    },
    idle() {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async settled() {
      if (quiet()) return false;
      await new Promise<void>((resolve) => settledWaiters.push(resolve));
      return true;
    },
    running: () => !stopped,
    async stop() {
      stopped = true;
      timers.clearInterval(floodTimer);
      queue.length = 0;
      for (const wake of [...wakers]) wake();
      if (running > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
  };
};
