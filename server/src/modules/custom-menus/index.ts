import { assetMenuId, customMenusRoutes, settingMenuId } from '@sitewatch/contract/custom-menus';
import type { FastifyInstance } from 'fastify';
import { requestLanguage } from '../../http/envelope.ts';
import { addRoute } from '../../http/route.ts';
import type { AccessService } from '../access/index.ts';
import type { CustomMenusService } from './service.ts';

export { type CustomMenusService, createCustomMenusService } from './service.ts';

/**
 * 002 §7.1 `setting/menus` POST, PUT {id}, DELETE, and the two reads the menu's links need
 * (docs/custom-menus.md): /setting_menu's list, the check behind /external_link (403 unless the
 * caller holds the entry) and the asset system's address. The shared trail logs every write.
 */
export const registerCustomMenusRoutes = (app: FastifyInstance, service: CustomMenusService, access: AccessService) => {
  const page = (func?: string) => ({ permission: func ? { menu: settingMenuId, func } : { menu: settingMenuId } });
  addRoute(
    app,
    customMenusRoutes.entries,
    async ({ request }) => ({
      list: await service.entries(requestLanguage(request)),
    }),
    page(),
  );
  addRoute(app, customMenusRoutes.create, ({ body }) => service.create(body), {
    ...page('add'),
    messageKey: 'customMenus.created',
  });
  addRoute(
    app,
    customMenusRoutes.update,
    async ({ params, body }) => {
      await service.update(params.id, body);
      return null;
    },
    {
      ...page('edit'),
      messageKey: 'customMenus.saved',
    },
  );
  addRoute(app, customMenusRoutes.remove, ({ body }) => service.remove(body.ids), {
    ...page('delete'),
    messageKey: 'customMenus.deleted',
  });
  addRoute(app, customMenusRoutes.link, async ({ request, query }) =>
    service.link(await access.forUser(request.principal!.user_id), query.url),
  );
  addRoute(app, customMenusRoutes.asset, () => service.asset(), { permission: { menu: assetMenuId } });
};
