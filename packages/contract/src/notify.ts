import { z } from 'zod';
import { pageOf, pageQuery } from './envelope.ts';
import { defineRoute } from './route.ts';

/**
 * Notifications: contacts and contact groups (002 §3), notification channels (/alarm_push:
 * webhook, DingTalk, WeCom, Feishu robots, SMS and voice gateways), the mail service
 * (setting/email_service), notice and recovery templates (notice_tpl, recover_tpl) and the
 * notification log (002 §7.1, §7.3). docs/alarms.md.
 */

const msg = (key: string) => `alarms.validation.${key}`;
const id = z.coerce.number().int().min(1).max(2_147_483_647);
export const notifyIdParams = z.object({ id });
const refId = z.number().int().min(0).max(2_147_483_647);
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: msg('tooLong') });
const requiredText = (max: number, key: string) =>
  z
    .string()
    .trim()
    .min(1, { message: msg(key) })
    .max(max, { message: msg('tooLong') });
/** E-mail and phone formats (002 §5.1); empty is allowed where optional. */
const email = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .max(128)
    .email({ message: msg('email') }),
]);
const phone = z.union([
  z.literal(''),
  z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 -]{4,19}$/, { message: msg('phone') }),
]);

// ---------- contacts and groups ----------

export const contactInput = z.strictObject({
  name: requiredText(64, 'name'),
  alias: text(64).default(''),
  email: email.default(''),
  phone: phone.default(''),
  voice_number: phone.default(''),
  sms_number: phone.default(''),
  /** Lowest severity the contact is told about: notices of levels 1 … alarm_level (1 most severe). */
  alarm_level: z.number().int().min(1).max(5).default(5),
  /** Timed notification: a time period id (0: any time). */
  time_period_id: refId.default(0),
  /** Duty mode: notified only while on duty (when duty mode is on); default mode: always. */
  duty: z.boolean().default(false),
  enable: z.boolean().default(true),
});
export const contactRow = z.object({
  id: z.number().int(),
  name: z.string(),
  alias: z.string(),
  email: z.string(),
  phone: z.string(),
  voice_number: z.string(),
  sms_number: z.string(),
  alarm_level: z.number().int(),
  time_period_id: z.number().int(),
  duty: z.boolean(),
  enable: z.boolean(),
});
export type ContactRow = z.infer<typeof contactRow>;

export const contactGroupInput = z.strictObject({
  name: requiredText(64, 'groupName'),
  remark: text(200).default(''),
  contact_ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(1000).default([]),
  /** Channels the group is told by: 'email', 'sms', 'voice' and channel ids of /alarm_push. */
  email: z.boolean().default(true),
  sms: z.boolean().default(false),
  voice: z.boolean().default(false),
  channel_ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(100).default([]),
  /** Escalation: an alarm not confirmed within this many minutes goes to the further group (0: off). */
  escalate_minutes: z.number().int().min(0).max(10_080).default(0),
  escalate_group_id: refId.default(0),
  /** 1: duty mode (contacts marked duty are told only in their time period); 0: default mode. */
  mode: z.union([z.literal(0), z.literal(1)]).default(0),
});
export const contactGroupRow = z.object({
  id: z.number().int(),
  name: z.string(),
  remark: z.string(),
  contact_ids: z.array(z.number().int()),
  email: z.boolean(),
  sms: z.boolean(),
  voice: z.boolean(),
  channel_ids: z.array(z.number().int()),
  escalate_minutes: z.number().int(),
  escalate_group_id: z.number().int(),
  mode: z.number().int(),
});
export type ContactGroupRow = z.infer<typeof contactGroupRow>;

// ---------- channels (/alarm_push) ----------

export const channelKinds = ['webhook', 'dingtalk', 'wecom', 'feishu', 'sms', 'voice'] as const;
export type ChannelKind = (typeof channelKinds)[number] | 'email';

const url = z
  .string()
  .trim()
  .max(1000)
  .regex(/^https?:\/\/[^\s]+$/, { message: msg('url') });

/** Per-kind settings; SMS and voice gateways are HTTP templates with Aliyun-style signing. */
export const channelConfig = z.strictObject({
  url,
  /** Robot signing secret (DingTalk SEC…, Feishu) or the webhook's HMAC key. */
  secret: text(256).default(''),
  /** Gateway: AccessKey id and the signing scheme. */
  access_key_id: text(128).default(''),
  sign_scheme: z.enum(['aliyun', 'none']).default('aliyun'),
  sign_name: text(64).default(''),
  template_code: text(64).default(''),
  /** Extra JSON body fields of a gateway request, with placeholders. */
  body_template: text(4000).default(''),
  retries: z.number().int().min(0).max(10).default(2),
  timeout_ms: z.number().int().min(100).max(60_000).default(5000),
});
export type ChannelConfig = z.infer<typeof channelConfig>;

export const channelInput = z.strictObject({
  name: requiredText(64, 'name'),
  kind: z.enum(channelKinds),
  config: channelConfig,
  enable: z.boolean().default(true),
});
export const channelRow = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(channelKinds),
  /** The secret is never answered: `secret` is '' and `has_secret` says whether one is kept. */
  config: channelConfig,
  has_secret: z.boolean(),
  enable: z.boolean(),
});

// ---------- mail service ----------

/** A mail server: a host name or an IP address, nothing else (no scheme, path, space or port). */
const mailHost = text(255).refine(
  (h) =>
    h === '' ||
    /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(
      h,
    ) ||
    /^\[?[0-9A-Fa-f:.]+\]?$/.test(h),
  { message: msg('host') },
);

export const emailService = z.strictObject({
  host: mailHost.default(''),
  port: z.number().int().min(1).max(65_535).default(25),
  /** 'none' plain, 'starttls', 'tls' (implicit). */
  security: z.enum(['none', 'starttls', 'tls']).default('none'),
  user: text(128).default(''),
  /** Kept when empty on save; never answered. */
  password: text(256).default(''),
  from: email.default(''),
  enable: z.boolean().default(false),
});
export type EmailService = z.infer<typeof emailService>;
export const emailServiceRow = emailService.extend({ has_password: z.boolean() });
export const emailTest = z.strictObject({
  to: z
    .string()
    .trim()
    .email({ message: msg('email') }),
});

// ---------- templates ----------

/** Placeholders: {site} {device} {item} {value} {unit} {level} {info} {time} {state}. */
export const noticeTemplate = z.strictObject({
  subject: requiredText(200, 'template'),
  body: requiredText(4000, 'template'),
});
export type NoticeTemplate = z.infer<typeof noticeTemplate>;
export const defaultNoticeTpl: NoticeTemplate = {
  subject: '[告警] {site} {device} {item}',
  body: '{time} {site} / {device} / {item}: {value}{unit} {info}（级别 {level}）',
};
export const defaultRecoverTpl: NoticeTemplate = {
  subject: '[恢复] {site} {device} {item}',
  body: '{time} {site} / {device} / {item} 已恢复: {value}{unit}',
};

// ---------- notification log ----------

export const notificationLogRow = z.object({
  id: z.number().int(),
  time: z.number().int(),
  alarm_id: z.number().int(),
  item_id: z.number().int(),
  item_name: z.string(),
  device_name: z.string(),
  device_group_name: z.string(),
  state: z.number().int(),
  /** notice, recovery, still_abnormal, summary, escalation, test. */
  action: z.string(),
  channel: z.string(),
  target: z.string(),
  result: z.number().int(),
  detail: z.string(),
  attempts: z.number().int(),
});
export const notificationLogQuery = pageQuery.extend({
  start: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  end: z.coerce.number().int().min(0).max(4_102_444_800).optional(),
  channel: z.string().max(32).optional(),
  result: z.coerce.number().int().min(0).max(1).optional(),
});

const crud = <I extends z.ZodType, R extends z.ZodType>(path: string, what: string, input: I, row: R) => ({
  list: defineRoute({
    method: 'GET',
    path,
    summary: `${what}: list`,
    tags: ['notify'],
    query: pageQuery.extend({ name: z.string().max(64).optional() }),
    response: pageOf(row),
  }),
  one: defineRoute({
    method: 'GET',
    path: `${path}/:id`,
    summary: `${what}: one`,
    tags: ['notify'],
    params: notifyIdParams,
    response: row,
  }),
  create: defineRoute({ method: 'POST', path, summary: `${what}: add`, tags: ['notify'], body: input, response: row }),
  update: defineRoute({
    method: 'PUT',
    path: `${path}/:id`,
    summary: `${what}: change`,
    tags: ['notify'],
    params: notifyIdParams,
    body: input,
    response: row,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${path}/:id`,
    summary: `${what}: delete`,
    tags: ['notify'],
    params: notifyIdParams,
    response: z.null(),
  }),
});

export const notifyRoutes = {
  contacts: crud('setting/contacts', 'Contacts', contactInput, contactRow),
  contactGroups: crud('setting/contact_groups', 'Contact groups', contactGroupInput, contactGroupRow),
  channels: crud('setting/alarm_push', 'Notification channels', channelInput, channelRow),
  channelTest: defineRoute({
    method: 'POST',
    path: 'setting/alarm_push/:id/test',
    summary: 'Send a test message through a channel',
    tags: ['notify'],
    params: notifyIdParams,
    response: z.object({ result: z.number().int(), detail: z.string(), attempts: z.number().int() }),
  }),
  emailService: defineRoute({
    method: 'GET',
    path: 'setting/email_service',
    summary: 'Mail service settings (password never answered)',
    tags: ['notify'],
    response: emailServiceRow,
  }),
  emailServiceUpdate: defineRoute({
    method: 'PUT',
    path: 'setting/email_service',
    summary: 'Change the mail service settings (an empty password keeps the stored one)',
    tags: ['notify'],
    body: emailService,
    response: emailServiceRow,
  }),
  emailServiceTest: defineRoute({
    method: 'POST',
    path: 'setting/email_service',
    summary: 'Send a test e-mail with the stored settings',
    tags: ['notify'],
    body: emailTest,
    response: z.object({ result: z.number().int(), detail: z.string(), attempts: z.number().int() }),
  }),
  noticeTpl: defineRoute({
    method: 'GET',
    path: 'setting/notice_tpl',
    summary: 'Alarm notice template',
    tags: ['notify'],
    response: noticeTemplate,
  }),
  noticeTplUpdate: defineRoute({
    method: 'PUT',
    path: 'setting/notice_tpl',
    summary: 'Change the alarm notice template',
    tags: ['notify'],
    body: noticeTemplate,
    response: noticeTemplate,
  }),
  recoverTpl: defineRoute({
    method: 'GET',
    path: 'setting/recover_tpl',
    summary: 'Recovery notice template',
    tags: ['notify'],
    response: noticeTemplate,
  }),
  recoverTplUpdate: defineRoute({
    method: 'PUT',
    path: 'setting/recover_tpl',
    summary: 'Change the recovery notice template',
    tags: ['notify'],
    body: noticeTemplate,
    response: noticeTemplate,
  }),
  cleanNoticeList: defineRoute({
    method: 'PUT',
    path: 'clean_notice_list',
    summary: 'Drop the queued notices that have not been sent yet',
    tags: ['notify'],
    response: z.object({ dropped: z.number().int() }),
  }),
  notificationLog: defineRoute({
    method: 'GET',
    path: 'notification_log',
    summary: 'Notification log: every attempt with its result',
    tags: ['logs'],
    query: notificationLogQuery,
    response: pageOf(notificationLogRow),
  }),
  notificationLogClear: defineRoute({
    method: 'DELETE',
    path: 'notification_log',
    summary: 'Clear the notification log (verification password required)',
    tags: ['logs'],
    body: z.object({ verify_password: z.string().min(1).max(1024) }),
    response: z.null(),
  }),
};
