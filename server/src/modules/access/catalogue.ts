import { customMenuIdStart } from '@sitewatch/contract/custom-menus';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { MenusTable } from '../../db/schema.ts';

export type MenuRow = Selectable<MenusTable>;

/** What of an entry may change: a built-in one only its presentation (icon, order, visibility, state, open mode). */
export interface MenuPresentation {
  icon?: string;
  target?: string;
  weight?: number;
  display?: boolean;
  enable?: boolean;
}
export interface CustomMenuFields extends MenuPresentation {
  parent_id?: number;
  name?: string;
  url?: string;
}

/**
 * The access area's seam for editing the menu catalogue (docs/menus.md, "Custom entries"): the
 * custom-menus area adds, changes and deletes entries only through it. Built-in rows keep their id,
 * name, parent and route here whatever the caller asks; only custom rows are ever deleted, and their
 * grants go with them (role_menus cascades).
 */
export interface MenuCatalogue {
  rows(): Promise<MenuRow[]>;
  row(id: number): Promise<MenuRow | undefined>;
  addCustom(fields: Required<CustomMenuFields>): Promise<number>;
  /** Changes a custom row's fields, or a built-in row's presentation (other fields are refused). */
  update(id: number, fields: CustomMenuFields): Promise<void>;
  /** Deletes custom rows (never a built-in one: it throws, and nothing is deleted). */
  removeCustom(ids: number[]): Promise<number>;
}

const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

export const createMenuCatalogue = (db: Db): MenuCatalogue => {
  const k = db.kysely;
  const row = (id: number) => k.selectFrom('menus').selectAll().where('id', '=', id).executeTakeFirst();
  return {
    rows: () => k.selectFrom('menus').selectAll().orderBy('weight', 'desc').orderBy('id').execute(),
    row,
    addCustom: (f) =>
      k.transaction().execute(async (tx) => {
        const top = await tx
          .selectFrom('menus')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst();
        const id = Math.max(customMenuIdStart, Number(top?.id ?? 0) + 1);
        await tx
          .insertInto('menus')
          .values({
            id,
            parent_id: f.parent_id,
            name_key: null,
            name: f.name,
            url: f.url,
            icon: f.icon,
            target: f.target,
            enable: f.enable ? 1 : 0,
            display: f.display ? 1 : 0,
            weight: f.weight,
            builtin: 0,
          })
          .execute();
        return id;
      }),
    async update(id, f) {
      const current = await row(id);
      if (!current) throw new Error(`menu ${id} does not exist`);
      const fixed = current.builtin === 1 && ['parent_id', 'name', 'url'].some((key) => key in f);
      if (fixed) throw new Error(`menu ${id} is built in: only its presentation changes`);
      const values = {
        icon: f.icon,
        weight: f.weight,
        display: flag(f.display),
        enable: flag(f.enable),
        parent_id: f.parent_id,
        name: f.name,
        url: f.url,
        target: f.target,
      };
      const set = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
      if (Object.keys(set).length) await k.updateTable('menus').set(set).where('id', '=', id).execute();
    },
    removeCustom: (ids) =>
      k.transaction().execute(async (tx) => {
        if (ids.length === 0) return 0;
        const rows = await tx.selectFrom('menus').select(['id', 'builtin']).where('id', 'in', ids).execute();
        if (rows.some((r) => r.builtin === 1)) throw new Error('built-in menus are never deleted');
        // Grants and functions of the rows go by their foreign keys (cascade).
        await tx.deleteFrom('role_menus').where('menu_id', 'in', ids).execute();
        await tx.deleteFrom('functions').where('menu_id', 'in', ids).execute();
        const result = await tx.deleteFrom('menus').where('id', 'in', ids).where('builtin', '=', 0).execute();
        return result.reduce((n, r) => n + Number(r.numDeletedRows), 0);
      }),
  };
};
