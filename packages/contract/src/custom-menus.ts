import { z } from 'zod';
import { idParams } from './monitoring/fields.ts';
import { defineRoute } from './route.ts';

/**
 * Custom menus (002 §2.3, §3 "Custom menu", §7.1 `setting/menus`; issue 31 item 4;
 * docs/custom-menus.md): an administrator adds entries to the menu catalogue (a group, or a link to
 * an http(s) address or a `/static/` path, opened in the main frame or a new tab) and hides,
 * disables and orders every entry. Built-in entries keep their ids, names and addresses.
 */

/** The page that manages the entries (docs/menus.md, 400 System). */
export const settingMenuId = 425;
/** The asset-management entry of 000 §6: a link to another system whose address the administrator sets. */
export const assetMenuId = 426;
/** Custom entries get ids from here up; built-in ids stay below (docs/menus.md). */
export const customMenuIdStart = 100_000;

const msg = (key: string) => `customMenus.validation.${key}`;

/** Addresses `/external_link` shows (000 §2.5): an http(s) address or a path under `/static/`. */
export const isExternalAddress = (url: string) => /^https?:\/\//i.test(url) || url.startsWith('/static/');

/** http(s), a host name or IP (no user name or password: no `@`), an optional port, then a path, query or fragment. */
const httpAddress = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:\d{1,5})?([/?#][^\s]*)?$/i;

/**
 * Whether an address is one an entry may hold: http or https with a host (no javascript:, data:,
 * file: or credentials in it), or a `/static/` path of the console without `..`, backslashes or
 * control characters.
 */
export const isSafeLinkAddress = (url: string): boolean => {
  const control = [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (url.length > 300 || control || /[\s\\<>"'`]/.test(url)) return false;
  if (url.startsWith('/static/')) return !/(^|\/)\.\.?(\/|$)|\/\/|%2e|%2f|%5c/i.test(url.slice(1));
  return httpAddress.test(url);
};

const linkAddress = z
  .string()
  .trim()
  .max(300, { message: msg('url') })
  .refine((v) => v === '' || isSafeLinkAddress(v), { message: msg('url') })
  .describe('An http(s) address or a /static/ path; empty for a group of entries.');

export const menuTarget = z.enum(['_self', '_blank']).describe('_self: the main frame; _blank: a new tab.');

/** An antd icon name as the menu uses them (`setting`, `line-chart`); empty for none. */
const icon = z
  .string()
  .trim()
  .max(64, { message: msg('icon') })
  .regex(/^[a-z0-9-]*$/, { message: msg('icon') });

/** Sort number (002 §5.1): a positive integer not starting with 0, as a number or its digits. */
const weight = z.preprocess(
  (v) => (typeof v === 'string' && /^[1-9]\d{0,5}$/.test(v) ? Number(v) : v),
  z
    .number({ message: msg('weight') })
    .int({ message: msg('weight') })
    .min(1, { message: msg('weight') })
    .max(999_999, { message: msg('weight') }),
);

const name = z
  .string({ message: msg('name') })
  .trim()
  .min(1, { message: msg('name') })
  .max(64, { message: msg('nameTooLong') });

export const customMenuInput = z.strictObject({
  name,
  icon: icon.default(''),
  parent_id: z
    .number({ message: msg('parent') })
    .int({ message: msg('parent') })
    .min(0, { message: msg('parent') }),
  url: linkAddress.default(''),
  target: menuTarget.default('_self'),
  display: z.boolean().default(true),
  enable: z.boolean().default(true),
  weight: weight,
});
export type CustomMenuInput = z.input<typeof customMenuInput>;

/**
 * A change of an entry: only the fields given change. A built-in entry takes `icon`, `display`,
 * `enable` and `weight` (the asset entry also `url`, its system's address, and `target`).
 */
export const customMenuPatch = z.strictObject({
  name: name.optional(),
  icon: icon.optional(),
  parent_id: z
    .number({ message: msg('parent') })
    .int({ message: msg('parent') })
    .min(0, { message: msg('parent') })
    .optional(),
  url: linkAddress.optional(),
  target: menuTarget.optional(),
  display: z.boolean().optional(),
  enable: z.boolean().optional(),
  weight: weight.optional(),
});
export type CustomMenuPatch = z.input<typeof customMenuPatch>;

export const menuEntryKind = z.enum(['builtin', 'custom', 'asset']);

/** One row of the catalogue as /setting_menu edits it (a flat list; `parent_id` makes the tree). */
export const menuEntry = z.object({
  id: z.number().int(),
  parent_id: z.number().int(),
  name: z.string(),
  /** A page's route, a custom entry's address (the asset entry: its system's address, '' when unset). */
  url: z.string(),
  icon: z.string(),
  target: z.string(),
  enable: z.boolean(),
  display: z.boolean(),
  weight: z.number().int(),
  kind: menuEntryKind,
  /** Whether the entry holds others (no address of its own): it may be a parent. */
  group: z.boolean(),
});
export type MenuEntry = z.infer<typeof menuEntry>;

export const menuLink = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  target: z.string(),
});
export type MenuLink = z.infer<typeof menuLink>;

const tags = ['custom-menus'];

export const customMenusRoutes = {
  entries: defineRoute({
    method: 'GET',
    path: 'setting/menus/entries',
    summary: 'Every entry of the menu catalogue with its order, visibility and state, for /setting_menu',
    tags,
    response: z.object({ list: z.array(menuEntry) }),
  }),
  create: defineRoute({
    method: 'POST',
    path: 'setting/menus',
    summary: 'Adds a custom menu entry (a group, or a link opened in the main frame or a new tab)',
    tags,
    body: customMenuInput,
    response: z.object({ id: z.number().int() }),
  }),
  update: defineRoute({
    method: 'PUT',
    path: 'setting/menus/:id',
    summary: 'Changes an entry: a custom one wholly, a built-in one its icon, order, visibility and state',
    tags,
    params: idParams,
    body: customMenuPatch,
    response: z.null(),
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: 'setting/menus',
    summary: 'Deletes custom entries (with the entries under them); built-in entries are never deleted',
    tags,
    body: z.strictObject({
      ids: z
        .array(z.number().int().positive())
        .min(1, { message: msg('ids') })
        .max(200),
    }),
    response: z.object({ deleted: z.number().int() }),
  }),
  link: defineRoute({
    method: 'GET',
    path: 'menus/link',
    summary: 'The entry behind an /external_link address, when the caller holds it (else 403)',
    tags,
    query: z.object({ url: z.string().max(300) }),
    response: menuLink,
  }),
  asset: defineRoute({
    method: 'GET',
    path: 'menus/asset',
    summary: "The asset-management system's address and how it opens ('' when the administrator has not set it)",
    tags,
    response: z.object({ url: z.string(), target: z.string() }),
  }),
};
