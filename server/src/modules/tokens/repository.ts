import type { Insertable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { ApiTokensTable } from '../../db/schema-tokens.ts';

/** Personal API tokens: Kysely only. */
export const createApiTokenRepository = (db: Db) => {
  const k = db.kysely;
  const listed = () =>
    k
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select([
        'api_tokens.id',
        'api_tokens.user_id',
        'users.user_name',
        'api_tokens.name',
        'api_tokens.prefix',
        'api_tokens.read_only',
        'api_tokens.created_at',
        'api_tokens.expires_at',
        'api_tokens.last_used_at',
        'api_tokens.last_used_ip',
      ]);
  return {
    insert: async (row: Insertable<ApiTokensTable>) =>
      (await k.insertInto('api_tokens').values(row).returning('id').executeTakeFirstOrThrow()).id,
    /** Live tokens (not revoked, not expired), of one user or (null) of everyone, newest first. */
    listLive: (userId: number | null, now: number) => {
      let query = listed()
        .where('api_tokens.revoked_at', 'is', null)
        .where('api_tokens.expires_at', '>', now)
        .orderBy('api_tokens.id', 'desc');
      if (userId !== null) query = query.where('api_tokens.user_id', '=', userId);
      return query.execute();
    },
    findListed: (id: number) => listed().where('api_tokens.id', '=', id).executeTakeFirst(),
    countLive: async (userId: number, now: number) =>
      Number(
        (
          await k
            .selectFrom('api_tokens')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('user_id', '=', userId)
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', now)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    find: (id: number) => k.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst(),
    /** The token of a prefix with what authentication needs of its user. */
    findByPrefix: (prefix: string) =>
      k
        .selectFrom('api_tokens')
        .innerJoin('users', 'users.id', 'api_tokens.user_id')
        .select([
          'api_tokens.id',
          'api_tokens.user_id',
          'api_tokens.token_hash',
          'api_tokens.read_only',
          'api_tokens.expires_at',
          'api_tokens.revoked_at',
          'api_tokens.last_used_at',
          'users.user_name',
          'users.enable',
          'users.locked_at',
        ])
        .where('api_tokens.prefix', '=', prefix)
        .executeTakeFirst(),
    touch: (id: number, time: number, ip: string) =>
      k.updateTable('api_tokens').set({ last_used_at: time, last_used_ip: ip }).where('id', '=', id).execute(),
    revoke: async (id: number, time: number) =>
      Number(
        (
          await k
            .updateTable('api_tokens')
            .set({ revoked_at: time })
            .where('id', '=', id)
            .where('revoked_at', 'is', null)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,
    /** Of these token ids, the ones still in force with their user enabled, unlocked and not blocked. */
    liveIds: async (ids: number[], now: number) =>
      (
        await k
          .selectFrom('api_tokens')
          .innerJoin('users', 'users.id', 'api_tokens.user_id')
          .select('api_tokens.id')
          .where('api_tokens.id', 'in', ids)
          .where('api_tokens.revoked_at', 'is', null)
          .where('api_tokens.expires_at', '>', now)
          .where('users.enable', '=', 1)
          .where('users.locked_at', 'is', null)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('account_blocks')
                  .select('account_blocks.user_id')
                  .whereRef('account_blocks.user_id', '=', 'api_tokens.user_id')
                  .where((b) =>
                    b.or([b('account_blocks.expires_at', 'is', null), b('account_blocks.expires_at', '>', now)]),
                  ),
              ),
            ),
          )
          .execute()
      ).map((r) => r.id),
  };
};

export type ApiTokenRepository = ReturnType<typeof createApiTokenRepository>;
