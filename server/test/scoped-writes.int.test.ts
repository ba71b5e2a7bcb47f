import { expect, it } from 'vitest';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser } from './helpers/login.ts';

/**
 * Writes are scoped like reads (issue 11, finding 1): a user granted site A with every function of
 * the site, device and item pages tries the probe's writes against sites B and C. Rows of other
 * sites do not exist for them (404), other target sites are refused (403), a top-level site needs
 * every site, and every refusal changes nothing.
 */
describeEachDatabase('writes to sites, devices and items hold to the site grants', (dialect) => {
  const t = useTestApp(dialect);
  const k = () => t.database.db.kysely;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = 'a-token') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const ok = async (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, token = 'admin-token') => {
    const res = await call(method, url, payload, token);
    expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  };
  const at = { a: 0, b: 0, c: 0, deviceA: 0, deviceB: 0, itemA: 0, itemB: 0 };
  const device = (site: number, name: string) => ({
    name,
    device_group_id: site,
    driver: 'simulator',
    code: 'temp_hum',
  });
  const item = (deviceId: number, max = 30) => ({
    device_id: deviceId,
    name: '温度',
    value_type: 1,
    threshold_min: 10,
    threshold_max: max,
    overrun_point: 0,
    recovery_point: 1,
    source: { kind: 'simulator', model: 'analog', base: 20 },
  });

  it('sets up three sites and a user granted only site A with every function of the three pages', async () => {
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    at.a = (await ok('POST', 'setting/device_groups', { name: 'Site A', weight: 3 })).id;
    at.b = (await ok('POST', 'setting/device_groups', { name: 'Site B', weight: 2 })).id;
    at.c = (await ok('POST', 'setting/device_groups', { name: 'Site C', weight: 1 })).id;
    at.deviceA = (await ok('POST', 'setting/devices', device(at.a, 'TH-A'))).id;
    at.deviceB = (await ok('POST', 'setting/devices', device(at.b, 'TH-B'))).id;
    at.itemA = (await ok('POST', 'setting/items', item(at.deviceA))).id;
    at.itemB = (await ok('POST', 'setting/items', item(at.deviceB))).id;
    await k().insertInto('roles').values({ id: 31, name: 'site A', remark: '', created_at: 0 }).execute();
    const userId = await createUser(t.database.db, 'manager-a', 'Some-Pass-123', [31]);
    await k().insertInto('role_sites').values({ role_id: 31, site_id: at.a }).execute();
    for (const menu_id of [211, 212, 213]) {
      await k().insertInto('role_menus').values({ role_id: 31, menu_id }).execute();
      for (const f of await k().selectFrom('functions').select('id').where('menu_id', '=', menu_id).execute())
        await k().insertInto('role_functions').values({ role_id: 31, function_id: f.id }).execute();
    }
    fakeTokens['a-token'] = { user_id: userId, user_name: 'manager-a', session_id: 3100 };
  });

  const refused: Array<[string, 'POST' | 'PUT' | 'DELETE', () => string, () => object | undefined, number]> = [
    ['rename site B', 'PUT', () => `setting/device_groups/${at.b}`, () => ({ name: 'mine now', weight: 2 }), 404],
    ['delete site B', 'DELETE', () => `setting/device_groups/${at.b}`, () => undefined, 404],
    ['copy site B', 'POST', () => `setting/device_groups/${at.b}/copy`, () => ({ count: 1, with_devices: true }), 404],
    ['create a top-level site', 'POST', () => 'setting/device_groups', () => ({ name: 'Top', weight: 1 }), 403],
    [
      'create a sub-site of C',
      'POST',
      () => 'setting/device_groups',
      () => ({ name: 'C1', weight: 1, parent_id: at.c }),
      403,
    ],
    [
      'move site A under C',
      'PUT',
      () => `setting/device_groups/${at.a}`,
      () => ({ name: 'Site A', weight: 3, parent_id: at.c }),
      403,
    ],
    ['rename device B', 'PUT', () => `setting/devices/${at.deviceB}`, () => device(at.b, 'mine'), 404],
    ['move device B into site A', 'PUT', () => `setting/devices/${at.deviceB}`, () => device(at.a, 'TH-B'), 404],
    ['move device A into site B', 'PUT', () => `setting/devices/${at.deviceA}`, () => device(at.b, 'TH-A'), 403],
    ['create a device in site B', 'POST', () => 'setting/devices', () => device(at.b, 'new'), 403],
    [
      'copy device A into site C',
      'POST',
      () => `setting/devices/${at.deviceA}/copy`,
      () => ({ count: 1, device_group_id: at.c }),
      403,
    ],
    ['copy device B', 'POST', () => `setting/devices/${at.deviceB}/copy`, () => ({ count: 1 }), 404],
    ['delete device B', 'DELETE', () => `setting/devices/${at.deviceB}`, () => undefined, 404],
    [
      'bulk-move devices into site B',
      'PUT',
      () => 'setting/devices/bulk',
      () => ({ ids: [at.deviceA], device_group_id: at.b }),
      403,
    ],
    ['change a threshold of site B', 'PUT', () => `setting/items/${at.itemB}`, () => item(at.deviceB, 99), 404],
    ['move item A to device B', 'PUT', () => `setting/items/${at.itemA}`, () => item(at.deviceB), 403],
    ['create an item on device B', 'POST', () => 'setting/items', () => item(at.deviceB), 403],
    ['delete item B', 'DELETE', () => `setting/items/${at.itemB}`, () => undefined, 404],
  ];
  it.each(refused)('refuses: %s', async (_what, method, url, payload, status) => {
    const before = await snapshotDigest(t.database.db);
    const res = await call(method, url(), payload());
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).not.toBe(0);
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('bulk edits are all or nothing: one row of another site refuses the whole request, nothing changed', async () => {
    const before = await snapshotDigest(t.database.db);
    const devices = await call('PUT', 'setting/devices/bulk', { ids: [at.deviceA, at.deviceB], enable: false });
    expect(devices.status).toBe(404);
    const items = await call('PUT', 'setting/items/bulk', { ids: [at.itemA, at.itemB], set: { threshold_max: 50 } });
    expect(items.status).toBe(404);
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('refuses setpoints a driver cannot carry (not finite, or beyond a 32-bit float) with a 400', async () => {
    for (const value of [1e308, 1e39, -1e39]) {
      const before = await snapshotDigest(t.database.db);
      const res = await call('PUT', 'device_groups/device/item', { item_id: at.itemA, value }, 'admin-token');
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/3\.4e38/);
      expect(await snapshotDigest(t.database.db)).toBe(before);
    }
  });

  it('inside the grant everything still works, and a sub-site the user adds stays theirs', async () => {
    await ok('PUT', `setting/items/${at.itemA}`, item(at.deviceA, 40), 'a-token');
    const sub = await ok('POST', 'setting/device_groups', { name: 'A1', weight: 1, parent_id: at.a }, 'a-token');
    await ok('POST', 'setting/devices', device(sub.id, 'TH-A1'), 'a-token');
    const sites = await ok('GET', 'setting/device_groups?page=1&limit=100', undefined, 'a-token');
    expect(sites.data.map((s: { name: string }) => s.name).sort()).toEqual(['A1', 'Site A']);
  });

  it('the administrator still reaches every site and may add a top-level one', async () => {
    await ok('PUT', `setting/devices/${at.deviceB}`, device(at.c, 'TH-B'));
    await ok('POST', 'setting/device_groups', { name: 'Top', weight: 1 });
  });
});
