import { deviceSecretFields } from '@sitewatch/contract/monitoring';
import type { Db } from '../db/kysely.ts';
import { mapJsonFields, type SecretBox } from './index.ts';

/**
 * Encrypts secrets still stored in clear (rows written before encryption at rest, or by an import).
 * Idempotent: encrypted values are left as they are, so it runs at every start on SQLite and
 * PostgreSQL alike, reading and writing only rows that change.
 */
export const encryptStoredSecrets = async (db: Db, secrets: SecretBox): Promise<number> => {
  let changed = 0;
  const devices = await db.kysely.selectFrom('devices').select(['id', 'options']).execute();
  for (const d of devices) {
    const options = mapJsonFields(d.options, deviceSecretFields, secrets.encrypt);
    if (options === d.options || options === JSON.stringify(JSON.parse(d.options))) continue;
    await db.kysely.updateTable('devices').set({ options }).where('id', '=', d.id).execute();
    changed++;
  }
  return changed;
};
