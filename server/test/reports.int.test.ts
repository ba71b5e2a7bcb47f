import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { createSeriesStore } from '../src/series/store.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser } from './helpers/login.ts';

const admin = 'admin-token';

const readSheet = async (payload: Buffer) => {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: sheet.name, rows };
};

describeEachDatabase('reports: data list and history report', (dialect) => {
  const t = useTestApp(dialect);
  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
    token = admin,
    lang = 'zh_cn',
  ) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token}`, 'accept-language': lang },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const json = String(res.headers['content-type']).includes('json');
    return { status: res.statusCode, body: json ? res.json() : null, raw: res.rawPayload };
  };
  const ok = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, token = admin) => {
    const res = await call(method, url, payload, token);
    if (res.status !== 200) throw new Error(`${method} ${url}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const k = () => t.database.db.kysely;

  // The estate: site A with sub-site A1, and site B; one temperature/humidity device in each.
  const estate = { a: 0, a1: 0, b: 0, items: {} as Record<string, number> };
  const grant = async (roleId: number, userName: string, menus: number[], functions: Array<[number, string]>) => {
    await k().insertInto('roles').values({ id: roleId, name: userName, remark: '', created_at: 0 }).execute();
    const userId = await createUser(t.database.db, userName, 'Some-Pass-123', [roleId]);
    for (const menu_id of menus) await k().insertInto('role_menus').values({ role_id: roleId, menu_id }).execute();
    for (const [menu, code] of functions) {
      const f = await k()
        .selectFrom('functions')
        .select('id')
        .where('menu_id', '=', menu)
        .where('code', '=', code)
        .executeTakeFirstOrThrow();
      await k().insertInto('role_functions').values({ role_id: roleId, function_id: f.id }).execute();
    }
    fakeTokens[`${userName}-token`] = { user_id: userId, user_name: userName, session_id: 1000 + roleId };
  };

  it('sets up sites, devices, item values, an open alarm and users granted one site', async () => {
    // User 1 is never restricted: the administrator takes that id.
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    estate.a = (await ok('POST', 'setting/device_groups', { name: 'Site A', weight: 3 })).id;
    estate.a1 = (await ok('POST', 'setting/device_groups', { name: 'Site A1', weight: 2, parent_id: estate.a })).id;
    estate.b = (await ok('POST', 'setting/device_groups', { name: 'Site B', weight: 1 })).id;
    const values: Record<string, Array<[number | null, number]>> = {
      A: [
        [25, 1],
        [80, 2],
      ],
      A1: [
        [null, 4],
        [50, 1],
      ],
      B: [
        [30, 1],
        [40, 1],
      ],
    };
    for (const [key, site] of [
      ['A', estate.a],
      ['A1', estate.a1],
      ['B', estate.b],
    ] as const) {
      const dev = await ok('POST', 'setting/devices', {
        name: `TH-${key}`,
        device_group_id: site,
        driver: 'simulator',
        code: 'temp_hum',
        template_id: 1,
      });
      const items = (await ok('GET', `setting/items?device_id=${dev.id}`)).data as Array<{
        id: number;
        item_cell_name: string;
      }>;
      expect(items.map((i) => i.item_cell_name)).toEqual(['TEMP', 'HUM']);
      for (const [i, item] of items.entries()) {
        const [value, state] = values[key]![i]!;
        estate.items[`${key}.${item.item_cell_name}`] = item.id;
        await k()
          .updateTable('items')
          .set({ value, state, last_check: 1_700_000_000 + i })
          .where('id', '=', item.id)
          .execute();
      }
    }
    const hum = estate.items['A.HUM']!;
    await k()
      .insertInto('alarms')
      .values({
        id: 1,
        item_id: hum,
        device_id: 0,
        device_group_id: estate.a,
        item_name: '湿度',
        device_name: 'TH-A',
        device_group_name: 'Site A',
        kind: 'item',
        status: 2,
        level: 2,
        color: '',
        info: '',
        value: 80,
        start_time: 1_700_000_000,
        end_time: null,
        last_check: 1_700_000_000,
        handling: 0,
        remarks: '',
        confirmed_by: '',
        notify_count: 0,
        escalated: 0,
      })
      .execute();

    await grant(
      7,
      'north',
      [102, 103],
      [
        [102, 'export'],
        [103, 'add'],
        [103, 'delete'],
        [103, 'export'],
      ],
    );
    await k().insertInto('role_sites').values({ role_id: 7, site_id: estate.a }).execute();
    await grant(8, 'viewer', [102, 103], []);
    await k().insertInto('role_sites').values({ role_id: 8, site_id: estate.a }).execute();
    await grant(9, 'nobody', [101], []);
    await k().insertInto('role_sites').values({ role_id: 9, site_id: estate.a }).execute();
  });

  it('lists live values with filters, sorting and paging', async () => {
    const all = await ok('GET', 'data_list?limit=50');
    expect(all.total).toBe(6);
    // Default order: site name, then device, then item id.
    expect(all.data.map((r: { site: string; name: string }) => `${r.site}/${r.name}`)).toEqual([
      'Site A/温度',
      'Site A/湿度',
      'Site A1/温度',
      'Site A1/湿度',
      'Site B/温度',
      'Site B/湿度',
    ]);
    const humA = all.data[1];
    expect(humA).toMatchObject({
      device_name: 'TH-A',
      site_id: estate.a,
      value: 80,
      unit: '%RH',
      state: 2,
      last_check: 1_700_000_001,
      alarm: { id: 1, level: 2, level_name: '严重', color: '#fa541c' },
    });
    expect(all.data[0].alarm).toBeNull();

    // A site takes its sub-sites along.
    expect((await ok('GET', `data_list?device_group_id=${estate.a}`)).total).toBe(4);
    expect((await ok('GET', `data_list?device_group_id=${estate.a1}`)).total).toBe(2);
    expect((await ok('GET', 'data_list?device_group_id=-1')).total).toBe(6);
    const byName = await ok('GET', `data_list?name=${encodeURIComponent('温')}`);
    expect(byName.data.map((r: { id: number }) => r.id)).toEqual([
      estate.items['A.TEMP'],
      estate.items['A1.TEMP'],
      estate.items['B.TEMP'],
    ]);
    // LIKE wildcards are searched literally.
    expect((await ok('GET', `data_list?name=${encodeURIComponent('%')}`)).total).toBe(0);
    const device = (await ok('GET', `data_list?device_id=${humA.device_id}`)).data;
    expect(device.map((r: { device_name: string }) => r.device_name)).toEqual(['TH-A', 'TH-A']);

    const ids = async (query: string) =>
      (await ok('GET', `data_list?${query}`)).data.map((r: { id: number }) => r.id) as number[];
    expect(await ids('state=abnormal')).toEqual([estate.items['A.HUM']]);
    expect(await ids('state=unknown')).toEqual([estate.items['A1.TEMP']]);
    expect(await ids('state=alarm')).toEqual([estate.items['A.HUM']]);
    expect((await ids('state=normal')).length).toBe(4);

    const values = async (query: string) =>
      (await ok('GET', `data_list?${query}`)).data.map((r: { value: number | null }) => r.value);
    expect(await values('sort=value&order=asc')).toEqual([25, 30, 40, 50, 80, null]);
    expect(await values('sort=value&order=desc')).toEqual([80, 50, 40, 30, 25, null]);
    const page2 = await ok('GET', 'data_list?sort=value&order=asc&limit=2&page=2');
    expect(page2.total).toBe(6);
    expect(page2.data.map((r: { value: number }) => r.value)).toEqual([40, 50]);
    expect((await ok('GET', 'data_list?sort=device&order=desc&limit=1')).data[0].device_name).toBe('TH-B');
    expect((await ok('GET', 'data_list?sort=item&limit=1')).data[0].name).toBe('温度');
    expect(
      (await ok('GET', 'data_list?sort=last_check&order=desc&limit=3')).data.map(
        (r: { last_check: number }) => r.last_check,
      ),
    ).toEqual([1_700_000_001, 1_700_000_001, 1_700_000_001]);
    expect((await ok('GET', 'data_list?sort=state&order=desc&limit=1')).data[0].state).toBe(4);
  });

  it('refuses bad list input with 400 and changes nothing', async () => {
    const before = await snapshotDigest(t.database.db);
    for (const query of [
      'state=bogus',
      'sort=colour',
      'order=up',
      'limit=0',
      'limit=1001',
      'page=abc',
      'device_group_id=-2',
      'device_id=0',
      `name=${'x'.repeat(65)}`,
    ]) {
      const res = await call('GET', `data_list?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe(40000);
    }
    expect((await call('GET', 'data_list/export?tz_offset=900')).status).toBe(400);
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('exports every filtered row as xlsx in the caller language and clock', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/data_list/export?state=normal&sort=value&order=desc&tz_offset=480',
      headers: { authorization: `Bearer ${admin}`, 'accept-language': 'en_us' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { name, rows } = await readSheet(res.rawPayload);
    expect(name).toBe('Live data');
    expect(rows[0]).toEqual(['Site', 'Device', 'Item', 'Value', 'Unit', 'State', 'Alarm level', 'Last update']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[3], r[5]])).toEqual([
      ['Site A1', 'TH-A1', 50, 'Normal'],
      ['Site B', 'TH-B', 40, 'Normal'],
      ['Site B', 'TH-B', 30, 'Normal'],
      ['Site A', 'TH-A', 25, 'Normal'],
    ]);
    // 1 700 000 000 is 2023-11-14 22:13:20 UTC, 06:13:20 the next day at UTC+8.
    expect(rows[4]![7]).toBe('2023-11-15 06:13:20');
    const alarmRows = await readSheet((await call('GET', 'data_list/export?state=alarm')).raw);
    expect(alarmRows.rows.slice(1)).toEqual([
      ['Site A', 'TH-A', '湿度', 80, '%RH', '异常', '严重', '2023-11-14 22:13:21'],
    ]);
  });

  it('serves a user granted one site only that site, in the list and in the export', async () => {
    const mine = await ok('GET', 'data_list?limit=50', undefined, 'north-token');
    expect(mine.total).toBe(2);
    expect(new Set(mine.data.map((r: { site: string }) => r.site))).toEqual(new Set(['Site A']));
    // Asking for another site (or a sub-site not granted) gives nothing, not that site's rows.
    expect((await ok('GET', `data_list?device_group_id=${estate.b}`, undefined, 'north-token')).total).toBe(0);
    expect((await ok('GET', `data_list?device_group_id=${estate.a1}`, undefined, 'north-token')).total).toBe(0);
    const devB = (await ok('GET', `data_list?device_group_id=${estate.b}`)).data[0].device_id;
    expect((await ok('GET', `data_list?device_id=${devB}`, undefined, 'north-token')).total).toBe(0);
    const sheet = await readSheet((await call('GET', 'data_list/export', undefined, 'north-token')).raw);
    expect(sheet.rows.slice(1).map((r) => r[0])).toEqual(['Site A', 'Site A']);

    // The page and its functions are enforced by the server.
    expect((await call('GET', 'data_list', undefined, 'nobody-token')).status).toBe(403);
    expect((await call('GET', 'data_list/export', undefined, 'viewer-token')).status).toBe(403);
    expect((await call('GET', 'data_list', undefined, 'viewer-token')).status).toBe(200);
    expect((await call('GET', 'data_list')).status).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/data_list' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers history as a table of times × items, scoped to the caller sites', async () => {
    const store = createSeriesStore(t.database.db);
    const t0 = 1_699_999_200; // an hour boundary
    const a = estate.items['A.TEMP']!;
    const b = estate.items['B.TEMP']!;
    for (let i = 0; i < 360; i++) {
      store.append(a, (t0 + i * 20) * 1000, 20 + (i % 2));
      if (i < 180) store.append(b, (t0 + i * 20) * 1000, 30);
    }
    await store.flush();
    const body = { item_ids: [a, b], t1: t0, t2: t0 + 7199, interval: 'hour' };
    const table = await ok('POST', 'data_historys/table', body);
    expect(table.total).toBe(2);
    expect(table.items.map((c: { item_id: number; site: string }) => [c.item_id, c.site])).toEqual([
      [a, 'Site A'],
      [b, 'Site B'],
    ]);
    expect(table.data).toEqual([
      { ts: t0, values: [20.5, 30] },
      { ts: t0 + 3600, values: [20.5, null] },
    ]);
    const minutes = await ok('POST', 'data_historys/table', {
      ...body,
      interval: 'minute',
      order: 'desc',
      limit: 10,
      page: 2,
    });
    expect(minutes.total).toBe(120);
    expect(minutes.data).toHaveLength(10);
    expect(minutes.data[0].ts).toBe(t0 + 7200 - 11 * 60);
    const raw = await ok('POST', 'data_historys/table', { ...body, interval: 'raw', limit: 1 });
    expect(raw.total).toBe(360);
    expect(raw.data).toEqual([{ ts: t0, values: [20, 30] }]);

    const north = await ok('POST', 'data_historys/table', body, 'north-token');
    expect(north.items.map((c: { item_id: number }) => c.item_id)).toEqual([a]);
    expect(north.data[1]).toEqual({ ts: t0 + 3600, values: [20.5] });
    const rows = await ok('POST', 'data_historys', body, 'north-token');
    expect(new Set(rows.data.map((r: { item_id: number }) => r.item_id))).toEqual(new Set([a]));
    const sheet = await readSheet(
      (await call('POST', 'data_historys/export', { ...body, tz_offset: 60 }, 'north-token')).raw,
    );
    expect(sheet.rows.slice(1).map((r) => [r[0], r[3]])).toEqual([
      ['Site A', '2023-11-14 23:00:00'],
      ['Site A', '2023-11-15 00:00:00'],
    ]);

    // Validation: messages of the shared locale files, 400, nothing changed.
    const before = await snapshotDigest(t.database.db);
    const bad = await call('POST', 'data_historys/table', { ...body, item_ids: [] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('请选择监控项');
    expect((await call('POST', 'data_historys/table', { ...body, t2: t0 - 1 })).body.message).toContain(
      '结束时间不能早于开始时间',
    );
    expect((await call('POST', 'data_historys/table', { ...body, interval: 'raw', t2: t0 + 2 * 86_400 })).status).toBe(
      400,
    );
    expect((await call('POST', 'data_historys/table', { ...body, order: 'sideways' })).status).toBe(400);
    expect((await call('POST', 'data_historys/export', { ...body, tz_offset: 1000 })).status).toBe(400);
    expect(await snapshotDigest(t.database.db)).toBe(before);

    expect((await call('POST', 'data_historys/table', body, 'nobody-token')).status).toBe(403);
    expect((await call('POST', 'data_historys', body, 'nobody-token')).status).toBe(403);
    expect((await call('POST', 'data_historys/export', body, 'viewer-token')).status).toBe(403);
  });

  it('saves, lists, loads and deletes templates within the caller sites', async () => {
    const a = estate.items['A.TEMP']!;
    const b = estate.items['B.TEMP']!;
    const saved = await ok(
      'POST',
      'data_history_template',
      { name: '北区日报', item_ids: [a, b], interval: 'auto', site_id: estate.a, device_ids: [1], range: 'last7d' },
      'north-token',
    );
    // Items of sites the user is not granted are not kept.
    expect(saved).toMatchObject({ name: '北区日报', item_ids: [a], interval: 'auto', range: 'last7d', t1: null });
    const custom = await ok('POST', 'data_history_template', {
      name: 'B custom',
      item_ids: [b],
      range: 'custom',
      t1: 1_700_000_000,
      t2: 1_700_086_400,
    });
    expect(custom).toMatchObject({
      interval: 'hour',
      site_id: 0,
      device_ids: [],
      t1: 1_700_000_000,
      t2: 1_700_086_400,
    });

    expect(await ok('GET', 'data_history_template')).toEqual([saved, custom]);
    expect(await ok('GET', 'data_history_template', undefined, 'north-token')).toEqual([saved]);
    // Another site's template is not there for this user.
    expect((await call('DELETE', `data_history_template/${custom.id}`, undefined, 'north-token')).status).toBe(404);

    const before = await snapshotDigest(t.database.db);
    for (const bad of [
      { name: '  ', item_ids: [a] },
      { name: 'x', item_ids: [] },
      { name: 'x', item_ids: [a], range: 'custom' },
      { name: 'x', item_ids: [a], range: 'custom', t1: 10, t2: 5 },
      { name: 'x', item_ids: [a], range: 'fortnight' },
      { name: 'x', item_ids: [a], interval: 'second' },
      { name: 'x'.repeat(65), item_ids: [a] },
    ]) {
      const res = await call('POST', 'data_history_template', bad, 'north-token');
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const empty = await call('POST', 'data_history_template', { name: '  ', item_ids: [a] });
    expect(empty.body.message).toContain('报表标题不能为空');
    // Only items of another site: refused, not saved empty.
    expect((await call('POST', 'data_history_template', { name: 'B only', item_ids: [b] }, 'north-token')).status).toBe(
      403,
    );
    expect((await call('POST', 'data_history_template', { name: 'v', item_ids: [a] }, 'viewer-token')).status).toBe(
      403,
    );
    expect((await call('DELETE', `data_history_template/${saved.id}`, undefined, 'viewer-token')).status).toBe(403);
    expect((await call('GET', 'data_history_template', undefined, 'nobody-token')).status).toBe(403);
    expect(await snapshotDigest(t.database.db)).toBe(before);

    expect(await ok('DELETE', `data_history_template/${saved.id}`, undefined, 'north-token')).toBeNull();
    expect((await call('DELETE', `data_history_template/${saved.id}`, undefined, 'north-token')).status).toBe(404);
    expect(await ok('GET', 'data_history_template')).toEqual([custom]);
  });
});
