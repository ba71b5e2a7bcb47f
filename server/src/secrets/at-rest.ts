import type { AnyArea, SecretDeclaration } from '../area.ts';
import type { Db } from '../db/kysely.ts';
import { mapJsonFields, type SecretBox } from './index.ts';

type Raw = import('kysely').Kysely<Record<string, Record<string, string | number>>>;

/**
 * Rewrites every declared secret's stored text with `rewrite` (null: leave it as it is): the settings
 * rows by key, the other tables row by row. Answers how many rows changed.
 */
export const rewriteDeclaredSecrets = async (
  k: Raw,
  declared: readonly SecretDeclaration[],
  rewrite: (text: string, fields: readonly string[]) => string | null,
): Promise<number> => {
  let changed = 0;
  for (const secret of declared) {
    if ('key' in secret) {
      const row = await k.selectFrom(secret.table).select('v').where('k', '=', secret.key).executeTakeFirst();
      const v = row && rewrite(String(row.v), secret.fields);
      if (!v) continue;
      await k.updateTable(secret.table).set({ v }).where('k', '=', secret.key).execute();
      changed++;
      continue;
    }
    for (const row of await k.selectFrom(secret.table).select(['id', secret.column]).execute()) {
      const value = rewrite(String(row[secret.column]), secret.fields);
      if (value === null) continue;
      await k
        .updateTable(secret.table)
        .set({ [secret.column]: value })
        .where('id', '=', row.id!)
        .execute();
      changed++;
    }
  }
  return changed;
};

/**
 * Encrypts secrets still stored in clear (rows written before encryption at rest, or by an import):
 * every secret the areas declare. Idempotent: encrypted values are left as they are, so it runs at
 * every start on SQLite and PostgreSQL alike, reading and writing only rows that change.
 */
export const encryptStoredSecrets = async (db: Db, secrets: SecretBox, areas: readonly AnyArea[]): Promise<number> => {
  // Raw rows of tables the declarations name: the query builder cannot type a table chosen at run time.
  const k = db.kysely as unknown as Raw;
  /** The sealed text, or null when nothing changes. */
  const seal = (text: string, fields: readonly string[]) => {
    const sealed = mapJsonFields(text, fields, secrets.encrypt);
    return sealed === text || sealed === mapJsonFields(text, [], String) ? null : sealed;
  };
  return rewriteDeclaredSecrets(
    k,
    areas.flatMap((a) => [...(a.secrets ?? [])]),
    seal,
  );
};
