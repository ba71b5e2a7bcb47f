import type { Selectable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { UsersTable } from '../../db/schema.ts';

export type LocalUser = Selectable<UsersTable>;

/** What an LDAP user brings from the directory into the local account. */
export interface DirectoryProfile {
  user_name: string;
  alias: string;
  email: string;
  phone: string;
}

/** Local users, roles and user groups as LDAP import and login need them: Kysely only. */
export const createLdapRepository = (db: Db) => {
  const k = db.kysely;
  return {
    findUserById: (id: number) => k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    findUserByName: (user_name: string) =>
      k.selectFrom('users').selectAll().where('user_name', '=', user_name).executeTakeFirst(),
    /** Local users of these names: id and login type. */
    usersByNames: async (names: string[]) =>
      names.length === 0
        ? []
        : k.selectFrom('users').select(['id', 'user_name', 'login_type']).where('user_name', 'in', names).execute(),
    existingRoleIds: async (ids: number[]) =>
      ids.length === 0
        ? []
        : (await k.selectFrom('roles').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
    userGroupExists: async (id: number) =>
      (await k.selectFrom('user_groups').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,
    /**
     * Makes a local user of login type 2 with its roles and user group in one transaction. Its
     * password hash verifies no password (the directory checks passwords). Null when the name is
     * taken meanwhile.
     */
    insertLdapUser: (
      profile: DirectoryProfile,
      passwordHash: string,
      roleIds: number[],
      groupId: number,
      time: number,
    ) =>
      k.transaction().execute(async (tx) => {
        const inserted = await tx
          .insertInto('users')
          .values({
            ...profile,
            password_hash: passwordHash,
            password_changed_at: time,
            must_change_password: 0,
            pwd_always_valid: 1,
            enable: 1,
            login_type: 2,
            language: 'zh_cn',
            locked_at: null,
            lock_reason: null,
            created_at: time,
            updated_at: time,
          })
          .onConflict((oc) => oc.column('user_name').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) return null;
        const { id } = inserted;
        await tx
          .insertInto('user_roles')
          .values(roleIds.map((role_id) => ({ user_id: id, role_id })))
          .execute();
        await tx.insertInto('user_user_groups').values({ user_id: id, group_id: groupId }).execute();
        return id;
      }),
    /** Keeps an LDAP user's name, e-mail and phone as the directory has them. */
    updateProfile: (id: number, profile: Omit<DirectoryProfile, 'user_name'>, time: number) =>
      k
        .updateTable('users')
        .set({ ...profile, updated_at: time })
        .where('id', '=', id)
        .where('login_type', '=', 2)
        .execute(),
  };
};

export type LdapRepository = ReturnType<typeof createLdapRepository>;
