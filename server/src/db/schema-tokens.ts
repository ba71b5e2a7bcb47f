import type { Generated } from 'kysely';

/** Tables of personal API tokens (migration 0013-api-tokens), joined into `Database` in schema.ts. */
export interface ApiTokenTables {
  api_tokens: ApiTokensTable;
}

/** A personal API token: its user, name, public prefix and the SHA-256 digest of the whole token. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** The public part of the token (`swt_<prefix>_<secret>`): finds the row, names it in lists. */
  prefix: string;
  /** SHA-256 (hex) of the whole token; the token itself is never stored. */
  token_hash: string;
  /** 1: the token may only read (GET). */
  read_only: number;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  last_used_ip: string;
  revoked_at: number | null;
}
