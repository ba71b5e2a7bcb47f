import { sharedText } from '@sitewatch/contract';
import { authRoutes, type MenuNode } from '@sitewatch/contract/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { MenusTable } from '../../db/schema.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { forbidden, notLoggedIn } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';

/** Role id 1 is the administrator; user id 1 is never restricted (000 §6). */
export const adminRoleId = 1;
export const rootUserId = 1;

/** What a user may reach: menus (pages), functions (buttons) of pages, and sites. */
export interface Access {
  all: boolean;
  roleIds: number[];
  menuIds: Set<number>;
  /** `${menu_id}:${code}` */
  functions: Set<string>;
  /** null: every site. */
  siteIds: number[] | null;
  /** null: every contact. Contact grants decide which contacts a user sees and manages (docs/users.md). */
  contactIds: number[] | null;
  /** null: every video channel. Channel ids (device id × 1000 + channel number) the roles grant (docs/video.md). */
  videoIds: number[] | null;
  /** Pages removed whatever the grants: login type 2 loses the personnel pages and full screen (000 §4.4, §6). */
  excluded: Set<number>;
}

/** Pages a login-type-2 (LDAP) user never gets, by URL. */
export const loginType2HiddenUrls = [
  '/setting_users',
  '/setting_user_groups',
  '/authority_groups',
  '/setting_LDAP',
  '/fullScreen',
];

/** A route's requirement: the page (menu id) and optionally a function of that page. */
export interface Permission {
  menu: number;
  func?: string;
}

/**
 * The caller's site grant, handed to every service function that reads or writes site-bound rows,
 * so that one rule holds for writes as for reads (docs/users.md, "Site grants"): a row of a site
 * outside the grant does not exist for the caller (404), and a target site outside it is refused
 * (403). null sites: every site (user 1 and role 1).
 */
export interface SiteScope {
  readonly sites: number[] | null;
  has(siteId: number): boolean;
  /** Throws 403 unless every one of these sites is granted. */
  requireSites(siteIds: Iterable<number>): void;
  /** Throws 403 unless the caller may reach every site (top-level sites belong to no grant). */
  requireAll(): void;
}

export const siteScope = (sites: number[] | null): SiteScope => {
  const granted = sites === null ? null : new Set(sites);
  const has = (siteId: number) => granted === null || granted.has(siteId);
  return {
    sites,
    has,
    requireSites(siteIds) {
      for (const id of siteIds) if (!has(id)) throw forbidden('access.siteNotGranted');
    },
    requireAll() {
      if (granted !== null) throw forbidden('access.topLevelSite');
    },
  };
};

/**
 * Whether a grant covers every site there is: an administrator (sites null), or a user whose roles
 * name each site. Rows that belong to no site (global duty shifts, dispatch rules for every site)
 * are changed only by such a user (docs/users.md, "Rows of several sites").
 */
export const holdsEverySite = async (db: Db, sites: number[] | null) => {
  if (sites === null) return true;
  const held = new Set(sites);
  const all = await db.kysely.selectFrom('device_groups').select('id').execute();
  return all.every((s) => held.has(s.id));
};

export interface AccessService {
  forUser(userId: number): Promise<Access>;
  /** Throws 401 without a user and 403 without the grant. */
  require(request: FastifyRequest, permission: Permission | 'admin'): Promise<Access>;
  /** The sites the caller may see: null for every site (user 1 and role 1). */
  sites(request: FastifyRequest): Promise<number[] | null>;
  /** The contacts the caller may see and manage: null for every contact (user 1 and role 1). */
  contacts(request: FastifyRequest): Promise<number[] | null>;
  /** The video channels the caller may see and use: null for every channel (user 1 and role 1). */
  videos(request: FastifyRequest): Promise<number[] | null>;
  /** The caller's site scope, for reads and writes of site-bound rows. */
  scope(request: FastifyRequest): Promise<SiteScope>;
  /** Grants new sites to every role of the caller (a restricted user keeps seeing what they add). */
  grantSitesToCaller(request: FastifyRequest, siteIds: number[]): Promise<void>;
  /** Grants video channels to every role of the caller that lacks them (a restricted user keeps seeing what they add). */
  grantVideosToCaller(request: FastifyRequest, videoIds: number[]): Promise<void>;
  /** Every role's grants of these channels are withdrawn (the channels are gone: one added again later starts ungranted). */
  dropVideoGrants(videoIds: number[]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    access: AccessService;
  }
  interface FastifyRequest {
    accessCache?: Access;
  }
}

export const createAccessService = (db: Db): AccessService => {
  const forUser = async (userId: number): Promise<Access> => {
    const [roleRows, user] = await Promise.all([
      db.kysely.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).execute(),
      db.kysely.selectFrom('users').select('login_type').where('id', '=', userId).executeTakeFirst(),
    ]);
    const roleIds = roleRows.map((r) => r.role_id);
    const excluded =
      user?.login_type === 2
        ? new Set(
            (await db.kysely.selectFrom('menus').select('id').where('url', 'in', loginType2HiddenUrls).execute()).map(
              (m) => m.id,
            ),
          )
        : new Set<number>();
    const all = userId === rootUserId || roleIds.includes(adminRoleId);
    const none = { menuIds: new Set<number>(), functions: new Set<string>(), excluded };
    if (all) return { all, roleIds, ...none, siteIds: null, contactIds: null, videoIds: null };
    if (roleIds.length === 0) return { all, roleIds, ...none, siteIds: [], contactIds: [], videoIds: [] };
    const [menus, functions, sites, contacts, videos] = await Promise.all([
      db.kysely.selectFrom('role_menus').select('menu_id').where('role_id', 'in', roleIds).execute(),
      db.kysely
        .selectFrom('role_functions')
        .innerJoin('functions', 'functions.id', 'role_functions.function_id')
        .select(['functions.menu_id', 'functions.code'])
        .where('role_functions.role_id', 'in', roleIds)
        .execute(),
      db.kysely.selectFrom('role_sites').select('site_id').where('role_id', 'in', roleIds).execute(),
      db.kysely.selectFrom('role_contacts').select('contact_id').where('role_id', 'in', roleIds).execute(),
      db.kysely.selectFrom('role_videos').select('video_id').where('role_id', 'in', roleIds).execute(),
    ]);
    return {
      all,
      roleIds,
      menuIds: new Set(menus.map((m) => m.menu_id)),
      functions: new Set(functions.map((f) => `${f.menu_id}:${f.code}`)),
      siteIds: [...new Set(sites.map((s) => s.site_id))],
      contactIds: [...new Set(contacts.map((c) => c.contact_id))],
      videoIds: [...new Set(videos.map((v) => v.video_id))],
      excluded,
    };
  };
  const cached = async (request: FastifyRequest) => {
    const principal = request.principal;
    if (!principal) throw notLoggedIn();
    request.accessCache ??= await forUser(principal.user_id);
    return request.accessCache;
  };
  return {
    forUser,
    sites: async (request) => (await cached(request)).siteIds,
    contacts: async (request) => (await cached(request)).contactIds,
    videos: async (request) => (await cached(request)).videoIds,
    scope: async (request) => siteScope((await cached(request)).siteIds),
    async grantSitesToCaller(request, siteIds) {
      const access = await cached(request);
      if (access.siteIds === null || siteIds.length === 0) return;
      const rows = access.roleIds.flatMap((role_id) => siteIds.map((site_id) => ({ role_id, site_id })));
      if (rows.length) await db.kysely.insertInto('role_sites').values(rows).execute();
      access.siteIds = [...access.siteIds, ...siteIds];
    },
    async grantVideosToCaller(request, videoIds) {
      const access = await cached(request);
      if (access.videoIds === null || videoIds.length === 0 || access.roleIds.length === 0) return;
      const wanted = [...new Set(videoIds)];
      // A role may name some already (a channel removed and added again): only the missing ones are added.
      const held = await db.kysely
        .selectFrom('role_videos')
        .select(['role_id', 'video_id'])
        .where('role_id', 'in', access.roleIds)
        .where('video_id', 'in', wanted)
        .execute();
      const has = new Set(held.map((r) => `${r.role_id}:${r.video_id}`));
      const rows = access.roleIds.flatMap((role_id) =>
        wanted.filter((video_id) => !has.has(`${role_id}:${video_id}`)).map((video_id) => ({ role_id, video_id })),
      );
      if (rows.length) await db.kysely.insertInto('role_videos').values(rows).execute();
      access.videoIds = [...new Set([...access.videoIds, ...wanted])];
    },
    async dropVideoGrants(videoIds) {
      if (videoIds.length) await db.kysely.deleteFrom('role_videos').where('video_id', 'in', videoIds).execute();
    },
    async require(request, permission) {
      const access = await cached(request);
      if (permission !== 'admin' && access.excluded.has(permission.menu)) throw forbidden();
      if (access.all) return access;
      if (permission === 'admin') throw forbidden();
      if (!access.menuIds.has(permission.menu)) throw forbidden();
      if (permission.func && !access.functions.has(`${permission.menu}:${permission.func}`)) throw forbidden();
      return access;
    },
  };
};

export const registerAccess = (app: FastifyInstance, access: AccessService) => {
  app.decorate('access', access);
};

type MenuRow = Selectable<MenusTable>;

/** Builds the menu tree a user sees: granted pages, their groups, sorted by weight descending. */
export const buildMenuTree = (
  rows: MenuRow[],
  functionsByMenu: Map<number, string[]>,
  access: Access,
  nameOf: (row: MenuRow) => string,
): MenuNode[] => {
  const visible = rows.filter((r) => r.enable && r.display && !access.excluded.has(r.id));
  const byParent = new Map<number, MenuRow[]>();
  for (const row of visible) byParent.set(row.parent_id, [...(byParent.get(row.parent_id) ?? []), row]);
  const build = (parentId: number): MenuNode[] =>
    (byParent.get(parentId) ?? [])
      .sort((a, b) => b.weight - a.weight || a.id - b.id)
      .map((row) => {
        const children = build(row.id);
        const granted = access.all || access.menuIds.has(row.id);
        const functions = (functionsByMenu.get(row.id) ?? []).filter(
          (code) => access.all || access.functions.has(`${row.id}:${code}`),
        );
        return {
          node: {
            id: row.id,
            name: nameOf(row),
            url: row.url,
            icon: row.icon,
            target: row.target,
            enable: true,
            display: true,
            weight: row.weight,
            functions: granted ? functions : [],
            children,
          },
          // A page is kept when granted; a group when any of its pages is.
          keep: row.url ? granted : children.length > 0,
        };
      })
      .filter((entry) => entry.keep)
      .map((entry) => entry.node);
  return build(0);
};

export const registerAccessRoutes = (app: FastifyInstance, db: Db, access: AccessService) => {
  addRoute(app, authRoutes.menus, async ({ request }) => {
    const principal = request.principal!;
    const userAccess = await access.forUser(principal.user_id);
    const [rows, functions] = await Promise.all([
      db.kysely.selectFrom('menus').selectAll().execute(),
      db.kysely.selectFrom('functions').select(['menu_id', 'code']).execute(),
    ]);
    const functionsByMenu = new Map<number, string[]>();
    for (const f of functions) functionsByMenu.set(f.menu_id, [...(functionsByMenu.get(f.menu_id) ?? []), f.code]);
    const language = requestLanguage(request);
    const nameOf = (row: MenuRow) => (row.name_key ? sharedText(language, row.name_key) : row.name);
    return { list: buildMenuTree(rows, functionsByMenu, userAccess, nameOf) };
  });

  addRoute(app, authRoutes.currentUser, async ({ request }) => {
    const principal = request.principal!;
    const user = await db.kysely.selectFrom('users').selectAll().where('id', '=', principal.user_id).executeTakeFirst();
    if (!user) throw notLoggedIn();
    const userAccess = await access.forUser(user.id);
    return {
      id: user.id,
      user_name: user.user_name,
      alias: user.alias,
      login_type: user.login_type,
      language: user.language,
      role_ids: userAccess.roleIds,
      site_ids: userAccess.siteIds,
    };
  });
};
export { createMenuCatalogue, type MenuCatalogue, type MenuRow } from './catalogue.ts';
