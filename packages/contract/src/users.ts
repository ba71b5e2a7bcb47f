import { z } from 'zod';
import { pageOf, pageQuery } from './envelope.ts';
import { defineRoute } from './route.ts';

/** Menu ids of this area's pages (docs/menus.md). */
export const userMenus = {
  users: 221,
  userGroups: 222,
  roles: 223,
  /** /setting_LDAP: its settings and import name the groups of directory users. */
  ldap: 224,
  security: 401,
  operationLog: 301,
} as const;

const id = z.coerce.number().int().positive().max(2_147_483_647);
const idParams = z.object({ id });
const name = z.string().trim().min(1).max(64);
/** Phone: 11 to 13 digits, empty allowed (000 §5). */
export const phone = z.union([z.literal(''), z.string().regex(/^\d{11,13}$/)]);
/** E-mail: basic pattern with a 2 to 4 letter suffix, empty allowed (000 §5). */
export const email = z.union([
  z.literal(''),
  z
    .string()
    .max(128)
    .regex(/^[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,4}$/),
]);
/** RSA-OAEP ciphertext of a password (docs/auth.md). */
const encrypted = z.string().min(1).max(1024);
const ids = z.array(id).max(10_000);
/** Ids a role must grant at least one of (002 §6): missing or empty is refused with the key's text. */
const grantIds = (key: string) => z.array(id, { error: key }).min(1, { message: key }).max(10_000);

export const userRow = z.object({
  id: z.number().int(),
  user_name: z.string(),
  alias: z.string(),
  email: z.string(),
  phone: z.string(),
  enable: z.boolean(),
  login_type: z.number().int(),
  locked: z.boolean(),
  role_ids: z.array(z.number().int()),
  user_group_ids: z.array(z.number().int()),
  created_at: z.number().int(),
});
export type UserRow = z.infer<typeof userRow>;

const userFields = {
  alias: z.string().trim().max(64).default(''),
  email: email.default(''),
  phone: phone.default(''),
  enable: z.boolean().default(true),
  role_ids: ids.min(1),
  user_group_ids: ids.min(1),
};

export const userCreate = z.object({
  user_name: name,
  /** Encrypted; at least 6 characters on creation (002 §5.1), and the password rules. */
  password: encrypted,
  ...userFields,
});
export const userUpdate = z.object({
  ...userFields,
  /** Encrypted; a new password set by the administrator, who then must be changed at next login. */
  password: encrypted.optional(),
  /** Lifts an automatic lock. */
  unlock: z.boolean().optional(),
});

export const userGroupRow = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int(),
  remark: z.string(),
  user_count: z.number().int(),
});
export const userGroupInput = z.object({
  name,
  parent_id: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
  remark: z.string().max(200).default(''),
});

/** Grants of a role (002 §3 Permissions); `device_groups` as the spec's role answer (000 §3). */
export const roleGrants = z.object({
  device_groups: z.array(z.object({ id: z.number().int() })),
  menu_ids: z.array(z.number().int()),
  function_ids: z.array(z.number().int()),
  video_ids: z.array(z.number().int()),
  contact_ids: z.array(z.number().int()),
});
export const roleRow = z.object({
  id: z.number().int(),
  name: z.string(),
  remark: z.string(),
  user_count: z.number().int(),
});
export const roleDetail = roleRow.extend(roleGrants.shape);
export const roleInput = z.object({
  name,
  remark: z.string().max(200).default(''),
  // A grant needs site, menu and function permissions (002 §6): required, at least one each.
  site_ids: grantIds('users.validation.sites').describe('Sites the role grants (at least one).'),
  menu_ids: grantIds('users.validation.menus').describe('Menu pages the role grants (at least one).'),
  function_ids: grantIds('users.validation.functions').describe(
    'Functions of those pages the role grants (at least one).',
  ),
  video_ids: ids.default([]),
  contact_ids: ids.default([]),
});

export const catalogueMenu: z.ZodType<CatalogueMenu> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    url: z.string(),
    functions: z.array(z.object({ id: z.number().int(), code: z.string(), name: z.string() })),
    children: z.array(catalogueMenu),
  }),
);
export interface CatalogueMenu {
  id: number;
  name: string;
  url: string;
  functions: { id: number; code: string; name: string }[];
  children: CatalogueMenu[];
}

export const accountBlockRow = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  user_name: z.string(),
  reason: z.string(),
  created_at: z.number().int(),
  /** null: everlasting. */
  expires_at: z.number().int().nullable(),
});

export const operationLogRow = z.object({
  id: z.number().int(),
  time: z.number().int(),
  user_name: z.string(),
  ip: z.string(),
  module: z.string(),
  action: z.string(),
  target: z.string(),
  result: z.number().int(),
  detail: z.string(),
});
export const operationLogQuery = pageQuery.extend({
  user_name: z.string().max(64).optional(),
  /** A module code, or the codes of one name separated by commas (the page's module picker). */
  module: z.string().max(64).optional(),
  action: z.string().max(64).optional(),
  result: z.enum(['0', '1']).optional(),
  t1: z.coerce.number().int().min(0).optional(),
  t2: z.coerce.number().int().min(0).optional(),
});

export const usersRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'setting/users',
    summary: 'Users, paged, with a name filter',
    tags: ['users'],
    query: pageQuery.extend({ name: z.string().max(64).optional(), enable: z.enum(['0', '1']).optional() }),
    response: pageOf(userRow),
  }),
  get: defineRoute({
    method: 'GET',
    path: 'setting/users/:id',
    summary: 'One user',
    tags: ['users'],
    params: idParams,
    response: userRow,
  }),
  create: defineRoute({
    method: 'POST',
    path: 'setting/users',
    summary: 'Add a user',
    tags: ['users'],
    body: userCreate,
    response: z.object({ id: z.number().int() }),
  }),
  update: defineRoute({
    method: 'PUT',
    path: 'setting/users/:id',
    summary: 'Change a user',
    tags: ['users'],
    params: idParams,
    body: userUpdate,
    response: z.null(),
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: 'setting/users/:id',
    summary: 'Delete a user (never user 1 or oneself)',
    tags: ['users'],
    params: idParams,
    response: z.null(),
  }),
  userRoles: defineRoute({
    method: 'GET',
    path: 'user/roles',
    summary: 'Role ids of a user (000 §3 user-role answer)',
    tags: ['users'],
    query: z.object({ user_id: id }),
    response: z.object({ user_id: z.number().int(), data: z.array(z.number().int()) }),
  }),
  groups: defineRoute({
    method: 'GET',
    path: 'setting/user_groups',
    summary: 'User groups (a tree by parent_id)',
    tags: ['users'],
    response: pageOf(userGroupRow),
  }),
  group: defineRoute({
    method: 'GET',
    path: 'setting/user_groups/:id',
    summary: 'One user group',
    tags: ['users'],
    params: idParams,
    response: userGroupRow,
  }),
  groupCreate: defineRoute({
    method: 'POST',
    path: 'setting/user_groups',
    summary: 'Add a user group',
    tags: ['users'],
    body: userGroupInput,
    response: z.object({ id: z.number().int() }),
  }),
  groupUpdate: defineRoute({
    method: 'PUT',
    path: 'setting/user_groups/:id',
    summary: 'Change a user group',
    tags: ['users'],
    params: idParams,
    body: userGroupInput,
    response: z.null(),
  }),
  groupRemove: defineRoute({
    method: 'DELETE',
    path: 'setting/user_groups/:id',
    summary: 'Delete a user group without sub-groups or users',
    tags: ['users'],
    params: idParams,
    response: z.null(),
  }),
  roles: defineRoute({
    method: 'GET',
    path: 'setting/roles',
    summary: 'Roles',
    tags: ['users'],
    response: pageOf(roleRow),
  }),
  role: defineRoute({
    method: 'GET',
    path: 'setting/roles/:id',
    summary: 'One role with its grants',
    tags: ['users'],
    params: idParams,
    response: roleDetail,
  }),
  roleCreate: defineRoute({
    method: 'POST',
    path: 'setting/roles',
    summary: 'Add a role with its grants',
    tags: ['users'],
    body: roleInput,
    response: z.object({ id: z.number().int() }),
  }),
  roleUpdate: defineRoute({
    method: 'PUT',
    path: 'setting/roles/:id',
    summary: 'Change a role and its grants (role 1 is the administrator and cannot change)',
    tags: ['users'],
    params: idParams,
    body: roleInput,
    response: z.null(),
  }),
  roleRemove: defineRoute({
    method: 'DELETE',
    path: 'setting/roles/:id',
    summary: 'Delete a role no user holds (never role 1)',
    tags: ['users'],
    params: idParams,
    response: z.null(),
  }),
  menus: defineRoute({
    method: 'GET',
    path: 'setting/menus',
    summary: 'The whole menu catalogue with functions, for grants',
    tags: ['users'],
    response: z.object({ list: z.array(catalogueMenu) }),
  }),
  grantableContacts: defineRoute({
    method: 'GET',
    path: 'setting/roles_contacts',
    summary: 'Contacts a role editor may grant (their own contact grants; all for the administrator)',
    tags: ['users'],
    response: z.object({ list: z.array(z.object({ id: z.number().int(), name: z.string(), phone: z.string() })) }),
  }),
  functions: defineRoute({
    method: 'GET',
    path: 'setting/func',
    summary: 'Functions (buttons) of every page',
    tags: ['users'],
    response: z.object({
      list: z.array(z.object({ id: z.number().int(), menu_id: z.number().int(), code: z.string(), name: z.string() })),
    }),
  }),
  blocks: defineRoute({
    method: 'GET',
    path: 'setting/account_blocks',
    summary: 'The account block list',
    tags: ['security'],
    response: pageOf(accountBlockRow),
  }),
  block: defineRoute({
    method: 'POST',
    path: 'setting/account_blocks',
    summary: 'Block accounts for a number of days or for ever',
    tags: ['security'],
    body: z.object({
      user_ids: ids.min(1),
      reason: z.string().trim().min(1).max(200),
      /** null: everlasting. */
      days: z.number().int().min(1).max(36_500).nullable(),
    }),
    response: z.null(),
  }),
  unblock: defineRoute({
    method: 'DELETE',
    path: 'setting/account_blocks/:id',
    summary: 'Lift a block',
    tags: ['security'],
    params: idParams,
    response: z.null(),
  }),
  operationLog: defineRoute({
    method: 'GET',
    path: 'operation_record',
    summary: 'The operation log: who, what, when, from where, result',
    tags: ['logs'],
    query: operationLogQuery,
    response: pageOf(operationLogRow),
  }),
  operationLogClear: defineRoute({
    method: 'DELETE',
    path: 'operation_record',
    summary: 'Clear the operation log (verification password required)',
    tags: ['logs'],
    body: z.object({ verify_password: encrypted }),
    response: z.null(),
  }),
};

/** Export of the operation log as xlsx (a file, not an envelope): same filters as the list. */
export const operationLogExportPath = '/api/v1/operation_record/export';
