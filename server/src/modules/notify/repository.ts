import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { Database } from '../../db/schema.ts';

export type Page = { page: number; limit: number };
type Named = 'contacts' | 'contact_groups' | 'notify_channels';
export type ContactRecord = Selectable<Database['contacts']>;
export type GroupRecord = Selectable<Database['contact_groups']>;
export type ChannelRecord = Selectable<Database['notify_channels']>;

/** What the notification log filters by; `siteIds` null is every site. */
export interface LogFilter {
  siteIds: number[] | null;
  start?: number | undefined;
  end?: number | undefined;
  channel?: string | undefined;
  result?: number | undefined;
}

const like = (s: string) => `%${s.replace(/[%_\\]/g, '')}%`;

/** Contacts, contact groups, channels, the notification log and contact grants: Kysely only. */
export const createNotifyRepository = (db: Db) => {
  const k = db.kysely;

  /**
   * The same list, read, add, change and delete of the three named tables. Kysely cannot type a
   * query over a table chosen at run time, so the builder is typed as the contacts table's and each
   * use below states its own row type.
   */
  const named = <R extends { id: number }, V>(table: Named) => {
    const t = table as 'contacts';
    return {
      async list(name: string | undefined, page: Page, ids: number[] | null = null) {
        let q = k.selectFrom(t);
        if (ids) q = q.where('id', 'in', [0, ...ids]);
        if (name) q = q.where('name', 'like', like(name));
        const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
        const rows = await q
          .selectAll()
          .orderBy('id')
          .limit(page.limit)
          .offset((page.page - 1) * page.limit)
          .execute();
        return { total: Number(total?.n ?? 0), rows: rows as unknown as R[] };
      },
      find: async (id: number) =>
        (await k.selectFrom(t).selectAll().where('id', '=', id).executeTakeFirst()) as R | undefined,
      insert: async (values: V) =>
        (
          await k
            .insertInto(t)
            .values(values as Insertable<Database['contacts']>)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      /** The number of rows changed (0: no such row). */
      update: async (id: number, values: V) =>
        Number(
          (
            await k
              .updateTable(t)
              .set(values as Updateable<Database['contacts']>)
              .where('id', '=', id)
              .executeTakeFirst()
          ).numUpdatedRows,
        ),
      /** The number of rows deleted (0: no such row). */
      remove: async (id: number) =>
        Number((await k.deleteFrom(t).where('id', '=', id).executeTakeFirst()).numDeletedRows),
    };
  };
  const contacts = named<ContactRecord, Insertable<Database['contacts']>>('contacts');

  /** The items of these sites, whose log entries a restricted caller sees and clears. */
  const itemsOf = (siteIds: number[]) =>
    k
      .selectFrom('items')
      .innerJoin('devices', 'devices.id', 'items.device_id')
      .select('items.id')
      .where('devices.device_group_id', 'in', siteIds.length ? siteIds : [0]);

  return {
    contacts: {
      ...contacts,
      /** Deletes a contact with its grants; the number of contacts deleted. */
      async remove(id: number) {
        const n = await contacts.remove(id);
        if (n > 0) await k.deleteFrom('role_contacts').where('contact_id', '=', id).execute();
        return n;
      },
      /** Grants a contact to these roles. */
      async grant(contactId: number, roleIds: number[]) {
        if (roleIds.length === 0) return;
        await k
          .insertInto('role_contacts')
          .values(roleIds.map((role_id) => ({ role_id, contact_id: contactId })))
          .execute();
      },
    },
    groups: named<GroupRecord, Insertable<Database['contact_groups']>>('contact_groups'),
    channels: named<ChannelRecord, Insertable<Database['notify_channels']>>('notify_channels'),

    /** Where a test message to this user goes. */
    recipient: (userId: number) =>
      k.selectFrom('users').select(['phone', 'user_name']).where('id', '=', userId).executeTakeFirst(),

    async listLog(f: LogFilter, page: Page) {
      let q = k.selectFrom('notification_logs');
      if (f.siteIds !== null) q = q.where('item_id', 'in', itemsOf(f.siteIds));
      if (f.start !== undefined) q = q.where('time', '>=', f.start);
      if (f.end !== undefined) q = q.where('time', '<=', f.end);
      if (f.channel) q = q.where('channel', '=', f.channel);
      if (f.result !== undefined) q = q.where('result', '=', f.result);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q
        .selectAll()
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset((page.page - 1) * page.limit)
        .execute();
      return { total: Number(total?.n ?? 0), rows };
    },
    /** Clears the log entries of these sites' items (null: every entry). */
    clearLog: async (siteIds: number[] | null) => {
      let q = k.deleteFrom('notification_logs');
      if (siteIds !== null) q = q.where('item_id', 'in', itemsOf(siteIds));
      await q.execute();
    },
  };
};

export type NotifyRepository = ReturnType<typeof createNotifyRepository>;
