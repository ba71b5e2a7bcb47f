import { type AlarmCommons, alarmCommons, defaultAlarmCommons } from '@sitewatch/contract/alarms';
import {
  defaultNoticeTpl,
  defaultRecoverTpl,
  type EmailService,
  emailService,
  type NoticeTemplate,
  noticeTemplate,
} from '@sitewatch/contract/notify';
import type { z } from 'zod';
import type { EventBus } from '../bus/bus.ts';
import { announceAtOnce } from '../db/changes.ts';
import type { Db } from '../db/kysely.ts';
import { createSettingsStore, type SettingsStore } from '../db/settings-store.ts';
import type { SecretBox } from '../secrets/index.ts';

interface Values {
  commons: AlarmCommons;
  email_service: EmailService;
  notice_tpl: NoticeTemplate;
  recover_tpl: NoticeTemplate;
}
export type AlarmSettingKey = keyof Values;

const schemas: { [K in AlarmSettingKey]: z.ZodType<Values[K]> } = {
  commons: alarmCommons as unknown as z.ZodType<AlarmCommons>,
  email_service: emailService as unknown as z.ZodType<EmailService>,
  notice_tpl: noticeTemplate,
  recover_tpl: noticeTemplate,
};
const defaults: Values = {
  commons: defaultAlarmCommons,
  email_service: emailService.parse({}),
  notice_tpl: defaultNoticeTpl,
  recover_tpl: defaultRecoverTpl,
};

/**
 * Alarm and notification settings (alarm commons, mail service, templates) as JSON by key in
 * `alarm_settings`, cached: the engine reads them for every transition.
 */
export type AlarmSettings = SettingsStore<Values>;

/** Fields kept encrypted in the row (the cache and every reader see them in clear). */
export const alarmSettingSecrets: Partial<Record<AlarmSettingKey, string[]>> = { email_service: ['password'] };

export const createAlarmSettings = (
  db: Db,
  clock: () => number = Date.now,
  secrets?: SecretBox | undefined,
  bus?: Pick<EventBus, 'publish'>,
): AlarmSettings =>
  createSettingsStore<Values>({
    db,
    table: 'alarm_settings',
    schemas,
    defaults,
    secretFields: alarmSettingSecrets,
    secrets,
    clock,
    // The alarm engine (and, with several instances, every other process) re-reads on a change.
    announce: { changes: announceAtOnce(bus), topic: 'alarm_settings' },
  });
