import { customMenuIdStart } from '@sitewatch/contract/custom-menus';
import type { MenuDeclaration } from '../../area.ts';
import type { Db } from '../../db/kysely.ts';

/**
 * The menu catalogue follows the areas' declarations (docs/menus.md): a page an area declares that
 * the database lacks is added with its functions at start, groups before their pages, so a new area
 * needs no migration for its menus. Rows are never removed or changed here: grants and an
 * integrator's edits of names, order or visibility survive.
 */
export const ensureDeclaredMenus = async (db: Db, menus: readonly MenuDeclaration[]): Promise<number> => {
  const k = db.kysely;
  const have = new Set((await k.selectFrom('menus').select('id').execute()).map((m) => m.id));
  const declaredIds = new Set(menus.map((m) => m.id));
  const depth = (m: MenuDeclaration): number => {
    const parent = menus.find((p) => p.id === m.parent_id);
    return parent && parent.id !== m.id ? depth(parent) + 1 : 0;
  };
  const missing = menus.filter((m) => !have.has(m.id)).sort((a, b) => depth(a) - depth(b));
  for (const m of missing) {
    if (m.id >= customMenuIdStart)
      throw new Error(`menu ${m.id} is in the custom entries' range (${customMenuIdStart} up)`);
    if (m.parent_id !== 0 && !have.has(m.parent_id) && !declaredIds.has(m.parent_id))
      throw new Error(`menu ${m.id} names parent ${m.parent_id}, which no area declares`);
    await k
      .insertInto('menus')
      .values({
        id: m.id,
        parent_id: m.parent_id,
        name_key: m.name_key,
        name: '',
        url: m.url ?? '',
        icon: m.icon,
        target: '_self',
        enable: 1,
        display: 1,
        weight: m.weight,
        builtin: 1,
      })
      .execute();
    have.add(m.id);
  }
  const functions = new Set(
    (await k.selectFrom('functions').select(['menu_id', 'code']).execute()).map((f) => `${f.menu_id}:${f.code}`),
  );
  const newFunctions = menus.flatMap((m) =>
    (m.functions ?? [])
      .filter((code) => !functions.has(`${m.id}:${code}`))
      .map((code) => ({ menu_id: m.id, code, name_key: `functions.${code}` })),
  );
  if (newFunctions.length) await k.insertInto('functions').values(newFunctions).execute();
  return missing.length + newFunctions.length;
};
