import { alarmMenus as m } from '@sitewatch/contract/alarms';
import { notifyRoutes as r } from '@sitewatch/contract/notify';
import type { OperationLogAction, OperationLogModule } from '@sitewatch/contract/operation-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AlarmSettings } from '../../alarms/settings.ts';
import type { EventBus } from '../../bus/bus.ts';
import type { Db } from '../../db/kysely.ts';
import { addRoute } from '../../http/route.ts';
import type { Notifier } from '../../notify/notifier.ts';
import type { SecretBox } from '../../secrets/index.ts';
import type { AccessService } from '../access/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import { createNotifyRepository } from './repository.ts';
import { createNotifyService } from './service.ts';

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
  access: AccessService;
}

/**
 * Notification routes: contacts, contact groups, channels (/alarm_push), the mail service with a
 * test send, notice and recovery templates, the notification log and clean_notice_list.
 */
export const registerNotify = (app: FastifyInstance, deps: NotifyDeps) => {
  const service = createNotifyService({ ...deps, repo: createNotifyRepository(deps.db) });
  const audit = (request: FastifyRequest, module: OperationLogModule, action: OperationLogAction, target = '') =>
    deps.audit.write({ module, action, target, success: true }, request);
  // Contact grants of the caller's roles decide which contacts they see and manage (docs/users.md).
  const granted = (request: FastifyRequest) => deps.access.contacts(request);
  const sites = (request: FastifyRequest) => deps.access.sites(request);

  // ---------- contacts ----------
  addRoute(app, r.contacts.list, async ({ query, request }) => service.listContacts(query, await granted(request)), {
    permission: { menu: m.contacts, func: 'view' },
  });
  addRoute(app, r.contacts.one, async ({ params, request }) => service.getContact(params.id, await granted(request)), {
    permission: { menu: m.contacts, func: 'view' },
  });
  addRoute(
    app,
    r.contacts.create,
    async ({ body, request }) => {
      const contacts = await granted(request);
      // Only a restricted caller's roles are read: their new contact is granted to them.
      const roleIds = contacts === null ? [] : (await deps.access.forUser(request.principal?.user_id ?? 0)).roleIds;
      const row = await service.createContact(body, contacts, roleIds);
      await audit(request, 'setting/contacts', 'add', row.name);
      return row;
    },
    { permission: { menu: m.contacts, func: 'add' } },
  );
  addRoute(
    app,
    r.contacts.update,
    async ({ params, body, request }) => {
      const row = await service.updateContact(params.id, body, await granted(request));
      await audit(request, 'setting/contacts', 'edit', String(params.id));
      return row;
    },
    { permission: { menu: m.contacts, func: 'edit' } },
  );
  addRoute(
    app,
    r.contacts.remove,
    async ({ params, request }) => {
      await service.removeContact(params.id, await granted(request));
      await audit(request, 'setting/contacts', 'delete', String(params.id));
      return null;
    },
    { permission: { menu: m.contacts, func: 'delete' } },
  );

  // ---------- contact groups ----------
  // The list is open to every signed-in user: the item settings pick a contact group from it.
  addRoute(app, r.contactGroups.list, async ({ query, request }) => service.listGroups(query, await granted(request)));
  addRoute(
    app,
    r.contactGroups.one,
    async ({ params, request }) => service.getGroup(params.id, await granted(request)),
    { permission: { menu: m.contactGroups, func: 'view' } },
  );
  addRoute(
    app,
    r.contactGroups.create,
    async ({ body, request }) => {
      const row = await service.createGroup(body, await granted(request));
      await audit(request, 'setting/contact_groups', 'add', row.name);
      return row;
    },
    { permission: { menu: m.contactGroups, func: 'add' } },
  );
  addRoute(
    app,
    r.contactGroups.update,
    async ({ params, body, request }) => {
      const row = await service.updateGroup(params.id, body, await granted(request));
      await audit(request, 'setting/contact_groups', 'edit', String(params.id));
      return row;
    },
    { permission: { menu: m.contactGroups, func: 'edit' } },
  );
  addRoute(
    app,
    r.contactGroups.remove,
    async ({ params, request }) => {
      await service.removeGroup(params.id);
      await audit(request, 'setting/contact_groups', 'delete', String(params.id));
      return null;
    },
    { permission: { menu: m.contactGroups, func: 'delete' } },
  );

  // ---------- channels (/alarm_push) ----------
  addRoute(app, r.channels.list, ({ query }) => service.listChannels(query), {
    permission: { menu: m.alarmPush, func: 'view' },
  });
  addRoute(app, r.channels.one, ({ params }) => service.getChannel(params.id), {
    permission: { menu: m.alarmPush, func: 'view' },
  });
  addRoute(
    app,
    r.channels.create,
    async ({ body, request }) => {
      const row = await service.createChannel(body);
      await audit(request, 'setting/alarm_push', 'add', row.name);
      return row;
    },
    { permission: { menu: m.alarmPush, func: 'add' } },
  );
  addRoute(
    app,
    r.channels.update,
    async ({ params, body, request }) => {
      const row = await service.updateChannel(params.id, body);
      await audit(request, 'setting/alarm_push', 'edit', String(params.id));
      return row;
    },
    { permission: { menu: m.alarmPush, func: 'edit' } },
  );
  addRoute(
    app,
    r.channels.remove,
    async ({ params, request }) => {
      await service.removeChannel(params.id);
      await audit(request, 'setting/alarm_push', 'delete', String(params.id));
      return null;
    },
    { permission: { menu: m.alarmPush, func: 'delete' } },
  );
  addRoute(
    app,
    r.channelTest,
    async ({ params, request }) => {
      const send = await service.prepareChannelTest(params.id, request.principal!.user_id);
      await audit(request, 'setting/alarm_push', 'test', String(params.id));
      return send();
    },
    { permission: { menu: m.alarmPush, func: 'edit' } },
  );

  // ---------- mail service ----------
  addRoute(app, r.emailService, () => service.mailService(), { permission: { menu: m.mailbox, func: 'view' } });
  addRoute(
    app,
    r.emailServiceUpdate,
    async ({ body, request }) => {
      const row = await service.updateMailService(body);
      await audit(request, 'setting/email_service', 'edit');
      return row;
    },
    { permission: { menu: m.mailbox, func: 'edit' } },
  );
  addRoute(
    app,
    r.emailServiceTest,
    async ({ body, request }) => {
      await audit(request, 'setting/email_service', 'test');
      return service.testMailService(body.to);
    },
    { permission: { menu: m.mailbox, func: 'edit' } },
  );

  // ---------- templates ----------
  for (const [key, read, update] of [
    ['notice_tpl', r.noticeTpl, r.noticeTplUpdate],
    ['recover_tpl', r.recoverTpl, r.recoverTplUpdate],
  ] as const) {
    addRoute(app, read, () => service.template(key), { permission: { menu: m.alarmTemplate, func: 'view' } });
    addRoute(
      app,
      update,
      async ({ body, request }) => {
        const row = await service.setTemplate(key, body);
        await audit(request, `setting/${key}`, 'edit');
        return row;
      },
      { permission: { menu: m.alarmTemplate, func: 'edit' } },
    );
  }
  addRoute(
    app,
    r.cleanNoticeList,
    async ({ request }) => {
      const dropped = service.dropNotices(await sites(request));
      await audit(request, 'clean_notice_list', 'clear');
      return { dropped };
    },
    { permission: { menu: m.alarmPush, func: 'edit' } },
  );

  // ---------- notification log ----------
  addRoute(app, r.notificationLog, async ({ query, request }) => service.notificationLog(query, await sites(request)), {
    permission: { menu: m.notificationLog, func: 'view' },
  });
  addRoute(
    app,
    r.notificationLogClear,
    async ({ body, request }) => {
      await deps.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      await service.clearNotificationLog(await sites(request));
      await audit(request, 'notification_log', 'clear');
      return null;
    },
    { permission: { menu: m.notificationLog, func: 'clear' } },
  );
};
