import { deviceSecretFields } from '@sitewatch/contract/monitoring';
import { alarmSettingSecrets } from '../alarms/settings.ts';
import type { Db } from '../db/kysely.ts';
import { globalConfigSecrets } from '../modules/global-config/index.ts';
import { mapJsonFields, type SecretBox } from './index.ts';

/**
 * Encrypts secrets still stored in clear (rows written before encryption at rest, or by an import).
 * Idempotent: encrypted values are left as they are, so it runs at every start on SQLite and
 * PostgreSQL alike, reading and writing only rows that change.
 */
export const encryptStoredSecrets = async (db: Db, secrets: SecretBox): Promise<number> => {
  const k = db.kysely;
  let changed = 0;
  /** The sealed text, or null when nothing changes. */
  const seal = (text: string, fields: readonly string[]) => {
    const sealed = mapJsonFields(text, fields, secrets.encrypt);
    return sealed === text || sealed === mapJsonFields(text, [], String) ? null : sealed;
  };
  for (const d of await k.selectFrom('devices').select(['id', 'options']).execute()) {
    const options = seal(d.options, deviceSecretFields);
    if (options === null) continue;
    await k.updateTable('devices').set({ options }).where('id', '=', d.id).execute();
    changed++;
  }
  for (const c of await k.selectFrom('notify_channels').select(['id', 'config']).execute()) {
    const config = seal(c.config, ['secret']);
    if (config === null) continue;
    await k.updateTable('notify_channels').set({ config }).where('id', '=', c.id).execute();
    changed++;
  }
  for (const [key, fields] of Object.entries(alarmSettingSecrets)) {
    const row = await k.selectFrom('alarm_settings').select('v').where('k', '=', key).executeTakeFirst();
    const v = row && seal(row.v, fields);
    if (!v) continue;
    await k.updateTable('alarm_settings').set({ v }).where('k', '=', key).execute();
    changed++;
  }
  for (const [key, fields] of Object.entries(globalConfigSecrets)) {
    const row = await k.selectFrom('global_config').select('v').where('k', '=', key).executeTakeFirst();
    const v = row && seal(row.v, fields);
    if (!v) continue;
    await k.updateTable('global_config').set({ v }).where('k', '=', key).execute();
    changed++;
  }
  return changed;
};
