import type { FastifyRequest } from 'fastify';
import { forbidden, notLoggedIn } from '../../http/errors.ts';
import { adminRoleId, rootUserId } from '../access/index.ts';
import type { UsersRepository } from './repository.ts';

/** What a set of roles grants: sites, pages (menus), functions, video channels and contacts. */
export interface Grants {
  sites: Set<number>;
  menus: Set<number>;
  functions: Set<number>;
  videos: Set<number>;
  contacts: Set<number>;
}

/** A grant as a role body carries it. */
export interface GrantLists {
  site_ids: number[];
  menu_ids: number[];
  function_ids: number[];
  video_ids: number[];
  contact_ids: number[];
}

/** The rules bound to one caller: what the users service asks, without knowing of requests. */
export interface CallerRules {
  isAdmin(): Promise<boolean>;
  requireGrantable(body: GrantLists): Promise<void>;
  requireAssignable(roleIds: number[]): Promise<void>;
  requireManageableUser(userId: number): Promise<void>;
  requireManageableRole(roleId: number): Promise<void>;
  offered(): Promise<Grants | null>;
}

const within = (grants: Grants, held: Grants) =>
  (['sites', 'menus', 'functions', 'videos', 'contacts'] as const).every((kind) =>
    [...grants[kind]].every((id) => held[kind].has(id)),
  );

/**
 * "Who may grant what" (docs/users.md): a restricted user grants, assigns and manages only what lies
 * within the grants they hold; user 1 and role 1 only an administrator touches. Every check throws
 * 403 before anything is written, so a refused request changes nothing.
 */
export const createGrantRules = (repo: UsersRepository) => {
  type Held = { roleIds: number[]; grants: Grants | null };
  // Read once per request: a block of many users checks each against the same grants.
  const perRequest = new WeakMap<FastifyRequest, Promise<Held>>();
  /** The caller's grants; null for an administrator (user 1 or a holder of role 1). */
  const held = (request: FastifyRequest): Promise<Held> => {
    let found = perRequest.get(request);
    if (!found) {
      found = load(request);
      perRequest.set(request, found);
    }
    return found;
  };
  const load = async (request: FastifyRequest): Promise<Held> => {
    const principal = request.principal;
    if (!principal) throw notLoggedIn();
    const roleIds = (await repo.rolesOf([principal.user_id])).get(principal.user_id) ?? [];
    if (principal.user_id === rootUserId || roleIds.includes(adminRoleId)) return { roleIds, grants: null };
    const grants = await repo.grantsOfRoles(roleIds);
    // A menu group grants nothing itself; it is held when a page under it is, as the menu tree shows it.
    const parents = new Map((await repo.menus()).map((m) => [m.id, m.parent_id]));
    for (const id of [...grants.menus]) {
      for (let up = parents.get(id); up; up = parents.get(up)) grants.menus.add(up);
    }
    return { roleIds, grants };
  };

  const ofRoles = async (roleIds: number[]) =>
    roleIds.includes(adminRoleId) ? null : await repo.grantsOfRoles(roleIds);

  const rules = {
    held,
    isAdmin: async (request: FastifyRequest) => (await held(request)).grants === null,

    /** A role body may hold only grants the editor holds. */
    async requireGrantable(request: FastifyRequest, body: GrantLists) {
      const { grants } = await held(request);
      if (!grants) return;
      const wanted: Grants = {
        sites: new Set(body.site_ids),
        menus: new Set(body.menu_ids),
        functions: new Set(body.function_ids),
        videos: new Set(body.video_ids),
        contacts: new Set(body.contact_ids),
      };
      if (!within(wanted, grants)) throw forbidden('users.grantNotHeld');
    },

    /** Roles a user is given: never role 1 but by an administrator; otherwise within the editor's grants. */
    async requireAssignable(request: FastifyRequest, roleIds: number[]) {
      const { grants } = await held(request);
      if (!grants) return;
      if (roleIds.includes(adminRoleId)) throw forbidden('users.adminOnly');
      for (const roleId of new Set(roleIds)) {
        if (!within(await repo.grantsOfRoles([roleId]), grants)) throw forbidden('users.roleNotHeld');
      }
    },

    /**
     * A user the editor may change, reset, unlock, disable, block or delete: any for an administrator;
     * for a restricted editor, never user 1 nor a holder of role 1, and only a user whose roles all lie
     * within the editor's grants (else the editor could take over a wider account).
     */
    async requireManageableUser(request: FastifyRequest, userId: number) {
      const { grants } = await held(request);
      if (!grants) return;
      const roleIds = (await repo.rolesOf([userId])).get(userId) ?? [];
      const target = userId === rootUserId ? null : await ofRoles(roleIds);
      if (!target) throw forbidden('users.adminOnly');
      if (!within(target, grants)) throw forbidden('users.userNotManageable');
    },

    /**
     * A role the editor may change or delete: any but role 1 for an administrator; for a restricted
     * editor only a role within their grants that they do not hold themselves (editing it would
     * change their own grants).
     */
    async requireManageableRole(request: FastifyRequest, roleId: number) {
      const { roleIds, grants } = await held(request);
      if (!grants) return;
      if (roleIds.includes(roleId)) throw forbidden('users.ownRole');
      const target = await ofRoles([roleId]);
      if (!target || !within(target, grants)) throw forbidden('users.roleNotHeld');
    },

    /** What the grant forms may offer: the editor's own grants (null: everything). */
    offered: async (request: FastifyRequest) => (await held(request)).grants,
  };
  return {
    ...rules,
    /** The rules of this request's caller. */
    of: (request: FastifyRequest): CallerRules => ({
      isAdmin: () => rules.isAdmin(request),
      requireGrantable: (body) => rules.requireGrantable(request, body),
      requireAssignable: (roleIds) => rules.requireAssignable(request, roleIds),
      requireManageableUser: (userId) => rules.requireManageableUser(request, userId),
      requireManageableRole: (roleId) => rules.requireManageableRole(request, roleId),
      offered: () => rules.offered(request),
    }),
  };
};
