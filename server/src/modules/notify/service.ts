import {
  type ChannelConfig,
  type ContactGroupRow,
  type ContactRow,
  channelConfig,
  type channelInput,
  type contactGroupInput,
  type contactInput,
  type EmailService,
  type NoticeTemplate,
  type notificationLogQuery,
} from '@sitewatch/contract/notify';
import type { z } from 'zod';
import type { AlarmSettings } from '../../alarms/settings.ts';
import type { EventBus } from '../../bus/bus.ts';
import { readIdList, readJson } from '../../db/json.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { Notifier } from '../../notify/notifier.ts';
import { mapJsonFields, type SecretBox } from '../../secrets/index.ts';
import type { ChannelRecord, ContactRecord, GroupRecord, NotifyRepository, Page } from './repository.ts';

export interface NotifyServiceDeps {
  repo: NotifyRepository;
  notifier: Pick<Notifier, 'invalidate' | 'test' | 'drop'>;
  settings: Pick<AlarmSettings, 'get' | 'set'>;
  /** Told when contacts, groups or channels change (the alarm engine reads escalation settings from groups). */
  bus: Pick<EventBus, 'publish'>;
  /** Channel secrets are stored encrypted; the notifier decrypts them to send. */
  secrets: SecretBox;
}

/**
 * The contacts a caller may see and manage, from the contact grants of their roles (docs/users.md):
 * null for every contact (user 1 and role 1).
 */
export type GrantedContacts = number[] | null;
type ContactInput = z.output<typeof contactInput>;
type GroupInput = z.output<typeof contactGroupInput>;
type ChannelInput = z.output<typeof channelInput>;
type NamedPage = Page & { name?: string | undefined };
type LogQuery = z.output<typeof notificationLogQuery>;

const flag = (b: boolean) => (b ? 1 : 0);
const invalidConfig = channelConfig.parse({ url: 'http://invalid' });

const contactRow = (c: ContactRecord): ContactRow => ({ ...c, duty: c.duty === 1, enable: c.enable === 1 });
const contactValues = (b: ContactInput) => ({ ...b, duty: flag(b.duty), enable: flag(b.enable) });
const groupRow = (g: GroupRecord): ContactGroupRow => ({
  ...g,
  contact_ids: readIdList(g.contact_ids),
  channel_ids: readIdList(g.channel_ids),
  email: g.email === 1,
  sms: g.sms === 1,
  voice: g.voice === 1,
});
const groupValues = (b: GroupInput) => ({
  ...b,
  contact_ids: JSON.stringify([...new Set(b.contact_ids)]),
  channel_ids: JSON.stringify([...new Set(b.channel_ids)]),
  email: flag(b.email),
  sms: flag(b.sms),
  voice: flag(b.voice),
});

/**
 * Contacts, contact groups, channels, the mail service, templates and the notification log: the
 * rules of each (contact grants, secrets kept, log scoping by site) over the repository.
 */
export const createNotifyService = (deps: NotifyServiceDeps) => {
  const { repo, settings } = deps;
  const changed = () => {
    deps.notifier.invalidate();
    deps.bus.publish('config.changed', { area: 'contact_groups', ids: null });
  };
  const mayUse = (granted: GrantedContacts, id: number) => granted === null || granted.includes(id);

  // ---------- contact groups ----------
  /** A restricted caller sees only the granted members of a group. */
  const visibleGroup = (g: GroupRecord, granted: GrantedContacts) => {
    const row = groupRow(g);
    return granted ? { ...row, contact_ids: row.contact_ids.filter((id) => granted.includes(id)) } : row;
  };
  /**
   * Members a restricted caller may set: only granted contacts (400 otherwise); members they cannot see
   * stay in the group, so saving never drops what the caller was not shown.
   */
  const groupMembers = (granted: GrantedContacts, wanted: number[], current: number[]) => {
    if (granted === null) return wanted;
    if (wanted.some((id) => !granted.includes(id))) throw badRequest('users.contactNotGranted');
    return [...wanted, ...current.filter((id) => !granted.includes(id))];
  };
  const groupOrThrow = async (id: number) => {
    const g = await repo.groups.find(id);
    if (!g) throw notFound();
    return g;
  };

  // ---------- channels ----------
  const openConfig = (text: string): ChannelConfig =>
    readJson(mapJsonFields(text, ['secret'], deps.secrets.decrypt), channelConfig, invalidConfig);
  const sealConfig = (config: ChannelConfig) => mapJsonFields(JSON.stringify(config), ['secret'], deps.secrets.encrypt);
  /** Secrets are never answered: '' plus a "set" flag. */
  const channelRow = (c: ChannelRecord) => {
    const config = openConfig(c.config);
    return {
      id: c.id,
      name: c.name,
      kind: c.kind as 'webhook',
      config: { ...config, secret: '' },
      has_secret: config.secret !== '',
      enable: c.enable === 1,
    };
  };
  const channelValues = (b: ChannelInput, config: ChannelConfig) => ({
    name: b.name,
    kind: b.kind,
    config: sealConfig(config),
    enable: flag(b.enable),
  });
  const channelOrThrow = async (id: number) => {
    const c = await repo.channels.find(id);
    if (!c) throw notFound();
    return c;
  };

  // ---------- mail service ----------
  const mailRow = async () => {
    const s = await settings.get('email_service');
    return { ...s, password: '', has_password: s.password !== '' };
  };

  return {
    // ---------- contacts ----------
    async listContacts(query: NamedPage, granted: GrantedContacts) {
      const { total, rows } = await repo.contacts.list(query.name, query, granted);
      return { total, data: rows.map(contactRow) };
    },
    async getContact(id: number, granted: GrantedContacts) {
      const c = await repo.contacts.find(id);
      if (!c || !mayUse(granted, c.id)) throw notFound();
      return contactRow(c);
    },
    /** A restricted caller's new contact is granted to their roles (`roleIds`), or it would vanish from their list. */
    async createContact(body: ContactInput, granted: GrantedContacts, roleIds: number[]) {
      const id = await repo.contacts.insert(contactValues(body));
      if (granted !== null) await repo.contacts.grant(id, roleIds);
      changed();
      return contactRow((await repo.contacts.find(id))!);
    },
    async updateContact(id: number, body: ContactInput, granted: GrantedContacts) {
      if (!mayUse(granted, id)) throw notFound();
      if ((await repo.contacts.update(id, contactValues(body))) === 0) throw notFound();
      changed();
      return contactRow((await repo.contacts.find(id))!);
    },
    async removeContact(id: number, granted: GrantedContacts) {
      if (!mayUse(granted, id)) throw notFound();
      if ((await repo.contacts.remove(id)) === 0) throw notFound();
      changed();
    },

    // ---------- contact groups ----------
    async listGroups(query: NamedPage, granted: GrantedContacts) {
      const { total, rows } = await repo.groups.list(query.name, query);
      return { total, data: rows.map((g) => visibleGroup(g, granted)) };
    },
    getGroup: async (id: number, granted: GrantedContacts) => visibleGroup(await groupOrThrow(id), granted),
    async createGroup(body: GroupInput, granted: GrantedContacts) {
      const contact_ids = groupMembers(granted, body.contact_ids, []);
      const id = await repo.groups.insert(groupValues({ ...body, contact_ids }));
      changed();
      return visibleGroup((await repo.groups.find(id))!, granted);
    },
    async updateGroup(id: number, body: GroupInput, granted: GrantedContacts) {
      const current = await groupOrThrow(id);
      const contact_ids = groupMembers(granted, body.contact_ids, readIdList(current.contact_ids));
      await repo.groups.update(id, groupValues({ ...body, contact_ids }));
      changed();
      return visibleGroup((await repo.groups.find(id))!, granted);
    },
    async removeGroup(id: number) {
      if ((await repo.groups.remove(id)) === 0) throw notFound();
      changed();
    },

    // ---------- channels ----------
    async listChannels(query: NamedPage) {
      const { total, rows } = await repo.channels.list(query.name, query);
      return { total, data: rows.map(channelRow) };
    },
    getChannel: async (id: number) => channelRow(await channelOrThrow(id)),
    async createChannel(body: ChannelInput) {
      const id = await repo.channels.insert(channelValues(body, body.config));
      changed();
      return channelRow((await repo.channels.find(id))!);
    },
    async updateChannel(id: number, body: ChannelInput) {
      const old = await channelOrThrow(id);
      // An empty secret keeps the stored one (secrets are never answered).
      const config = { ...body.config, secret: body.config.secret || openConfig(old.config).secret };
      await repo.channels.update(id, channelValues(body, config));
      changed();
      return channelRow((await repo.channels.find(id))!);
    },
    async removeChannel(id: number) {
      if ((await repo.channels.remove(id)) === 0) throw notFound();
      changed();
    },
    /**
     * A test message through a channel to the caller (phone for sms and voice): checks the channel,
     * then answers the send to run, so the caller can record the attempt before it goes.
     */
    async prepareChannelTest(id: number, userId: number) {
      const c = await channelOrThrow(id);
      const user = await repo.recipient(userId);
      return () =>
        deps.notifier.test(
          { kind: c.kind as 'webhook', config: openConfig(c.config) },
          { address: c.kind === 'sms' || c.kind === 'voice' ? (user?.phone ?? '') : '', name: user?.user_name ?? '' },
        );
    },

    // ---------- mail service and templates ----------
    mailService: mailRow,
    /** An empty password keeps the stored one (it is never answered). */
    async updateMailService(body: EmailService) {
      const old = await settings.get('email_service');
      await settings.set('email_service', { ...body, password: body.password || old.password });
      return mailRow();
    },
    testMailService: async (to: string) =>
      deps.notifier.test({ kind: 'email', config: await settings.get('email_service') }, { address: to, name: '' }),
    template: (key: 'notice_tpl' | 'recover_tpl') => settings.get(key),
    async setTemplate(key: 'notice_tpl' | 'recover_tpl', body: NoticeTemplate) {
      await settings.set(key, body);
      return settings.get(key);
    },
    /** Drops queued notices not yet sent, of the caller's sites (null: every one); how many. */
    dropNotices: (sites: number[] | null) => deps.notifier.drop(sites),

    // ---------- notification log ----------
    /** Limited to the items of the caller's granted sites (`sites` null: all). */
    async notificationLog(query: LogQuery, sites: number[] | null) {
      if (sites !== null && sites.length === 0) return { total: 0, data: [] };
      const { total, rows } = await repo.listLog(
        { siteIds: sites, start: query.start, end: query.end, channel: query.channel, result: query.result },
        query,
      );
      return { total, data: rows };
    },
    /** A restricted caller clears the entries of their own sites' items only. */
    clearNotificationLog: (sites: number[] | null) => repo.clearLog(sites),
  };
};

export type NotifyService = ReturnType<typeof createNotifyService>;
