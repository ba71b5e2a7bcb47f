import { expect, it } from 'vitest';
import { createSeriesStore } from '../src/series/store.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';

const auth = { authorization: 'Bearer admin-token' };

describeEachDatabase('sites, devices and items', (dialect) => {
  const t = useTestApp(dialect);
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, lang = 'zh_cn') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { ...auth, 'accept-language': lang },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const site = { name: '机房A', weight: 10, longitude: 116.397128, latitude: 39.916527 };

  it('adds a site tree, refuses a cycle and bad input, and lists the tree', async () => {
    const a = await call('POST', 'setting/device_groups', site);
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ name: '机房A', parent_id: 0, has_device: true, devices: [] });
    const b = await call('POST', 'setting/device_groups', { ...site, name: '子站', parent_id: a.body.data.id });
    expect(b.status).toBe(200);
    const cycle = await call('PUT', `setting/device_groups/${a.body.data.id}`, { ...site, parent_id: b.body.data.id });
    expect(cycle.status).toBe(400);

    const before = await snapshotDigest(t.database.db);
    for (const bad of [
      { ...site, name: '  ' },
      { ...site, weight: '012' },
      { ...site, weight: 0 },
      { ...site, longitude: 181 },
      { ...site, latitude: 12.1234567 },
      { ...site, extra: 1 },
    ]) {
      const res = await call('POST', 'setting/device_groups', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe(40000);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);

    const tree = await call('GET', 'device_groups/menu');
    const root = tree.body.data.find((n: { id: number }) => n.id === a.body.data.id);
    expect(root.children.map((c: { name: string }) => c.name)).toEqual(['子站']);
  });

  it('makes a device from a template with its items named in the caller language', async () => {
    const s = await call('POST', 'setting/device_groups', { ...site, name: '机房B' });
    const dev = await call(
      'POST',
      'setting/devices',
      { name: 'UPS-1', device_group_id: s.body.data.id, driver: 'simulator', code: 'ups', template_id: 2 },
      'en_us',
    );
    expect(dev.status).toBe(200);
    expect(dev.body.data).toMatchObject({ name: 'UPS-1', driver: 'simulator', code: 'ups', category_id: 1, state: 0 });
    expect(dev.body.data.item_count).toBe(17);
    const items = await call('GET', `setting/items?device_id=${dev.body.data.id}&limit=100`);
    expect(items.body.data.total).toBe(17);
    expect(items.body.data.data[0]).toMatchObject({
      name: 'Input voltage (phase A)',
      unit: 'V',
      value_type: 1,
      threshold_min: 198,
    });

    // Deleting a site with devices is refused with the spec's message, and nothing changes.
    const before = await snapshotDigest(t.database.db);
    const refused = await call('DELETE', `setting/device_groups/${s.body.data.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('该站点下有关联设备，无法删除！');
    const refusedMany = await call('DELETE', `setting/device_groups?ids=${s.body.data.id}`, undefined, 'en_us');
    expect(refusedMany.body.message).toBe('The site has associated devices, so it cannot be deleted!');
    expect(await snapshotDigest(t.database.db)).toBe(before);

    // Batch copy of the site copies its devices and items.
    const copies = await call('POST', `setting/device_groups/${s.body.data.id}/copy`, { count: 2 });
    expect(copies.status).toBe(200);
    expect(copies.body.data.map((c: { name: string }) => c.name)).toEqual(['机房B-1', '机房B-2']);
    expect(copies.body.data[0].devices).toHaveLength(1);
    const copiedItems = await call('GET', `setting/items?device_id=${copies.body.data[1].devices[0].id}`);
    expect(copiedItems.body.data.total).toBe(17);

    // Device copy, device validation (§5.1), bulk update, delete.
    const copy = await call('POST', `setting/devices/${dev.body.data.id}/copy`, { count: 3 });
    expect(copy.body.data.map((d: { name: string }) => d.name)).toEqual(['UPS-1-1', 'UPS-1-2', 'UPS-1-3']);
    const before2 = await snapshotDigest(t.database.db);
    for (const bad of [
      { name: 'a<b>', device_group_id: s.body.data.id, driver: 'simulator', code: 'ups' },
      { name: 'm', device_group_id: s.body.data.id, driver: 'modbus-tcp', code: 'ups', ip: '10.0.0.1', port: 70000 },
      {
        name: 'm',
        device_group_id: s.body.data.id,
        driver: 'modbus-tcp',
        code: 'ups',
        ip: '10.0.0.1',
        port: 502,
        protocol_id: 256,
      },
      { name: 'm', device_group_id: s.body.data.id, driver: 'snmp', code: 'ups', ip: '10.0.0.1', port: 161 },
      { name: 'm', device_group_id: 999999, driver: 'simulator', code: 'ups' },
      { name: 'm', device_group_id: s.body.data.id, driver: 'simulator', code: 'nope' },
      {
        name: 'm',
        device_group_id: s.body.data.id,
        driver: 'modbus-tcp',
        code: 'ups',
        ip: 'h',
        port: 1,
        template_id: 2,
      },
      { name: 'm', device_group_id: s.body.data.id, driver: 'simulator', code: 'ups', zigbee_enable: true },
    ]) {
      const res = await call('POST', 'setting/devices', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before2);
    const bulk = await call('PUT', 'setting/devices/bulk', {
      ids: [copy.body.data[0].id, copy.body.data[1].id, 999999],
      check_interval: 30,
    });
    expect(bulk.body.data).toMatchObject({ updated: 2, failed: [{ id: 999999 }] });
    expect((await call('GET', `setting/devices/${copy.body.data[0].id}`)).body.data.check_interval).toBe(30);
    expect((await call('DELETE', `setting/devices/${copy.body.data[2].id}`)).status).toBe(200);
    expect((await call('GET', `setting/devices/${copy.body.data[2].id}`)).status).toBe(404);
  });

  it('validates items (§5.1) and bulk-updates them, listing the ones a change would break', async () => {
    const s = await call('POST', 'setting/device_groups', { ...site, name: '机房C' });
    const dev = await call('POST', 'setting/devices', {
      name: 'TH-1',
      device_group_id: s.body.data.id,
      driver: 'simulator',
      code: 'temp_hum',
      template_id: 1,
    });
    const items = (await call('GET', `setting/items?device_id=${dev.body.data.id}`)).body.data.data;
    const [temp, hum] = items;
    const base = {
      device_id: dev.body.data.id,
      name: '温度2',
      value_type: 1,
      threshold_min: 10,
      threshold_max: 30,
      recovery_point: 0.5,
      overrun_point: 1,
      source: { kind: 'simulator', model: 'analog', base: 22 },
    };
    const created = await call('POST', 'setting/items', base);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: '温度2', check_interval: 0, repetitions: 1 });
    const before = await snapshotDigest(t.database.db);
    for (const bad of [
      { ...base, threshold_max: 5 },
      { ...base, threshold_min: null },
      { ...base, recovery_point: null },
      { ...base, value_type: 0, status_threshold: '' },
      { ...base, overrun_action_id: 3, recovery_action_id: 3 },
      { ...base, check_interval: -1 },
      { ...base, repetitions: 1.5 },
      { ...base, name: '' },
      { ...base, source: { kind: 'snmp', oid: '1.3.6.1.2.1.1.3.0' } },
      { ...base, source: { kind: 'modbus', function: 3, register: 70000, data_type: 'int16' } },
    ]) {
      const res = await call('POST', 'setting/items', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);

    const bulk = await call('PUT', 'setting/items/bulk', {
      ids: [temp.id, hum.id, created.body.data.id],
      set: { threshold_min: 25, alarm_level: 3, check_interval: 20 },
    });
    // temp's max is 27 and hum's is 60: both fine; the created item's max 30 is fine too.
    expect(bulk.body.data).toEqual({ updated: 3, failed: [] });
    const broken = await call('PUT', 'setting/items/bulk', { ids: [temp.id, hum.id], set: { threshold_min: 50 } });
    expect(broken.body.data.updated).toBe(1);
    expect(broken.body.data.failed).toEqual([{ id: temp.id, message: '最大值不能小于最小值' }]);
    const got = await call('GET', `setting/items/${temp.id}`);
    expect(got.body.data).toMatchObject({ threshold_min: 25, alarm_level: 3, check_interval: 20 });
    expect((await call('DELETE', `setting/items/${created.body.data.id}`)).status).toBe(200);
  });

  it("takes as an item's location only the device's site or a site under it", async () => {
    const id = async (body: object) => (await call('POST', 'setting/device_groups', body)).body.data.id as number;
    const hall = await id({ ...site, name: '机房L' });
    const cabinet = await id({ ...site, name: '机柜L1', parent_id: hall });
    const row = await id({ ...site, name: '列头柜L1-1', parent_id: cabinet });
    const other = await id({ ...site, name: '机房M' });
    const dev = await call('POST', 'setting/devices', {
      name: 'TH-L',
      device_group_id: cabinet,
      driver: 'simulator',
      code: 'temp_hum',
    });
    const base = {
      device_id: dev.body.data.id,
      name: '温度L',
      value_type: 1,
      threshold_min: 10,
      threshold_max: 30,
      recovery_point: 0.5,
      overrun_point: 1,
      source: { kind: 'simulator', model: 'analog', base: 22 },
    };
    // None, the device's site and a site under it are taken.
    const made = await call('POST', 'setting/items', { ...base, location_id: row });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const itemId = made.body.data.id as number;
    for (const location_id of [0, cabinet, row]) {
      const res = await call('PUT', `setting/items/${itemId}`, { ...base, location_id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.location_id).toBe(location_id);
    }
    // A site that does not exist, another site, or the site above the device's: a 400 with a message, nothing changed.
    const before = await snapshotDigest(t.database.db);
    for (const location_id of [2_000_000_000, other, hall]) {
      for (const [method, url] of [
        ['POST', 'setting/items'],
        ['PUT', `setting/items/${itemId}`],
      ] as const) {
        const res = await call(method, url, { ...base, location_id });
        expect(res.status, `${method} ${location_id}`).toBe(400);
        expect(res.body.message).toBe('位置须为设备所在站点或其下级站点');
      }
    }
    expect((await call('POST', 'setting/items', { ...base, location_id: other }, 'en_us')).body.message).toBe(
      "The location must be the device's site or a site under it",
    );
    // A point-table file names the row and column, and changes nothing either.
    const file = await call('POST', `setting/devices/${dev.body.data.id}/points`, {
      format: 'csv',
      content: `name,location_id\r\n温度L,${other}\r\n`,
    });
    expect(file.status).toBe(400);
    expect(file.body.data.fields).toEqual([
      { path: 'rows.2.location_id', message: expect.stringContaining('位置须为设备所在站点或其下级站点') },
    ]);
    expect(await snapshotDigest(t.database.db)).toBe(before);
    expect((await call('GET', `setting/items/${itemId}`)).body.data.location_id).toBe(row);
  });

  it('keeps time periods, serial ports and categories', async () => {
    const p = await call('POST', 'setting/time_periods', {
      name: '工作时间',
      ranges: [{ weekdays: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' }],
    });
    expect(p.status).toBe(200);
    expect(
      (
        await call('POST', 'setting/time_periods', {
          name: 'x',
          ranges: [{ weekdays: [1], start: '18:00', end: '08:00' }],
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', 'setting/time_periods')).body.data.total).toBe(1);
    expect((await call('DELETE', `setting/time_periods/${p.body.data.id}`)).status).toBe(200);

    const port = await call('POST', 'setting/serial_port', { name: '/dev/ttyUSB7', baud_rate: 19200, parity: 'even' });
    expect(port.body.data).toMatchObject({ name: '/dev/ttyUSB7', baud_rate: 19200, parity: 'even', data_bit: 8 });
    expect((await call('POST', 'setting/serial_port', { name: '/dev/ttyUSB7', baud_rate: 12345 })).status).toBe(400);
    const ports = await call('GET', 'setting/serial_port');
    expect(ports.body.data.some((x: { name: string }) => x.name === '/dev/ttyUSB7')).toBe(true);

    const cats = await call('GET', 'setting/categorys', undefined, 'en_us');
    expect(cats.body.data.data.find((c: { id: number }) => c.id === 2)).toMatchObject({
      code: 'temp_hum',
      name: 'Temperature and humidity',
    });
    const renamed = await call('PUT', 'setting/categorys/temp_hum', { name: '环境', enable: true, weight: 5 });
    expect(renamed.body.data).toMatchObject({ name: '环境', weight: 5 });
    const templates = await call('GET', 'setting/device_templates?driver=snmp');
    expect(templates.body.data.data.map((x: { id: number }) => x.id)).toEqual([30, 31]);
  });

  it('downloads the Modbus and SNMP point tables as xlsx', async () => {
    for (const url of ['setting/modbus_excel', 'setting/snmp_excel']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    }
  });

  it('answers the trend call, chart reads and history reports from the series store', async () => {
    const s = await call('POST', 'setting/device_groups', { ...site, name: '机房D' });
    const dev = await call('POST', 'setting/devices', {
      name: 'TH-2',
      device_group_id: s.body.data.id,
      driver: 'simulator',
      code: 'temp_hum',
      template_id: 1,
    });
    const items = (await call('GET', `setting/items?device_id=${dev.body.data.id}`)).body.data.data;
    const temp = items.find((i: { item_cell_name: string }) => i.item_cell_name === 'TEMP');
    const store = createSeriesStore(t.database.db);
    const t0 = 1_699_999_980; // a minute boundary
    for (let i = 0; i < 600; i++) store.append(temp.id, (t0 + i * 10) * 1000, 20 + (i % 10));
    await store.flush();

    const trend = await call(
      'GET',
      `trend?device_name=simulator_${dev.body.data.id}&item_name=TEMP&t1=${t0}&t2=${t0 + 5990}`,
    );
    expect(trend.status).toBe(200);
    expect(trend.body.data.Records.length).toBeGreaterThan(10);
    expect(trend.body.data.Records[0]).toEqual({ Timestamp: expect.any(Number), Value: expect.any(Number) });
    expect(
      (await call('GET', `trend?device_name=snmp_${dev.body.data.id}&item_name=TEMP&t1=${t0}&t2=${t0 + 10}`)).status,
    ).toBe(404);
    expect((await call('GET', `trend?device_name=x&item_name=TEMP&t1=5&t2=1`)).status).toBe(400);

    const raw = await call('GET', `series/items/${temp.id}?t1=${t0}&t2=${t0 + 600}&points=1000`);
    expect(raw.body.data.resolution).toBe('raw');
    expect(raw.body.data.points).toHaveLength(61);
    const chart = await call('GET', `series/items/${temp.id}?t1=${t0}&t2=${t0 + 6000}&points=20`);
    expect(chart.body.data.resolution).toBe('minute');
    expect(chart.body.data.points.length).toBeLessThanOrEqual(20);
    expect(Math.min(...chart.body.data.points.map((p: { value: number }) => p.value))).toBe(20);
    expect(Math.max(...chart.body.data.points.map((p: { value: number }) => p.value))).toBe(29);

    const hist = await call('POST', 'data_historys', { item_ids: [temp.id], t1: t0, t2: t0 + 5999, interval: 'hour' });
    expect(hist.status).toBe(200);
    const total = hist.body.data.data.reduce((n: number, r: { count: number }) => n + r.count, 0);
    expect(total).toBe(600);
    expect(hist.body.data.data[0]).toMatchObject({
      item_name: '温度',
      device_name: 'TH-2',
      site: '机房D',
      unit: '℃',
      min: 20,
      max: 29,
    });
    const minute = await call('POST', 'data_historys', {
      item_ids: [temp.id],
      t1: t0,
      t2: t0 + 5999,
      interval: 'minute',
      limit: 10,
      page: 2,
    });
    expect(minute.body.data.total).toBe(100);
    expect(minute.body.data.data).toHaveLength(10);
    expect(
      (await call('POST', 'data_historys', { item_ids: [temp.id], t1: t0, t2: t0 + 40 * 86400, interval: 'minute' }))
        .status,
    ).toBe(400);
    const xlsx = await t.app.inject({
      method: 'POST',
      url: '/api/v1/data_historys/export',
      headers: auth,
      payload: { item_ids: [temp.id], t1: t0, t2: t0 + 5999, interval: 'minute' },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const ofItem = await call('POST', 'setting/items/data_history', { item_id: temp.id, t1: t0, t2: t0 + 5999 });
    expect(ofItem.body.data.data.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(600);
    const ofDevice = await call('POST', 'setting/devices/data_history', {
      device_id: dev.body.data.id,
      t1: t0,
      t2: t0 + 5999,
      interval: 'day',
    });
    expect(ofDevice.body.data.data.map((r: { item_id: number }) => r.item_id)).toEqual([temp.id]);
    expect((await call('POST', 'setting/devices/data_history', { device_id: 999999, t1: t0, t2: t0 })).status).toBe(
      404,
    );

    const tpl = await call('POST', 'data_history_template', { name: '日报', item_ids: [temp.id] });
    expect((await call('GET', 'data_history_template')).body.data).toEqual([tpl.body.data]);
    expect((await call('DELETE', `data_history_template/${tpl.body.data.id}`)).status).toBe(200);

    expect((await call('GET', 'setting/series_retention')).body.data).toEqual({
      raw_days: 90,
      minute_days: 400,
      hour_days: 0,
    });
    expect(
      (await call('PUT', 'setting/series_retention', { raw_days: 30, minute_days: 365, hour_days: 0 })).status,
    ).toBe(200);
    expect((await call('GET', 'setting/series_retention')).body.data.raw_days).toBe(30);

    // Retention: raw samples and minute roll-ups older than their days go; hour roll-ups (0) stay.
    const pruned = await createSeriesStore(t.database.db, { now: () => (t0 + 10 * 86_400) * 1000 }).prune({
      raw_days: 2,
      minute_days: 5,
      hour_days: 0,
    });
    expect(pruned).toEqual({ chunks: 1, minutes: 100, hours: 0 });
    expect((await call('GET', `series/items/${temp.id}?t1=${t0}&t2=${t0 + 600}`)).body.data.points).toEqual([]);
    const kept = await call('POST', 'data_historys', { item_ids: [temp.id], t1: t0, t2: t0 + 5999, interval: 'hour' });
    expect(kept.body.data.data.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(600);

    const stats = await call('GET', 'overview/statistics');
    expect(stats.body.data.devices).toBeGreaterThan(0);
    expect(stats.body.data.items).toBeGreaterThan(0);
  });
});

describeEachDatabase('ids beyond 32 bits', (dialect) => {
  const t = useTestApp(dialect);
  it('are refused as bad input, never a database error', async () => {
    for (const url of [
      '/api/v1/setting/device_groups?ids=9999999999',
      '/api/v1/trend?device_name=simulator_9999999999&item_name=TEMP&t1=1&t2=2',
    ]) {
      const res = await t.app.inject({ method: url.includes('trend') ? 'GET' : 'DELETE', url, headers: auth });
      expect(res.statusCode, url).toBe(400);
    }
  });
});
