import { alarmMenus as m } from '@sitewatch/contract/alarms';
import { type ChannelConfig, channelConfig, notifyRoutes as r } from '@sitewatch/contract/notify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AlarmSettings } from '../../alarms/settings.ts';
import type { EventBus } from '../../bus/bus.ts';
import { readIdList } from '../../db/json.ts';
import type { Db } from '../../db/kysely.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { Notifier } from '../../notify/notifier.ts';
import { mapJsonFields, type SecretBox } from '../../secrets/index.ts';
import type { AuditLog } from '../audit/index.ts';
import type { AuthService } from '../auth/index.ts';

export interface NotifyDeps {
  db: Db;
  notifier: Notifier;
  settings: AlarmSettings;
  audit: AuditLog;
  auth: Pick<AuthService, 'verifyOwnPassword'>;
  /** Told when contact groups change (the alarm engine reads escalation settings from them). */
  bus: Pick<EventBus, 'publish'>;
  /** Channel secrets are stored encrypted; the notifier decrypts them to send. */
  secrets: SecretBox;
}

const like = (s: string) => `%${s.replace(/[%_\\]/g, '')}%`;

/**
 * Notification routes: contacts, contact groups, channels (/alarm_push), the mail service with a
 * test send, notice and recovery templates, the notification log and clean_notice_list.
 */
export const registerNotify = (app: FastifyInstance, deps: NotifyDeps) => {
  const k = deps.db.kysely;
  const audit = (request: FastifyRequest, action: string, target: string) =>
    deps.audit.write({ module: 'notify', action, target, success: true }, request);
  const changed = async () => {
    deps.notifier.invalidate();
    deps.bus.publish('config.changed', { area: 'contact_groups', ids: null });
  };

  // ---------- contacts ----------
  // Contact grants of the caller's roles decide which contacts they see and manage (docs/users.md).
  const grantedContacts = (request: FastifyRequest) => request.server.access.contacts(request);
  const mayUseContact = async (request: FastifyRequest, id: number) => {
    const granted = await grantedContacts(request);
    return granted === null || granted.includes(id);
  };
  type ContactRecord = Awaited<ReturnType<typeof findContact>>;
  const findContact = (id: number) => k.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirst();
  const contactRow = (c: NonNullable<ContactRecord>) => ({ ...c, duty: c.duty === 1, enable: c.enable === 1 });
  addRoute(
    app,
    r.contacts.list,
    async ({ query, request }) => {
      let q = k.selectFrom('contacts');
      const granted = await grantedContacts(request);
      if (granted) q = q.where('id', 'in', [0, ...granted]);
      if (query.name) q = q.where('name', 'like', like(query.name));
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q
        .selectAll()
        .orderBy('id')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute();
      return { total: Number(total?.n ?? 0), data: rows.map(contactRow) };
    },
    { permission: { menu: m.contacts, func: 'view' } },
  );
  addRoute(
    app,
    r.contacts.one,
    async ({ params, request }) => {
      const c = await findContact(params.id);
      if (!c || !(await mayUseContact(request, c.id))) throw notFound();
      return contactRow(c);
    },
    { permission: { menu: m.contacts, func: 'view' } },
  );
  const contactValues = (b: import('zod').infer<typeof import('@sitewatch/contract/notify').contactInput>) => ({
    ...b,
    duty: b.duty ? 1 : 0,
    enable: b.enable ? 1 : 0,
  });
  addRoute(
    app,
    r.contacts.create,
    async ({ body, request }) => {
      const { id } = await k
        .insertInto('contacts')
        .values(contactValues(body))
        .returning('id')
        .executeTakeFirstOrThrow();
      // A restricted user's new contact is granted to their roles, or it would vanish from their list.
      if ((await grantedContacts(request)) !== null) {
        const { roleIds } = await request.server.access.forUser(request.principal?.user_id ?? 0);
        if (roleIds.length)
          await k
            .insertInto('role_contacts')
            .values(roleIds.map((role_id) => ({ role_id, contact_id: id })))
            .execute();
      }
      await audit(request, 'add', `contact ${id}`);
      await changed();
      return contactRow((await findContact(id))!);
    },
    { permission: { menu: m.contacts, func: 'add' } },
  );
  addRoute(
    app,
    r.contacts.update,
    async ({ params, body, request }) => {
      if (!(await mayUseContact(request, params.id))) throw notFound();
      const res = await k
        .updateTable('contacts')
        .set(contactValues(body))
        .where('id', '=', params.id)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw notFound();
      await audit(request, 'edit', `contact ${params.id}`);
      await changed();
      return contactRow((await findContact(params.id))!);
    },
    { permission: { menu: m.contacts, func: 'edit' } },
  );
  addRoute(
    app,
    r.contacts.remove,
    async ({ params, request }) => {
      if (!(await mayUseContact(request, params.id))) throw notFound();
      const res = await k.deleteFrom('contacts').where('id', '=', params.id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw notFound();
      await k.deleteFrom('role_contacts').where('contact_id', '=', params.id).execute();
      await audit(request, 'delete', `contact ${params.id}`);
      await changed();
      return null;
    },
    { permission: { menu: m.contacts, func: 'delete' } },
  );

  // ---------- contact groups ----------
  const findGroup = (id: number) => k.selectFrom('contact_groups').selectAll().where('id', '=', id).executeTakeFirst();
  const groupRow = (g: NonNullable<Awaited<ReturnType<typeof findGroup>>>) => ({
    ...g,
    contact_ids: readIdList(g.contact_ids),
    channel_ids: readIdList(g.channel_ids),
    email: g.email === 1,
    sms: g.sms === 1,
    voice: g.voice === 1,
  });
  const groupValues = (b: import('zod').infer<typeof import('@sitewatch/contract/notify').contactGroupInput>) => ({
    ...b,
    contact_ids: JSON.stringify([...new Set(b.contact_ids)]),
    channel_ids: JSON.stringify([...new Set(b.channel_ids)]),
    email: b.email ? 1 : 0,
    sms: b.sms ? 1 : 0,
    voice: b.voice ? 1 : 0,
  });
  /** A restricted caller sees only the granted members of a group. */
  const visibleGroup = async (request: FastifyRequest, g: NonNullable<Awaited<ReturnType<typeof findGroup>>>) => {
    const row = groupRow(g);
    const granted = await grantedContacts(request);
    return granted ? { ...row, contact_ids: row.contact_ids.filter((id) => granted.includes(id)) } : row;
  };
  /**
   * Members a restricted caller may set: only granted contacts (400 otherwise); members they cannot see
   * stay in the group, so saving never drops what the caller was not shown.
   */
  const groupMembers = async (request: FastifyRequest, wanted: number[], current: number[]) => {
    const granted = await grantedContacts(request);
    if (granted === null) return wanted;
    if (wanted.some((id) => !granted.includes(id))) throw badRequest('users.contactNotGranted');
    return [...wanted, ...current.filter((id) => !granted.includes(id))];
  };
  // The list is open to every signed-in user: the item settings pick a contact group from it.
  addRoute(app, r.contactGroups.list, async ({ query, request }) => {
    let q = k.selectFrom('contact_groups');
    if (query.name) q = q.where('name', 'like', like(query.name));
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q
      .selectAll()
      .orderBy('id')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    return { total: Number(total?.n ?? 0), data: await Promise.all(rows.map((g) => visibleGroup(request, g))) };
  });
  addRoute(
    app,
    r.contactGroups.one,
    async ({ params, request }) => {
      const g = await findGroup(params.id);
      if (!g) throw notFound();
      return visibleGroup(request, g);
    },
    { permission: { menu: m.contactGroups, func: 'view' } },
  );
  addRoute(
    app,
    r.contactGroups.create,
    async ({ body, request }) => {
      const contact_ids = await groupMembers(request, body.contact_ids, []);
      const { id } = await k
        .insertInto('contact_groups')
        .values(groupValues({ ...body, contact_ids }))
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit(request, 'add', `contact_group ${id}`);
      await changed();
      return visibleGroup(request, (await findGroup(id))!);
    },
    { permission: { menu: m.contactGroups, func: 'add' } },
  );
  addRoute(
    app,
    r.contactGroups.update,
    async ({ params, body, request }) => {
      const current = await findGroup(params.id);
      if (!current) throw notFound();
      const contact_ids = await groupMembers(request, body.contact_ids, readIdList(current.contact_ids));
      await k
        .updateTable('contact_groups')
        .set(groupValues({ ...body, contact_ids }))
        .where('id', '=', params.id)
        .execute();
      await audit(request, 'edit', `contact_group ${params.id}`);
      await changed();
      return visibleGroup(request, (await findGroup(params.id))!);
    },
    { permission: { menu: m.contactGroups, func: 'edit' } },
  );
  addRoute(
    app,
    r.contactGroups.remove,
    async ({ params, request }) => {
      const res = await k.deleteFrom('contact_groups').where('id', '=', params.id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw notFound();
      await audit(request, 'delete', `contact_group ${params.id}`);
      await changed();
      return null;
    },
    { permission: { menu: m.contactGroups, func: 'delete' } },
  );

  // ---------- channels (/alarm_push) ----------
  const findChannel = (id: number) =>
    k.selectFrom('notify_channels').selectAll().where('id', '=', id).executeTakeFirst();
  const parseConfig = (text: string): ChannelConfig => {
    try {
      return channelConfig.parse(JSON.parse(mapJsonFields(text, ['secret'], deps.secrets.decrypt)));
    } catch {
      return channelConfig.parse({ url: 'http://invalid' });
    }
  };
  const sealConfig = (config: ChannelConfig) => mapJsonFields(JSON.stringify(config), ['secret'], deps.secrets.encrypt);
  const channelRow = (c: NonNullable<Awaited<ReturnType<typeof findChannel>>>) => {
    const config = parseConfig(c.config);
    return {
      id: c.id,
      name: c.name,
      kind: c.kind as 'webhook',
      config: { ...config, secret: '' },
      has_secret: config.secret !== '',
      enable: c.enable === 1,
    };
  };
  addRoute(
    app,
    r.channels.list,
    async ({ query }) => {
      let q = k.selectFrom('notify_channels');
      if (query.name) q = q.where('name', 'like', like(query.name));
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q
        .selectAll()
        .orderBy('id')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute();
      return { total: Number(total?.n ?? 0), data: rows.map(channelRow) };
    },
    { permission: { menu: m.alarmPush, func: 'view' } },
  );
  addRoute(
    app,
    r.channels.one,
    async ({ params }) => {
      const c = await findChannel(params.id);
      if (!c) throw notFound();
      return channelRow(c);
    },
    { permission: { menu: m.alarmPush, func: 'view' } },
  );
  addRoute(
    app,
    r.channels.create,
    async ({ body, request }) => {
      const { id } = await k
        .insertInto('notify_channels')
        .values({ name: body.name, kind: body.kind, config: sealConfig(body.config), enable: body.enable ? 1 : 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit(request, 'add', `channel ${id}`);
      await changed();
      return channelRow((await findChannel(id))!);
    },
    { permission: { menu: m.alarmPush, func: 'add' } },
  );
  addRoute(
    app,
    r.channels.update,
    async ({ params, body, request }) => {
      const old = await findChannel(params.id);
      if (!old) throw notFound();
      // An empty secret keeps the stored one (secrets are never answered).
      const config = { ...body.config, secret: body.config.secret || parseConfig(old.config).secret };
      await k
        .updateTable('notify_channels')
        .set({ name: body.name, kind: body.kind, config: sealConfig(config), enable: body.enable ? 1 : 0 })
        .where('id', '=', params.id)
        .execute();
      await audit(request, 'edit', `channel ${params.id}`);
      await changed();
      return channelRow((await findChannel(params.id))!);
    },
    { permission: { menu: m.alarmPush, func: 'edit' } },
  );
  addRoute(
    app,
    r.channels.remove,
    async ({ params, request }) => {
      const res = await k.deleteFrom('notify_channels').where('id', '=', params.id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw notFound();
      await audit(request, 'delete', `channel ${params.id}`);
      await changed();
      return null;
    },
    { permission: { menu: m.alarmPush, func: 'delete' } },
  );
  addRoute(
    app,
    r.channelTest,
    async ({ params, request }) => {
      const c = await findChannel(params.id);
      if (!c) throw notFound();
      const user = await k
        .selectFrom('users')
        .select(['phone', 'user_name'])
        .where('id', '=', request.principal!.user_id)
        .executeTakeFirst();
      await audit(request, 'test', `channel ${params.id}`);
      return deps.notifier.test(
        { kind: c.kind as 'webhook', config: parseConfig(c.config) },
        { address: c.kind === 'sms' || c.kind === 'voice' ? (user?.phone ?? '') : '', name: user?.user_name ?? '' },
      );
    },
    { permission: { menu: m.alarmPush, func: 'edit' } },
  );

  // ---------- mail service ----------
  const mailRow = async () => {
    const s = await deps.settings.get('email_service');
    return { ...s, password: '', has_password: s.password !== '' };
  };
  addRoute(app, r.emailService, mailRow, { permission: { menu: m.mailbox, func: 'view' } });
  addRoute(
    app,
    r.emailServiceUpdate,
    async ({ body, request }) => {
      const old = await deps.settings.get('email_service');
      await deps.settings.set('email_service', { ...body, password: body.password || old.password });
      await audit(request, 'edit', 'email_service');
      return mailRow();
    },
    { permission: { menu: m.mailbox, func: 'edit' } },
  );
  addRoute(
    app,
    r.emailServiceTest,
    async ({ body, request }) => {
      await audit(request, 'test', 'email_service');
      return deps.notifier.test(
        { kind: 'email', config: await deps.settings.get('email_service') },
        { address: body.to, name: '' },
      );
    },
    { permission: { menu: m.mailbox, func: 'edit' } },
  );

  // ---------- templates ----------
  addRoute(app, r.noticeTpl, () => deps.settings.get('notice_tpl'), {
    permission: { menu: m.alarmTemplate, func: 'view' },
  });
  addRoute(
    app,
    r.noticeTplUpdate,
    async ({ body, request }) => {
      await deps.settings.set('notice_tpl', body);
      await audit(request, 'edit', 'notice_tpl');
      return deps.settings.get('notice_tpl');
    },
    { permission: { menu: m.alarmTemplate, func: 'edit' } },
  );
  addRoute(app, r.recoverTpl, () => deps.settings.get('recover_tpl'), {
    permission: { menu: m.alarmTemplate, func: 'view' },
  });
  addRoute(
    app,
    r.recoverTplUpdate,
    async ({ body, request }) => {
      await deps.settings.set('recover_tpl', body);
      await audit(request, 'edit', 'recover_tpl');
      return deps.settings.get('recover_tpl');
    },
    { permission: { menu: m.alarmTemplate, func: 'edit' } },
  );
  addRoute(
    app,
    r.cleanNoticeList,
    async ({ request }) => {
      const dropped = deps.notifier.drop();
      await audit(request, 'clear', 'notice_list');
      return { dropped };
    },
    { permission: { menu: m.alarmPush, func: 'edit' } },
  );

  // ---------- notification log ----------
  addRoute(
    app,
    r.notificationLog,
    async ({ query, request }) => {
      // Limited to the items of the caller's granted sites (null: all).
      const sites = await request.server.access.sites(request);
      if (sites !== null && sites.length === 0) return { total: 0, data: [] };
      let q = k.selectFrom('notification_logs');
      if (sites !== null) {
        q = q.where('item_id', 'in', (eb) =>
          eb
            .selectFrom('items')
            .innerJoin('devices', 'devices.id', 'items.device_id')
            .select('items.id')
            .where('devices.device_group_id', 'in', sites.length ? sites : [0]),
        );
      }
      if (query.start !== undefined) q = q.where('time', '>=', query.start);
      if (query.end !== undefined) q = q.where('time', '<=', query.end);
      if (query.channel) q = q.where('channel', '=', query.channel);
      if (query.result !== undefined) q = q.where('result', '=', query.result);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q
        .selectAll()
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset((query.page - 1) * query.limit)
        .execute();
      return { total: Number(total?.n ?? 0), data: rows };
    },
    { permission: { menu: m.notificationLog, func: 'view' } },
  );
  addRoute(
    app,
    r.notificationLogClear,
    async ({ body, request }) => {
      await deps.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      // A restricted user clears the entries of their own sites' items only.
      const sites = await request.server.access.sites(request);
      let clear = k.deleteFrom('notification_logs');
      if (sites !== null) {
        clear = clear.where('item_id', 'in', (eb) =>
          eb
            .selectFrom('items')
            .innerJoin('devices', 'devices.id', 'items.device_id')
            .select('items.id')
            .where('devices.device_group_id', 'in', sites.length ? sites : [0]),
        );
      }
      await clear.execute();
      await audit(request, 'clear', 'notification_log');
      return null;
    },
    { permission: { menu: m.notificationLog, func: 'clear' } },
  );
};
