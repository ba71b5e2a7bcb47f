import {
  cardReaders,
  doorMenus,
  doorProtocols,
  doorReaders,
  logReaders,
  doorAccessRoutes as r,
} from '@sitewatch/contract/door-access';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestLanguage } from '../../http/envelope.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { sendXlsx } from '../../http/xlsx.ts';
import type { AccessService } from '../access/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { DoorLinks } from './links.ts';
import { doorLogWorkbook } from './log-export.ts';
import type { DoorSettings } from './notices.ts';
import type { DoorRows } from './service.ts';

interface Deps {
  rows: DoorRows;
  links: DoorLinks;
  access: AccessService;
  auth: AuthService;
  audit: AuditLog;
  settings: DoorSettings;
  /** Where the event listener listens (SITEWATCH_DOOR_LISTENER), '' when it is off. */
  listener: () => string;
}

/**
 * The routes of 002 §7.1 `setting/access_control` and §7.8's access-control service under
 * `access_control/` (docs/door-access.md). Each page's function guards its writes; rows of another
 * site answer 404; a remote command needs the control function and the caller's verification
 * password and is in the operation log with its result.
 */
export const registerDoorAccess = (app: FastifyInstance, d: Deps) => {
  const page = (menu: number, func?: string) => ({ permission: func ? { menu, func } : { menu } });
  const scope = (request: Parameters<AccessService['scope']>[0]) => d.access.scope(request);
  /**
   * Reads several pages share (the controllers, the cards, the log): allowed to a holder of any one
   * of them, each of which shows or filters by what the read answers.
   */
  const anyOf = async (request: FastifyRequest, menus: readonly number[]) => {
    let refused: unknown = null;
    for (const menu of menus) {
      try {
        await d.access.require(request, { menu });
        return;
      } catch (err) {
        refused ??= err;
      }
    }
    throw refused;
  };

  addRoute(
    app,
    r.settings,
    async () => ({ protocols: [...doorProtocols], sync_seconds: (await d.settings.options()).sync_seconds }),
    page(doorMenus.devices),
  );
  addRoute(
    app,
    r.supported,
    () => ({ list: [{ protocol: 'wg-udp', brands: ['UHPPOTE', 'WG (微耕)'] }] }),
    page(doorMenus.devices),
  );
  addRoute(app, r.devices, async ({ request }) => {
    await anyOf(request, doorReaders);
    return { list: await d.rows.controllers(await scope(request)) };
  });
  addRoute(app, r.createDevice, async ({ body, request }) => d.rows.createController(body, await scope(request)), {
    ...page(doorMenus.devices, 'add'),
    messageKey: 'doorAccess.saved',
  });
  addRoute(
    app,
    r.updateDevice,
    async ({ params, body, request }) => {
      await d.rows.updateController(params.id, body, await scope(request));
      d.links.forget(params.id);
      return null;
    },
    { ...page(doorMenus.devices, 'edit'), messageKey: 'doorAccess.saved' },
  );
  addRoute(
    app,
    r.removeDevice,
    async ({ params, request }) => {
      await d.rows.removeController(params.id, await scope(request));
      d.links.forget(params.id);
      return null;
    },
    { ...page(doorMenus.devices, 'delete'), messageKey: 'doorAccess.deleted' },
  );
  addRoute(app, r.cards, async ({ request }) => {
    await anyOf(request, cardReaders);
    return { list: await d.rows.cards(await scope(request)) };
  });
  addRoute(app, r.createCard, async ({ body, request }) => d.rows.createCard(body, await scope(request)), {
    ...page(doorMenus.cards, 'add'),
    messageKey: 'doorAccess.saved',
  });
  addRoute(
    app,
    r.updateCard,
    async ({ params, body, request }) => d.rows.updateCard(params.id, body, await scope(request)),
    {
      ...page(doorMenus.cards, 'edit'),
      messageKey: 'doorAccess.saved',
    },
  );
  addRoute(app, r.removeCard, async ({ params, request }) => d.rows.removeCard(params.id, await scope(request)), {
    ...page(doorMenus.cards, 'delete'),
    messageKey: 'doorAccess.deleted',
  });
  addRoute(
    app,
    r.copy,
    async ({ body, request }) => d.rows.copy(body.from_card_id, body.to_card_ids, await scope(request)),
    {
      ...page(doorMenus.cards, 'edit'),
      messageKey: 'doorAccess.saved',
    },
  );
  addRoute(app, r.logs, async ({ query, request }) => {
    await anyOf(request, logReaders);
    return d.rows.logs(query, await scope(request));
  });
  addRoute(
    app,
    r.logExport,
    async ({ query, request, reply }) => {
      const { tz_offset, t: _t, ...filter } = query;
      const rows = await d.rows.logsForExport(filter, await scope(request));
      await sendXlsx(reply, 'door_log.xlsx', await doorLogWorkbook(rows, requestLanguage(request), tz_offset));
      return null;
    },
    page(doorMenus.logCustom, 'export'),
  );
  addRoute(
    app,
    r.permissions,
    async ({ query, request }) => d.rows.permissions(query, await scope(request)),
    page(doorMenus.permission),
  );
  addRoute(
    app,
    r.setPermissions,
    async ({ params, body, request }) => d.rows.setDoorPermissions(params.id, body, await scope(request)),
    { ...page(doorMenus.permission, 'edit'), messageKey: 'doorAccess.saved' },
  );
  addRoute(
    app,
    r.logSync,
    async ({ body, request }) => {
      await d.rows.controller(body.controller_id, await scope(request));
      return d.links.sync(body.controller_id);
    },
    page(doorMenus.devices, 'edit'),
  );
  addRoute(
    app,
    r.ctrl,
    async ({ body, request }) => {
      const door = await d.rows.door(body.door_id, await scope(request));
      const ctrl = await d.rows.controller(door.controller_id, await scope(request));
      await d.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      const entry = {
        module: 'access_control/ctrl' as const,
        action: body.action === 'open' ? ('open_door' as const) : ('door_mode' as const),
        target: `${ctrl.name} #${door.number}`,
      };
      let done = false;
      try {
        done = await d.links.command(ctrl, door.number, body.action, body.delay);
      } catch {
        await d.audit.write({ ...entry, success: false, detail: body.action }, request);
        throw conflict('doorAccess.errors.offline');
      }
      await d.audit.write({ ...entry, success: done, detail: body.action }, request);
      if (!done) throw badRequest('doorAccess.errors.refused');
      return { done };
    },
    { ...page(doorMenus.remoteControl, 'control'), messageKey: 'doorAccess.done' },
  );
  registerDoorNotices(app, d, page);
};

/** /door_notice_config (nofify/config, contact, toggle) and /door_setting (option): docs/door-access.md. */
const registerDoorNotices = (
  app: FastifyInstance,
  d: Deps,
  page: (menu: number, func?: string) => { permission: { menu: number; func?: string } },
) => {
  // A change of a notice kind: the page's edit function, answered with the saved message.
  const savesNotice = { ...page(doorMenus.noticeConfig, 'edit'), messageKey: 'doorAccess.saved' };
  addRoute(app, r.notices, async () => ({ list: await d.settings.list() }), page(doorMenus.noticeConfig));
  addRoute(app, r.contacts, async () => ({ list: await d.settings.contactGroups() }), page(doorMenus.noticeConfig));
  addRoute(
    app,
    r.setContact,
    async ({ body }) => {
      await d.settings.setContact(body.kind, body.contact_group_id);
      return null;
    },
    savesNotice,
  );
  addRoute(
    app,
    r.toggle,
    async ({ body }) => {
      await d.settings.toggle(body.kind, body.enabled);
      return null;
    },
    savesNotice,
  );
  addRoute(
    app,
    r.options,
    async () => ({ ...(await d.settings.options()), listener: d.listener() }),
    page(doorMenus.setting),
  );
  addRoute(
    app,
    r.setOptions,
    async ({ body }) => {
      await d.settings.setOptions(body);
      d.links.reschedule(body.sync_seconds);
      return null;
    },
    { ...page(doorMenus.setting, 'edit'), messageKey: 'doorAccess.saved' },
  );
};
