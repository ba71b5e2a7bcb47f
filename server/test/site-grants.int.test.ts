import { expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { createUser, loginHeader } from './helpers/login.ts';

describeEachDatabase('site grants filter what the server answers', (dialect) => {
  const t = useTestApp(dialect, realLogin);

  it('a user granted one site sees only that site, its devices and items; user 1 sees all', async () => {
    const { admin, call } = await signInFirstAdmin(t);
    const north = (await call('POST', 'setting/device_groups', admin, { name: 'North room', weight: 1 })).json().data;
    const south = (await call('POST', 'setting/device_groups', admin, { name: 'South room', weight: 1 })).json().data;
    expect(north.id).toBeGreaterThan(0);
    expect(south.id).toBeGreaterThan(0);
    // Every module's writes reach the operation log through the shared trail.
    const log = await t.database.db.kysely
      .selectFrom('operation_logs')
      .selectAll()
      .where('module', '=', 'setting/device_groups')
      .execute();
    expect(log.map((r) => [r.action, r.user_name, r.target])).toEqual([
      ['create', 'admin', 'North room'],
      ['create', 'admin', 'South room'],
    ]);

    await t.database.db.kysely
      .insertInto('roles')
      .values({ id: 7, name: 'north only', remark: '', created_at: 0 })
      .execute();
    await t.database.db.kysely.insertInto('role_sites').values({ role_id: 7, site_id: north.id }).execute();
    await t.database.db.kysely.insertInto('role_menus').values({ role_id: 7, menu_id: 101 }).execute();
    await createUser(t.database.db, 'northman', 'North-Pass-123', [7]);
    const northman = await loginHeader(t.app, 'northman', 'North-Pass-123');

    const names = (res: { json(): { data: unknown } }) => JSON.stringify(res.json().data);
    const adminTree = names(await call('GET', 'device_groups/menu', admin));
    expect(adminTree).toContain('North room');
    expect(adminTree).toContain('South room');
    const tree = names(await call('GET', 'device_groups/menu', northman));
    expect(tree).toContain('North room');
    expect(tree).not.toContain('South room');
    const sites = (await call('GET', 'setting/device_groups', northman)).json().data;
    expect(sites.data.map((s: { name: string }) => s.name)).toEqual(['North room']);
    expect((await call('GET', `setting/device_groups/${south.id}`, northman)).statusCode).toBe(404);
    const me = (await call('GET', 'user/current', northman)).json().data;
    expect(me.site_ids).toEqual([north.id]);

    // Values of another site's items are not served either.
    const southDevice = (
      await call('POST', 'setting/devices', admin, {
        name: 'TH-S',
        device_group_id: south.id,
        driver: 'simulator',
        code: 'temp_hum',
        template_id: 1,
      })
    ).json().data;
    const southItem = (await call('GET', `setting/items?device_id=${southDevice.id}`, admin)).json().data.data[0];
    const range = 't1=1700000000&t2=1700003600';
    expect((await call('GET', `series/items/${southItem.id}?${range}`, admin)).statusCode).toBe(200);
    expect((await call('GET', `series/items/${southItem.id}?${range}`, northman)).statusCode).toBe(404);
    const trend = `trend?device_name=simulator_${southDevice.id}&item_name=${encodeURIComponent(southItem.name)}&${range}`;
    expect((await call('GET', trend, admin)).statusCode).toBe(200);
    expect((await call('GET', trend, northman)).statusCode).toBe(404);
  });
});
