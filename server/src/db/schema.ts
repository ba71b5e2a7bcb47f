import type { Generated } from 'kysely';

/**
 * The tables, as Kysely sees them. Each area adds its tables here and in a migration of its own.
 * Column names follow the spec's field names (snake_case); times are epoch seconds.
 */
export interface Database {
  global_config: GlobalConfigTable;
}

/** Global configuration values by key (000 §7 `setting/gc`: ACCOUNT_SAFE, PWD_COMPLEXITY, …). */
export interface GlobalConfigTable {
  id: Generated<number>;
  k: string;
  /** JSON text. */
  v: string;
  updated_at: number;
}
