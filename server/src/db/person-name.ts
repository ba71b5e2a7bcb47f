import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * The name a person is shown by: their alias (display name), else their login name, else `stored`
 * (the name written with the row, for a user since removed or the system). Every page that names a
 * person uses it; a login name is shown only where it is the login itself (docs/users.md).
 *
 * @example
 * k.selectFrom('work_order_history as h').leftJoin('users as u', 'u.id', 'h.user_id')
 *   .select(personName('u', sql.ref('h.user_name')).as('user_name'))
 */
export const personName = (
  users: string,
  stored?: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
): RawBuilder<string> =>
  stored === undefined
    ? sql<string>`coalesce(nullif(${sql.ref(`${users}.alias`)}, ''), ${sql.ref(`${users}.user_name`)})`
    : sql<string>`coalesce(nullif(${sql.ref(`${users}.alias`)}, ''), ${sql.ref(`${users}.user_name`)}, ${stored})`;

/**
 * The shown names of these users (alias, else login name), for rows that store a person's id and the
 * name written then: a user missing from the map keeps the stored name.
 */
export const personNames = async (k: Kysely<Database>, ids: readonly number[]): Promise<Map<number, string>> => {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (wanted.length === 0) return new Map();
  const rows = await k
    .selectFrom('users as u')
    .select(['u.id', personName('u').as('name')])
    .where('u.id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
};

/**
 * The shown names of these login names (alias, else the login name), for rows that keep only the
 * login name written then (alarm confirmations, the alarm log): a login missing from the map (a
 * removed user, the system) is shown as stored.
 */
export const personNamesByLogin = async (
  k: Kysely<Database>,
  logins: readonly string[],
): Promise<Map<string, string>> => {
  const wanted = [...new Set(logins.filter((l) => l !== ''))];
  if (wanted.length === 0) return new Map();
  const rows = await k
    .selectFrom('users as u')
    .select(['u.user_name', personName('u').as('name')])
    .where('u.user_name', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.user_name, r.name]));
};
