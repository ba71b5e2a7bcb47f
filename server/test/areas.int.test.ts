import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ensureDeclaredMenus } from '../src/modules/access/menus.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/** The tables of a migrated database, as the database itself lists them. */
const tablesOf = async (t: ReturnType<typeof useTestApp>) => {
  const db = t.database.db;
  const rows =
    db.dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db.kysely)
      : await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(
          db.kysely,
        );
  return rows.rows
    .map((r) => r.name)
    .filter((name) => !name.startsWith('sqlite_') && !name.startsWith('kysely_'))
    .sort();
};

/**
 * The areas declare themselves (docs/architecture.md, "Areas"): every table of the database belongs
 * to exactly one area and says how its rows map to sites, so the backup, the site matrix and the
 * fuzz test can read them; a new table without a declaration fails here.
 */
describeEachDatabase('the areas declare every table', (dialect) => {
  const t = useTestApp(dialect);

  it('every table of the database is declared by exactly one area, and every declared table exists', async () => {
    const owners = new Map<string, string[]>();
    for (const area of t.sitewatch.areas)
      for (const table of Object.keys(area.tables ?? {})) owners.set(table, [...(owners.get(table) ?? []), area.name]);
    const tables = await tablesOf(t);
    expect(tables.filter((table) => !owners.has(table))).toEqual([]);
    expect([...owners].filter(([, areas]) => areas.length > 1)).toEqual([]);
    expect([...owners.keys()].filter((table) => !tables.includes(table))).toEqual([]);
  });

  it('a row mapped through a parent names a declared table, and each column it names exists', async () => {
    const declared = new Map(t.sitewatch.areas.flatMap((a) => Object.entries(a.tables ?? {})));
    const problems: string[] = [];
    for (const [table, declaration] of declared) {
      const mapping = declaration!.sites;
      if (mapping === 'global') continue;
      const column = 'parent' in mapping ? mapping.column : Object.values(mapping)[0]!;
      if ('parent' in mapping && !declared.has(mapping.parent)) problems.push(`${table}: parent ${mapping.parent}`);
      try {
        await t.database.db.kysely
          .selectFrom(table as 'devices')
          .select(sql.ref(column).as('c'))
          .limit(1)
          .execute();
      } catch {
        problems.push(`${table}.${column}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the built-in menu catalogue is what the areas declare: pages, groups and functions', async () => {
    const k = t.database.db.kysely;
    const declared = t.sitewatch.areas.flatMap((a) => a.menus ?? []);
    const rows = await k.selectFrom('menus').selectAll().where('builtin', '=', 1).orderBy('id').execute();
    expect(
      rows.map((m) => ({
        id: m.id,
        parent_id: m.parent_id,
        name_key: m.name_key,
        url: m.url,
        icon: m.icon,
        weight: m.weight,
      })),
    ).toEqual(
      [...declared]
        .sort((a, b) => a.id - b.id)
        .map((m) => ({
          id: m.id,
          parent_id: m.parent_id,
          name_key: m.name_key,
          url: m.url ?? '',
          icon: m.icon,
          weight: m.weight,
        })),
    );
    const functions = await k.selectFrom('functions').select(['menu_id', 'code']).execute();
    expect(functions.map((f) => `${f.menu_id}:${f.code}`).sort()).toEqual(
      declared.flatMap((m) => (m.functions ?? []).map((code) => `${m.id}:${code}`)).sort(),
    );
  });

  it('a page an area declares that the database lacks is added with its functions, once', async () => {
    const k = t.database.db.kysely;
    const page = {
      id: 799,
      parent_id: 790,
      name_key: 'menu.test',
      url: '/test_page',
      icon: 'tool',
      weight: 1,
      functions: ['view', 'edit'],
    };
    const group = { id: 790, parent_id: 0, name_key: 'menu.testGroup', icon: 'tool', weight: 1 };
    expect(await ensureDeclaredMenus(t.database.db, [page, group])).toBe(4);
    expect(await ensureDeclaredMenus(t.database.db, [page, group])).toBe(0);
    expect(await k.selectFrom('functions').select('code').where('menu_id', '=', 799).orderBy('code').execute()).toEqual(
      [{ code: 'edit' }, { code: 'view' }],
    );
    await k.deleteFrom('functions').where('menu_id', '=', 799).execute();
    await k.deleteFrom('menus').where('id', 'in', [799, 790]).execute();
  });

  it('every route belongs to an area, and every area is made once', () => {
    const names = t.sitewatch.areas.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    const unknown = t.sitewatch.routes.filter((r) => r.area !== 'root' && !names.includes(r.area));
    expect(unknown).toEqual([]);
    expect(
      t.sitewatch.routes.filter((r) => r.url.startsWith('/api/v1/') && r.area === 'root').map((r) => r.url),
    ).toEqual(['/api/v1/ws']);
  });
});

/**
 * Each server makes its areas' state of its own (no module-level registries): two apps in one
 * Vitest worker, one started, do not share or start each other's engines.
 */
describeEachDatabase('two apps in one process', (dialect) => {
  const a = useTestApp(dialect);
  const b = useTestApp(dialect);

  it('have engines of their own, and starting one starts only its own', async () => {
    const [sa, sb] = [a.sitewatch.services, b.sitewatch.services];
    expect(sa.inspection.scheduler).not.toBe(sb.inspection.scheduler);
    expect(sa.energyFill).not.toBe(sb.energyFill);
    expect(sa.alarms).not.toBe(sb.alarms);
    await a.sitewatch.start();
    expect([sa.inspection.scheduler.running(), sa.energyFill.running()]).toEqual([true, true]);
    expect([sb.inspection.scheduler.running(), sb.energyFill.running()]).toEqual([false, false]);
    // An event on one app's bus never reaches the other's.
    let heard = 0;
    b.sitewatch.bus.subscribe('config.changed', () => {
      heard += 1;
    });
    a.sitewatch.bus.publish('config.changed', { area: 'sites', ids: null });
    expect(heard).toBe(0);
  });
});
