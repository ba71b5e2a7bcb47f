import { readIdList } from '../../db/json.ts';
import type { Db } from '../../db/kysely.ts';

/** A contact group as another area may show and choose it: who (how many) and by which channels. */
export interface ContactGroupChoice {
  id: number;
  name: string;
  /** Contacts in the group. */
  contacts: number;
  /** `email`, `sms`, `voice` (the group's own switches), then its enabled push channels by kind and name. */
  channels: { kind: string; name: string }[];
}

/**
 * What the notify area offers others of its contact groups (`contactGroups`): the list to choose one
 * from and whether one exists. Notices to a group go through the notifier (`notifier.enqueue`, or an
 * alarm's `contact_group_id`), which reaches the group's contacts by the group's channels.
 */
export const createContactGroups = (db: Db) => {
  const k = db.kysely;
  return {
    async list(): Promise<ContactGroupChoice[]> {
      const groups = await k.selectFrom('contact_groups').selectAll().orderBy('id').execute();
      const channels = await k.selectFrom('notify_channels').select(['id', 'name', 'kind', 'enable']).execute();
      return groups.map((g) => {
        const own = (['email', 'sms', 'voice'] as const).filter((c) => g[c] === 1).map((c) => ({ kind: c, name: '' }));
        const pushed = readIdList(g.channel_ids)
          .map((id) => channels.find((c) => c.id === id && c.enable === 1))
          .filter((c) => c !== undefined)
          .map((c) => ({ kind: c.kind, name: c.name }));
        return { id: g.id, name: g.name, contacts: readIdList(g.contact_ids).length, channels: [...own, ...pushed] };
      });
    },
    /** The group's name, or null when there is no such group. */
    async nameOf(id: number): Promise<string | null> {
      const g = await k.selectFrom('contact_groups').select('name').where('id', '=', id).executeTakeFirst();
      return g?.name ?? null;
    },
  };
};
export type ContactGroups = ReturnType<typeof createContactGroups>;
