import { expect, it } from 'vitest';
import { createSeriesStore } from '../src/series/store.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { addDeviceItems, addSite, realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { createUser, loginHeader } from './helpers/login.ts';

const h = 3600;
const base = Date.UTC(2026, 2, 1, 0) / 1000;

/**
 * Energy (docs/energy.md) through the API on both databases: meters on device items, counter
 * readings in the series store, consumption per hour, a tariff's exact cost, PUE with its category,
 * validation messages of 002 §5.1 (nothing stored on refusal), and site grants.
 */
describeEachDatabase('energy: meters, consumption, tariffs, cost and PUE', (dialect) => {
  const t = useTestApp(dialect, realLogin);

  it('configures meters and a tariff, answers consumption, cost and PUE, and refuses bad input', async () => {
    const { admin, call } = await signInFirstAdmin(t);
    const north = await addSite(call, 'North room');
    const south = await addSite(call, 'South room');
    const itemsOf = async (siteId: number) =>
      (await addDeviceItems(call, siteId, { name: `PM-${siteId}`, code: 'temp_hum', template_id: 1 })).items;
    const [totalItem, itItem] = await itemsOf(north);
    const [southItem] = await itemsOf(south);

    const meter = (body: object) => call('POST', 'setting/energy', admin, body);
    const m1 = await meter({
      name: 'Incoming',
      item_id: totalItem,
      kind: 'counter',
      category: 'total',
      device_group_id: north,
    });
    expect(m1.statusCode).toBe(200);
    const m2 = await meter({
      name: 'PDU',
      item_id: itItem,
      kind: 'counter',
      category: 'it',
      device_group_id: north,
      measure_point: 'pdu_output',
    });
    expect(m2.json().data).toMatchObject({
      item_id: itItem,
      category: 'it',
      measure_point: 'pdu_output',
      device_group_name: 'North room',
    });
    const m3 = await meter({
      name: 'South IT',
      item_id: southItem,
      kind: 'counter',
      category: 'it',
      device_group_id: south,
    });
    expect(m3.statusCode).toBe(200);
    // Refused: the same item twice, an unknown item, a bad category; nothing more stored.
    expect(
      (await meter({ name: 'Again', item_id: totalItem, kind: 'counter', category: 'it', device_group_id: north }))
        .statusCode,
    ).toBe(409);
    expect(
      (await meter({ name: 'X', item_id: 999_999, kind: 'counter', category: 'it', device_group_id: north }))
        .statusCode,
    ).toBe(404);
    expect(
      (await meter({ name: 'X', item_id: itItem, kind: 'counter', category: 'nuclear', device_group_id: north }))
        .statusCode,
    ).toBe(400);
    expect((await call('GET', 'setting/energy', admin)).json().data).toHaveLength(3);

    // Counter readings every 15 minutes from an hour before the range: 10 kWh/h incoming, 5 kWh/h IT.
    const store = createSeriesStore(t.database.db);
    for (let k = 0; k < 16; k++) {
      const ts = base - h + k * 900;
      store.append(totalItem!, ts * 1000, 1000 + (10 * (k * 900)) / h);
      store.append(itItem!, ts * 1000, 500 + (5 * (k * 900)) / h);
    }
    await store.flush();
    const range = `t1=${base}&t2=${base + 3 * h - 1}&interval=hour`;
    const used = (await call('GET', `energy/energy_used?device_group_id=${north}&${range}`, admin)).json().data;
    expect(used.map((m: { name: string; total_kwh: number }) => [m.name, m.total_kwh])).toEqual([
      ['Incoming', 30],
      ['PDU', 15],
    ]);
    expect(used[0].buckets.map((b: { ts: number; kwh: number }) => [b.ts - base, b.kwh])).toEqual([
      [0, 10],
      [h, 10],
      [2 * h, 10],
    ]);

    const ranking = (await call('GET', `energy/item_energy_ranking?${range}`, admin)).json().data;
    expect(ranking.map((m: { name: string; kwh: number }) => [m.name, m.kwh])).toEqual([
      ['Incoming', 30],
      ['PDU', 15],
      ['South IT', 0],
    ]);
    const ratio = (
      await call('GET', `energy_analysis/ratio_statistics?device_group_id=${north}&${range}`, admin)
    ).json().data;
    expect(ratio).toEqual([{ category: 'it', kwh: 15, percent: 100 }]);
    const pue = (await call('GET', `energy/pue_value?device_group_id=${north}&${range}`, admin)).json().data;
    expect(pue).toMatchObject({ category: 2, total_source: 'total_meters', pue: 2, ppue_cooling: 1 });
    expect(pue.buckets.map((b: { pue: number }) => b.pue)).toEqual([2, 2, 2]);
    expect((await call('GET', `energy/pue_value?${range}`, admin)).json().message).toBe('请选择站点');

    // Tariffs: the spec's messages word for word, nothing stored on refusal.
    const stairBad = await call('POST', 'stairstep', admin, {
      name: 'Stair',
      gradients: [{ start: 100, end: 50, price: 0.5 }],
    });
    expect(stairBad.statusCode).toBe(400);
    expect(stairBad.json().message).toBe('电量的结束值不能小于开始值！');
    const noGradient = await call('POST', 'stairstep', admin, { name: 'Stair', gradients: [] });
    expect(noGradient.json().message).toBe('至少需要一个梯度！');
    expect((await call('GET', 'stairstep', admin)).json().data).toEqual([]);
    const flat = await call('POST', 'time_sharing_system', admin, {
      name: 'Flat',
      slots: [{ start: '00:00', end: '24:00', band: 'flat', price: 0.6523 }],
    });
    expect(flat.statusCode).toBe(200);
    const dup = await call('POST', 'stairstep', admin, {
      name: 'Flat',
      gradients: [{ start: 0, end: null, price: 1 }],
    });
    expect(dup.json().message).toBe('名称不能重复！');
    expect((await call('GET', 'stairstep', admin)).json().data).toEqual([]);
    const gap = await call('POST', 'time_sharing_system', admin, {
      name: 'Gap',
      slots: [{ start: '08:00', end: '22:00', band: 'peak', price: 1 }],
    });
    expect(gap.statusCode).toBe(400);

    const set = await call('PUT', `energy_cost_set/${north}`, admin, { tariff_id: flat.json().data.id, valid_from: 0 });
    expect(set.json().data).toMatchObject({ device_group_id: north, tariff_name: 'Flat' });
    expect((await call('DELETE', `time_sharing_system/${flat.json().data.id}`, admin)).statusCode).toBe(409);
    const cost = (await call('GET', `energy_analysis/cost_statistics?device_group_id=${north}&${range}`, admin)).json()
      .data;
    // 30 kWh × 0.6523 = 19.569 → 19.57 yuan; 15 kWh × 0.6523 = 9.7845 → 9.78.
    expect(cost.map((c: { name: string; cost_cents: number }) => [c.name, c.cost_cents])).toEqual([
      ['Incoming', 1957],
      ['PDU', 978],
    ]);

    // Grants: a user of the north site sees its meters only, and may not configure without the function.
    await t.database.db.kysely
      .insertInto('roles')
      .values({ id: 7, name: 'north only', remark: '', created_at: 0 })
      .execute();
    await t.database.db.kysely.insertInto('role_sites').values({ role_id: 7, site_id: north }).execute();
    await createUser(t.database.db, 'northman', 'North-Pass-123', [7]);
    const northman = await loginHeader(t.app, 'northman', 'North-Pass-123');
    const seen = (await call('GET', 'setting/energy', northman)).json().data.map((m: { name: string }) => m.name);
    expect(seen).toEqual(['Incoming', 'PDU']);
    expect((await call('GET', `energy/energy_used?device_group_id=${south}&${range}`, northman)).json().data).toEqual(
      [],
    );
    expect((await call('GET', `energy/pue_value?device_group_id=${south}&${range}`, northman)).statusCode).toBe(404);
    const refused = await call('POST', 'setting/energy', northman, {
      name: 'Mine',
      item_id: southItem,
      kind: 'counter',
      category: 'it',
      device_group_id: north,
    });
    expect(refused.statusCode).toBe(403);
    expect((await call('DELETE', `setting/energy/${m3.json().data.id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', 'setting/energy', admin)).json().data).toHaveLength(2);
  });
});
