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
import type { Db } from '../db/kysely.ts';
import { mapJsonFields, type SecretBox } from '../secrets/index.ts';

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
export interface AlarmSettings {
  get<K extends AlarmSettingKey>(key: K): Promise<Values[K]>;
  /** The cached value (defaults until the first `get`); for the per-sample path. */
  peek<K extends AlarmSettingKey>(key: K): Values[K];
  set<K extends AlarmSettingKey>(key: K, value: Values[K]): Promise<void>;
}

/** Fields kept encrypted in the row (the cache and every reader see them in clear). */
export const alarmSettingSecrets: Partial<Record<AlarmSettingKey, string[]>> = { email_service: ['password'] };

export const createAlarmSettings = (
  db: Db,
  clock: () => number = Date.now,
  secrets?: SecretBox | undefined,
): AlarmSettings => {
  const cache = new Map<AlarmSettingKey, unknown>();
  const seal = (key: AlarmSettingKey, v: string, f: 'encrypt' | 'decrypt') => {
    const fields = alarmSettingSecrets[key];
    return secrets && fields ? mapJsonFields(v, fields, secrets[f]) : v;
  };
  const get = async <K extends AlarmSettingKey>(key: K): Promise<Values[K]> => {
    if (cache.has(key)) return cache.get(key) as Values[K];
    const row = await db.kysely.selectFrom('alarm_settings').select('v').where('k', '=', key).executeTakeFirst();
    let value: Values[K] = defaults[key];
    if (row) {
      try {
        const parsed = schemas[key].safeParse({ ...defaults[key], ...JSON.parse(seal(key, row.v, 'decrypt')) });
        if (parsed.success) value = parsed.data;
      } catch {
        // an unreadable value falls back to the default
      }
    }
    cache.set(key, value);
    return value;
  };
  return {
    get,
    peek: (key) => (cache.get(key) ?? defaults[key]) as Values[typeof key],
    async set(key, value) {
      const clear = JSON.stringify(schemas[key].parse(value));
      const v = seal(key, clear, 'encrypt');
      const updated_at = Math.floor(clock() / 1000);
      await db.kysely
        .insertInto('alarm_settings')
        .values({ k: key, v, updated_at })
        .onConflict((oc) => oc.column('k').doUpdateSet({ v, updated_at }))
        .execute();
      cache.set(key, JSON.parse(clear));
    },
  };
};
