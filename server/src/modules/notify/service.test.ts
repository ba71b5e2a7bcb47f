import { randomBytes } from 'node:crypto';
import { channelInput, contactGroupInput, contactInput, emailService } from '@sitewatch/contract/notify';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../secrets/index.ts';
import type { ChannelRecord, ContactRecord, GroupRecord, NotifyRepository, Page } from './repository.ts';
import { createNotifyService } from './service.ts';

/** One named table in memory, as the repository's `contacts`, `groups` and `channels` behave. */
const memoryTable = <R extends { id: number }>(rows: R[] = []) => {
  let next = Math.max(0, ...rows.map((r) => r.id)) + 1;
  return {
    rows,
    async list(name: string | undefined, page: Page, ids: number[] | null = null) {
      const found = rows.filter((r) => (!ids || ids.includes(r.id)) && (!name || JSON.stringify(r).includes(name)));
      return { total: found.length, rows: found.slice((page.page - 1) * page.limit, page.page * page.limit) };
    },
    find: async (id: number) => rows.find((r) => r.id === id),
    async insert(values: Omit<R, 'id'> | object) {
      rows.push({ ...values, id: next } as R);
      return next++;
    },
    async update(id: number, values: object) {
      const i = rows.findIndex((r) => r.id === id);
      if (i < 0) return 0;
      rows[i] = { ...rows[i], ...values } as R;
      return 1;
    },
    async remove(id: number) {
      const i = rows.findIndex((r) => r.id === id);
      if (i < 0) return 0;
      rows.splice(i, 1);
      return 1;
    },
  };
};

const contact = (id: number): ContactRecord => ({
  ...contactInput.parse({ name: `contact ${id}` }),
  id,
  duty: 0,
  enable: 1,
});

const fakeWorld = () => {
  const contacts = memoryTable<ContactRecord>([contact(1), contact(2), contact(3)]);
  const groups = memoryTable<GroupRecord>();
  const channels = memoryTable<ChannelRecord>();
  const grants: Array<{ role_id: number; contact_id: number }> = [];
  const repo: NotifyRepository = {
    contacts: {
      ...contacts,
      grant: async (contactId, roleIds) => {
        grants.push(...roleIds.map((role_id) => ({ role_id, contact_id: contactId })));
      },
    },
    groups,
    channels,
    recipient: async () => ({ phone: '', user_name: 'tester' }),
    listLog: async () => {
      throw new Error('the log is not read in these tests');
    },
    clearLog: async () => undefined,
  };
  const settings = new Map<string, unknown>([['email_service', emailService.parse({})]]);
  const published: unknown[] = [];
  const sent: unknown[] = [];
  const service = createNotifyService({
    repo,
    notifier: {
      invalidate: () => undefined,
      drop: () => 0,
      test: async (channel) => {
        sent.push(channel);
        return { result: 1, detail: '', attempts: 1 };
      },
    },
    settings: {
      get: (async (key: string) => settings.get(key)) as never,
      set: (async (key: string, value: unknown) => {
        settings.set(key, value);
      }) as never,
    },
    bus: { publish: (...event: unknown[]) => published.push(event) },
    secrets: createSecretBox(randomBytes(32)),
  });
  return { service, contacts, groups, channels, grants, settings, published, sent };
};

const page = { page: 1, limit: 20 };
const group = (contact_ids: number[]) => contactGroupInput.parse({ name: 'on call', contact_ids });
const webhook = (secret: string, name = 'hook') =>
  channelInput.parse({ name, kind: 'webhook', config: { url: 'https://example.com/hook', secret } });

describe('notify service: contacts of a restricted caller', () => {
  it('lists, reads, edits and deletes only the granted contacts', async () => {
    const { service, contacts } = fakeWorld();
    const listed = await service.listContacts(page, [2]);
    expect(listed.data.map((c) => c.id)).toEqual([2]);
    await expect(service.getContact(1, [2])).rejects.toMatchObject({ name: 'notFound' });
    await expect(service.updateContact(1, contactInput.parse({ name: 'taken' }), [2])).rejects.toMatchObject({
      name: 'notFound',
    });
    await expect(service.removeContact(1, [2])).rejects.toMatchObject({ name: 'notFound' });
    expect(contacts.rows.find((c) => c.id === 1)?.name).toBe('contact 1');
    // An administrator (null) reaches every contact.
    expect((await service.listContacts(page, null)).total).toBe(3);
  });

  it("grants a restricted caller's new contact to their roles, and an administrator's to none", async () => {
    const { service, grants, published } = fakeWorld();
    const mine = await service.createContact(contactInput.parse({ name: 'new' }), [2], [5, 6]);
    expect(grants).toEqual([
      { role_id: 5, contact_id: mine.id },
      { role_id: 6, contact_id: mine.id },
    ]);
    await service.createContact(contactInput.parse({ name: 'admin' }), null, [1]);
    expect(grants).toHaveLength(2);
    expect(published).toContainEqual(['config.changed', { area: 'contact_groups', ids: null }]);
  });
});

describe('notify service: contact group members', () => {
  it('shows a restricted caller only the granted members and keeps the others when they save', async () => {
    const { service, groups } = fakeWorld();
    const { id } = await service.createGroup(group([1, 2, 3]), null);
    expect((await service.getGroup(id, [1, 2])).contact_ids).toEqual([1, 2]);
    const saved = await service.updateGroup(id, group([1]), [1, 2]);
    expect(saved.contact_ids).toEqual([1]);
    // Contact 3 was not shown to the caller, so their save does not drop it.
    expect(JSON.parse(groups.rows[0]!.contact_ids)).toEqual([1, 3]);
  });

  it('refuses a member the caller is not granted, and changes nothing', async () => {
    const { service, groups } = fakeWorld();
    const { id } = await service.createGroup(group([1]), null);
    await expect(service.updateGroup(id, group([1, 3]), [1, 2])).rejects.toMatchObject({
      name: 'badRequest',
      key: 'users.contactNotGranted',
    });
    await expect(service.createGroup(group([3]), [1])).rejects.toMatchObject({ name: 'badRequest' });
    expect(groups.rows.map((g) => g.contact_ids)).toEqual(['[1]']);
  });
});

describe('notify service: secrets', () => {
  it('stores a channel secret sealed, never answers it, and keeps it when an edit leaves it empty', async () => {
    const { service, channels, sent } = fakeWorld();
    const created = await service.createChannel(webhook('s3cret'));
    expect(created.config.secret).toBe('');
    expect(created.has_secret).toBe(true);
    expect(channels.rows[0]!.config).not.toContain('s3cret');
    const edited = await service.updateChannel(created.id, webhook('', 'renamed'));
    expect(edited).toMatchObject({ name: 'renamed', has_secret: true });
    // The notifier still gets the secret the edit did not repeat.
    await (await service.prepareChannelTest(created.id, 1))();
    expect(sent).toMatchObject([{ kind: 'webhook', config: { secret: 's3cret' } }]);
    await service.updateChannel(created.id, webhook('other'));
    await (await service.prepareChannelTest(created.id, 1))();
    expect(sent[1]).toMatchObject({ config: { secret: 'other' } });
  });

  it('keeps the mail password when an edit leaves it empty and never answers it', async () => {
    const { service, settings } = fakeWorld();
    await service.updateMailService(emailService.parse({ host: 'smtp.example.com', password: 'pw' }));
    const row = await service.updateMailService(emailService.parse({ host: 'mail.example.com', password: '' }));
    expect(row).toMatchObject({ host: 'mail.example.com', password: '', has_password: true });
    expect(settings.get('email_service')).toMatchObject({ password: 'pw' });
  });
});

describe('notify service: notification log', () => {
  it('answers nothing to a caller granted no site, without reading the log', async () => {
    const { service } = fakeWorld();
    expect(await service.notificationLog({ page: 1, limit: 20 }, [])).toEqual({ total: 0, data: [] });
  });
});
