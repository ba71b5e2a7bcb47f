import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { down, up } from '../src/db/migrations/0023-energy-menus.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { createUser, loginHeader } from './helpers/login.ts';

interface Node {
  url: string;
  functions: string[];
  children: Node[];
}
const pages = (nodes: Node[]): Record<string, string[]> =>
  Object.assign(
    {},
    ...nodes.map((n) => ({ ...(n.url ? { [n.url]: [...n.functions].sort() } : {}), ...pages(n.children) })),
  );

/**
 * The energy pages' menus (migration 0023-energy-menus, docs/energy.md "Web pages"): the administrator
 * sees them; writes need /setting_energy's or /energy_manage/param_config's functions, which the
 * migration gives to the roles that could edit devices (what the writes needed before), and to no other.
 */
describeEachDatabase('energy menus and their grants', (dialect) => {
  const t = useTestApp(dialect, realLogin);

  it('lists the energy pages and moves the device editors’ energy rights to them', async () => {
    const { admin } = await signInFirstAdmin(t);
    const menus = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/v1/menus', headers }).then((r) => pages(r.json().data.list as Node[]));
    expect(await menus(admin)).toMatchObject({
      '/energy_survey': ['view'],
      '/electric_statistics': ['view'],
      '/setting_energy': ['add', 'delete', 'edit', 'view'],
      '/energy_manage/energy_servey': ['view'],
      '/energy_manage/energy_static': ['view'],
      '/energy_manage/energy_analysis': ['view'],
      '/energy_manage/cost_static': ['view'],
      '/energy_manage/time_share_static': ['view'],
      '/energy_manage/param_config': ['add', 'delete', 'edit', 'view'],
    });

    // Two roles made before the migration: one edits devices, one only views them.
    const k = t.database.db.kysely;
    const fn = async (menu: number, code: string) =>
      (
        await k
          .selectFrom('functions')
          .select('id')
          .where('menu_id', '=', menu)
          .where('code', '=', code)
          .executeTakeFirstOrThrow()
      ).id;
    await k
      .insertInto('roles')
      .values([
        { id: 7, name: 'device editors', remark: '', created_at: 0 },
        { id: 8, name: 'device viewers', remark: '', created_at: 0 },
      ])
      .execute();
    await k
      .insertInto('role_menus')
      .values([7, 8].flatMap((role_id) => [210, 212].map((menu_id) => ({ role_id, menu_id }))))
      .execute();
    await k
      .insertInto('role_functions')
      .values([
        { role_id: 7, function_id: await fn(212, 'edit') },
        { role_id: 8, function_id: await fn(212, 'view') },
      ])
      .execute();
    await down(k as unknown as Kysely<unknown>);
    await up(k as unknown as Kysely<unknown>);
    await createUser(t.database.db, 'editor', 'Editor-Pass-123', [7]);
    await createUser(t.database.db, 'viewer', 'Viewer-Pass-123', [8]);
    const editor = await loginHeader(t.app, 'editor', 'Editor-Pass-123');
    const viewer = await loginHeader(t.app, 'viewer', 'Viewer-Pass-123');
    expect(await menus(editor)).toMatchObject({
      '/setting_energy': ['add', 'delete', 'edit', 'view'],
      '/energy_manage/param_config': ['add', 'delete', 'edit', 'view'],
    });
    expect(Object.keys(await menus(viewer)).filter((u) => u.includes('energy'))).toEqual([]);

    const tariff = {
      name: 'Flat',
      gradients: [{ start: 0, end: null, price: 0.6 }],
    };
    const post = (url: string, headers: Record<string, string>, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers, payload });
    expect((await post('stairstep', viewer, tariff)).statusCode).toBe(403);
    expect((await post('stairstep', editor, tariff)).statusCode).toBe(200);
    const meter = { name: 'M', item_id: 999_999, kind: 'counter', category: 'it', device_group_id: 1 };
    expect((await post('setting/energy', viewer, meter)).statusCode).toBe(403);
    // Past the grant: the item does not exist.
    expect((await post('setting/energy', editor, meter)).statusCode).toBe(404);
    // Device editing alone no longer writes energy: a role made now with 212's edit only is refused.
    await k
      .deleteFrom('role_functions')
      .where('role_id', '=', 7)
      .where('function_id', '!=', await fn(212, 'edit'))
      .execute();
    await k.deleteFrom('role_menus').where('role_id', '=', 7).where('menu_id', 'not in', [210, 212]).execute();
    expect((await post('stairstep', editor, { ...tariff, name: 'Other' })).statusCode).toBe(403);
  });
});
