import { expect, it } from 'vitest';
import { apiCalls } from './helpers/api-calls.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { testLicenceCode, testLicenceKeys } from './helpers/licence-keys.ts';

/**
 * The licence's quotas count what a request really adds (docs/licence.md, "Quotas"): the areas that
 * own the rows declare a counter for the routes adding several at once. SQLite and PostgreSQL.
 */
describeEachDatabase('licence quotas of batch additions', (dialect) => {
  const t = useManualTestApp(dialect, { licence: { publicKey: testLicenceKeys.publicKey, trialDays: 30 } });
  const { call, ok } = apiCalls(t);
  const counts = async () => {
    const n = async (table: 'devices' | 'items') =>
      Number(
        (
          await t.database.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { devices: await n('devices'), items: await n('items') };
  };

  it('counts what a batch really adds: the points of a template, the devices and items of a copy, new rows of a point table', async () => {
    const sn = (await ok('GET', 'pub/license')).sn as string;
    const room = (await ok('POST', 'setting/device_groups', { name: 'Batch room', weight: 1 })).id as number;
    const activateWith = async (devices: number, items: number, categories: Record<string, number> = {}) => {
      const now = await counts();
      const code = testLicenceCode(sn, {
        devices: now.devices + devices,
        items: now.items + items,
        categories,
      });
      await ok('POST', 'pub/license', { code });
    };

    await activateWith(10, 100);
    const fromTemplate = { device_group_id: room, driver: 'simulator', code: 'temp_hum', template_id: 1 };
    const made = await call('POST', 'setting/devices', { ...fromTemplate, name: 'TH-T1' });
    expect(made.status).toBe(200);
    const id = made.body.data.id as number;
    const points = (await call('GET', `setting/items?device_id=${id}&page=1&page_size=100`)).body.data.data.length;
    expect(points).toBeGreaterThan(1);

    // Room for every device but one item fewer than the template has: each batch is refused.
    await activateWith(10, points - 1);
    const before = await counts();
    const refusedForItems = async (method: 'POST', url: string, body: object) => {
      const res = await call(method, url, body);
      expect(res.status, url).toBe(409);
      expect(res.body.message).toMatch(/^监控项数量已达到授权上限（\d+个），不能再添加！$/);
    };
    await refusedForItems('POST', 'setting/devices', { ...fromTemplate, name: 'TH-T2' });
    await refusedForItems('POST', `setting/devices/${id}/copy`, { count: 1 });
    await refusedForItems('POST', `setting/device_groups/${room}/copy`, { count: 1 });
    expect(await counts()).toEqual(before);

    // A point table adds only its new names: the device's own table updates, renamed rows add.
    const csv = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/setting/devices/${id}/points?format=csv`,
        headers: { authorization: 'Bearer admin-token' },
      })
    ).body.replace(/^\uFEFF/, '');
    const [header, ...rows] = csv.split('\r\n').filter(Boolean);
    const renamed = (n: number) =>
      [header, ...rows.slice(0, n).map((r) => r.replace(/^([^,]*)/, '$1 copy'))].join('\r\n');
    expect((await call('POST', `setting/devices/${id}/points`, { format: 'csv', content: csv })).status).toBe(200);
    await refusedForItems('POST', `setting/devices/${id}/points`, { format: 'csv', content: renamed(points) });
    const fits = await call('POST', `setting/devices/${id}/points`, { format: 'csv', content: renamed(points - 1) });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect(fits.body.data).toMatchObject({ created: points - 1 });
    // The item quota is full now; a device without a template adds no item and still fits.
    expect(
      (await call('POST', 'setting/devices', { ...fromTemplate, name: 'TH-plain', template_id: null })).status,
    ).toBe(200);

    // A copied site's devices count by their category.
    const thNow = (await call('GET', 'pub/categorys_license')).body.data.data.find(
      (c: { code: string }) => c.code === 'temp_hum',
    ).count as number;
    await activateWith(10, 100, { temp_hum: thNow + 1 });
    const site = await call('POST', `setting/device_groups/${room}/copy`, { count: 1 });
    expect(site.status).toBe(409);
    expect(site.body.message).toBe(`温湿度设备数量已达到授权上限（${thNow + 1}台），不能再添加！`);
  });
});
