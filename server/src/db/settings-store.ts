import type { ConfigArea } from '@sitewatch/contract/events';
import type { z } from 'zod';
import { mapJsonFields, type SecretBox } from '../secrets/index.ts';
import type { Changes } from './changes.ts';
import type { Db } from './kysely.ts';

/** The key/JSON tables: `k` text primary key, `v` JSON text, `updated_at` epoch seconds. */
type SettingsTable = 'global_config' | 'alarm_settings' | 'module_settings';

export interface SettingsStore<V> {
  /** The stored value merged over its default (a value that no longer parses reads as the default). */
  get<K extends keyof V & string>(key: K): Promise<V[K]>;
  /** The cached value (the default until the first `get`): for hot paths that cannot wait. */
  peek<K extends keyof V & string>(key: K): V[K];
  /** Validates, stores (secret fields encrypted) and caches. */
  set<K extends keyof V & string>(key: K, value: V[K]): Promise<void>;
  /**
   * Re-reads every cached key from its row: after a restore replaced the rows underneath
   * (docs/maintenance.md), an area's `reload` calls it so readers see the restored values.
   */
  reload(): Promise<void>;
}

/**
 * One typed settings store over a key/JSON table, cached (logins, requests and the alarm engine
 * read settings constantly). Fields named in `secretFields` are encrypted in the row; the cache
 * and every reader see them in clear.
 */
export const createSettingsStore = <V extends object>(options: {
  db: Db;
  table: SettingsTable;
  schemas: { [K in keyof V]: z.ZodType<V[K]> };
  defaults: V;
  secretFields?: Partial<Record<keyof V, string[]>>;
  secrets?: SecretBox | undefined;
  clock?: () => number;
  /** Announces every `set` under this topic (consumers that keep the values elsewhere re-read). */
  announce?: { changes: Changes; topic: ConfigArea } | undefined;
}): SettingsStore<V> => {
  const { db, table, schemas, defaults } = options;
  const cache = new Map<keyof V, unknown>();
  // Bumped by every `set`: a read that began before a write does not cache the value it replaced.
  const writes = new Map<keyof V, number>();
  const seal = (key: keyof V, v: string, f: 'encrypt' | 'decrypt') => {
    const fields = options.secretFields?.[key];
    return options.secrets && fields ? mapJsonFields(v, fields, options.secrets[f]) : v;
  };
  const read = async <K extends keyof V & string>(key: K): Promise<V[K]> => {
    const before = writes.get(key) ?? 0;
    const row = await db.kysely.selectFrom(table).select('v').where('k', '=', key).executeTakeFirst();
    let value = defaults[key];
    if (row) {
      try {
        const parsed = schemas[key].safeParse({ ...defaults[key], ...JSON.parse(seal(key, row.v, 'decrypt')) });
        if (parsed.success) value = parsed.data;
      } catch {
        // unreadable: the default
      }
    }
    if ((writes.get(key) ?? 0) !== before) return cache.get(key) as V[K];
    cache.set(key, value);
    return value;
  };
  return {
    get: (key) => (cache.has(key) ? Promise.resolve(cache.get(key) as V[typeof key]) : read(key)),
    async reload() {
      for (const key of [...cache.keys()] as (keyof V & string)[]) await read(key);
    },
    peek: (key) => (cache.has(key) ? cache.get(key) : defaults[key]) as V[typeof key],
    async set(key, value) {
      const clear = JSON.stringify(schemas[key].parse(value));
      const v = seal(key, clear, 'encrypt');
      const updated_at = Math.floor((options.clock ?? Date.now)() / 1000);
      await db.kysely
        .insertInto(table)
        .values({ k: key, v, updated_at })
        .onConflict((oc) => oc.column('k').doUpdateSet({ v, updated_at }))
        .execute();
      writes.set(key, (writes.get(key) ?? 0) + 1);
      cache.set(key, JSON.parse(clear));
      options.announce?.changes.note(options.announce.topic, null);
    },
  };
};
