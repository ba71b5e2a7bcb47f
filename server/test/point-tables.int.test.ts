import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser } from './helpers/login.ts';

/** What an item is, without what the server numbers or measures (id, device, live state). */
const comparable = (item: Record<string, unknown>) => {
  const {
    id: _id,
    device_id: _d,
    device_name: _n,
    device_group_id: _g,
    state: _s,
    value: _v,
    last_check: _l,
    info: _i,
    ...rest
  } = item;
  return rest;
};

/**
 * Point tables and editable templates (issue 13, Build 5): a device's items exported as xlsx and
 * CSV and imported into another device give the same items; one bad row refuses the whole file
 * with its row and column; a template made from a device; template writes need the function
 * grant; a telemetry-only item never raises a threshold alarm.
 */
describeEachDatabase('point tables and device templates', (dialect) => {
  const t = useTestApp(dialect);
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    opts: { lang?: string; token?: string } = {},
  ) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${opts.token ?? 'admin-token'}`, 'accept-language': opts.lang ?? 'en_us' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return {
      status: res.statusCode,
      body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : null,
      raw: res,
    };
  };
  const ids = { site: 0, meter: 0, copy: 0 };
  const modbus = (register: number, data_type = 'float32', scale = 1) => ({
    kind: 'modbus',
    function: 3,
    register,
    data_type,
    scale,
  });
  const points = [
    {
      name: 'Voltage L1',
      item_cell_name: 'ua',
      unit: 'V',
      threshold_min: 198,
      threshold_max: 242,
      recovery_point: 1,
      overrun_point: 0.5,
      alarm_level: 2,
      source: modbus(0),
    },
    // Text a spreadsheet would read as a formula, a comma and quotes survive the CSV.
    {
      name: '=Current, "L1"',
      item_cell_name: 'ia',
      unit: 'A',
      threshold_min: 0,
      threshold_max: 80,
      recovery_point: 0,
      overrun_point: 0,
      source: modbus(2, 'float32', 0.1),
    },
    {
      name: 'Breaker trip',
      item_cell_name: 'trip',
      value_type: 0,
      status_threshold: '1',
      source: modbus(10, 'uint16'),
    },
    { name: 'Active energy', item_cell_name: 'ep', unit: 'kWh', telemetry_only: true, source: modbus(20, 'uint32') },
  ];

  beforeAll(async () => {
    const site = await call('POST', 'setting/device_groups', { name: 'Room P', weight: 1 });
    ids.site = site.body.data.id;
    const device = (name: string) =>
      call('POST', 'setting/devices', {
        name,
        device_group_id: ids.site,
        driver: 'modbus-tcp',
        code: 'power_meter',
        ip: '127.0.0.1',
        port: 1502,
      });
    ids.meter = (await device('PM-1')).body.data.id;
    ids.copy = (await device('PM-2')).body.data.id;
    for (const p of points) {
      const res = await call('POST', 'setting/items', { device_id: ids.meter, ...p });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const k = t.database.db.kysely;
    await k.insertInto('roles').values({ id: 91, name: 'pages only', remark: '', created_at: 0 }).execute();
    for (const m of await k.selectFrom('menus').select('id').execute())
      await k.insertInto('role_menus').values({ role_id: 91, menu_id: m.id }).execute();
    // User 1 is the administrator (every grant): the restricted user must not be the first.
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    const pages = await createUser(t.database.db, 'pages-only', 'Some-Pass-123', [91]);
    fakeTokens['pt-pages-token'] = { user_id: pages, user_name: 'pages-only', session_id: 9100 };
  });

  const itemsOf = async (deviceId: number) =>
    (await call('GET', `setting/items?device_id=${deviceId}&limit=100`)).body.data.data.map(comparable);

  const download = async (url: string) => {
    const res = await call('GET', url);
    expect(res.status).toBe(200);
    return res.raw.rawPayload;
  };

  it('exports a device point table as xlsx and CSV; importing either into another device gives the same items', async () => {
    const original = await itemsOf(ids.meter);
    expect(original).toHaveLength(4);

    const csv = await download(`setting/devices/${ids.meter}/points?format=csv`);
    const text = csv.toString('utf8');
    expect(text.startsWith('\uFEFFname,item_cell_name,unit,value_type,telemetry_only,source.function')).toBe(true);
    expect(text).toContain(`"'=Current, ""L1"""`);
    const xlsx = await download(`setting/devices/${ids.meter}/points?format=xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.getRow(2).getCell(1).value).toBe('Voltage L1');

    // CSV into the empty device: four created, the same items.
    const a = await call('POST', `setting/devices/${ids.copy}/points`, { format: 'csv', content: text });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.data).toEqual({ created: 4, updated: 0 });
    expect(await itemsOf(ids.copy)).toEqual(original);

    // xlsx into the same device: every row names an item, so four updated and nothing else changes.
    const b = await call('POST', `setting/devices/${ids.copy}/points`, {
      format: 'xlsx',
      content: xlsx.toString('base64'),
    });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.data).toEqual({ created: 0, updated: 4 });
    expect(await itemsOf(ids.copy)).toEqual(original);

    // A file with only some columns changes only those (the others keep their values).
    const c = await call('POST', `setting/devices/${ids.copy}/points`, {
      format: 'csv',
      content: 'name,threshold_max\r\nVoltage L1,250\r\n',
    });
    expect(c.body.data).toEqual({ created: 0, updated: 1 });
    const after = await itemsOf(ids.copy);
    expect(after[0]).toEqual({ ...original[0], threshold_max: 250 });
    expect(after.slice(1)).toEqual(original.slice(1));
  });

  it('refuses a file with one bad row with its row and column, in the caller language, and changes nothing', async () => {
    const csv = (await download(`setting/devices/${ids.meter}/points?format=csv`)).toString('utf8');
    const lines = csv.split('\r\n');
    const header = lines[0]!.replace(/^\uFEFF/, '').split(',');
    const registerAt = header.indexOf('source.register');
    // Row 3 of the sheet (the header is row 1): a register out of range; a new point on row 6 is fine.
    const cells = lines[2]!.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    cells[registerAt] = '-1';
    const fresh: Record<string, string> = {
      name: 'Frequency',
      item_cell_name: 'f',
      unit: 'Hz',
      telemetry_only: 'true',
      'source.function': '4',
      'source.register': '40',
      'source.data_type': 'float32',
    };
    const added = header.map((h) => fresh[h] ?? '').join(',');
    const bad = [lines[0], lines[1], cells.join(','), lines[3], lines[4], added, ''].join('\r\n');

    const before = await snapshotDigest(t.database.db);
    const en = await call('POST', `setting/devices/${ids.copy}/points`, { format: 'csv', content: bad });
    expect(en.status).toBe(400);
    expect(en.body.message).toBe(
      'The point table has 1 errors; nothing was changed. Row 3, column "source.register": must be at least 0',
    );
    expect(en.body.data.fields).toEqual([
      { path: 'rows.3.source.register', message: 'Row 3, column "source.register": must be at least 0' },
    ]);
    const zh = await call(
      'POST',
      `setting/devices/${ids.copy}/points`,
      { format: 'csv', content: bad },
      { lang: 'zh_cn' },
    );
    expect(zh.body.data.fields[0].message).toBe('第 3 行“source.register”列：不能小于 0');

    // Several problems are all named: a number with a decimal comma, a bad flag, a name twice.
    const many = await call('POST', `setting/devices/${ids.copy}/points`, {
      format: 'csv',
      content: 'name,threshold_max,enable\r\nVoltage L1,"12,5",true\r\nVoltage L1,1,maybe\r\n',
    });
    expect(many.status).toBe(400);
    expect(many.body.data.fields.map((f: { path: string }) => f.path)).toEqual([
      'rows.2.threshold_max',
      'rows.3.enable',
      'rows.3.name',
    ]);

    // A semicolon-separated file (a spreadsheet with a decimal comma) is read by its header.
    const semi = await call('POST', `setting/devices/${ids.copy}/points`, {
      format: 'csv',
      content: 'name;threshold_max\r\nVoltage L1;12,5\r\n',
    });
    expect(semi.body.data.fields).toEqual([
      { path: 'rows.2.threshold_max', message: expect.stringContaining('must be a number') },
    ]);

    // A file over the body limit (1 MB here) is refused before it is read.
    const huge = await call('POST', `setting/devices/${ids.copy}/points`, {
      format: 'csv',
      content: `name,unit\r\n${'x,V\r\n'.repeat(300_000)}`,
    });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBeTruthy();

    // Files that are not what they claim: an edge 400 with one message.
    const refusals: Array<[unknown, string]> = [
      [
        { format: 'xlsx', content: Buffer.from('PK\u0003\u0004 not a zip at all, just text').toString('base64') },
        'damaged',
      ],
      [{ format: 'xlsx', content: Buffer.from('name,unit\r\n').toString('base64') }, 'not an xlsx workbook'],
      [{ format: 'xlsx', content: 'this is not base64!' }, 'base64'],
      [{ format: 'csv', content: 'name,colour\r\nA,red\r\n' }, 'Row 1, column "colour": unknown column'],
      [{ format: 'csv', content: 'name,unit\r\n"Open quote,V\r\n' }, 'quote'],
      [{ format: 'csv', content: 'name\r\n' }, 'no points'],
      [{ format: 'pdf', content: 'x' }, ''],
      [{ format: 'csv', content: '' }, ''],
    ];
    for (const [body, text] of refusals) {
      const res = await call('POST', `setting/devices/${ids.copy}/points`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(text);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it("carries an item's purpose (room temperature, humidity) through the files and the bulk update", async () => {
    const k = t.database.db.kysely;
    const site = (await call('POST', 'setting/device_groups', { name: 'Room Q', weight: 1 })).body.data.id;
    const th = async (name: string) =>
      (
        await call('POST', 'setting/devices', {
          name,
          device_group_id: site,
          driver: 'simulator',
          code: 'temp_hum',
        })
      ).body.data.id as number;
    const [from, to] = [await th('TH-Q1'), await th('TH-Q2')];
    const reading = (name: string, purpose: string) => ({
      device_id: from,
      name,
      unit: '℃',
      purpose,
      threshold_min: 10,
      threshold_max: 30,
      recovery_point: 0,
      overrun_point: 0,
      source: { kind: 'simulator', model: 'analog', base: 22 },
    });
    for (const body of [
      reading('Room T', 'room_temperature'),
      reading('Room H', 'room_humidity'),
      reading('Coil T', ''),
    ])
      expect((await call('POST', 'setting/items', body)).status).toBe(200);
    const purposes = async (device: number) =>
      Object.fromEntries(
        (await k.selectFrom('items').select(['name', 'purpose']).where('device_id', '=', device).execute()).map((r) => [
          r.name,
          r.purpose,
        ]),
      );
    // The export has the column, filled; importing it into another device gives the same purposes.
    const csv = (await download(`setting/devices/${from}/points?format=csv`)).toString('utf8');
    const header = csv
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0]!
      .split(',');
    expect(header).toContain('purpose');
    const room = csv.split('\r\n').find((l) => l.startsWith('Room T,'))!;
    expect(room.split(',')[header.indexOf('purpose')]).toBe('room_temperature');
    const copied = await call('POST', `setting/devices/${to}/points`, { format: 'csv', content: csv });
    expect(copied.body.data).toEqual({ created: 3, updated: 0 });
    const expected = { 'Room T': 'room_temperature', 'Room H': 'room_humidity', 'Coil T': '' };
    expect(await purposes(to)).toEqual(expected);
    const xlsx = await download(`setting/devices/${from}/points?format=xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const col = (sheet.getRow(1).values as unknown[]).indexOf('purpose');
    expect(col).toBeGreaterThan(0);
    expect(sheet.getRow(2).getCell(col).value).toBe('room_temperature');

    // A file sets, clears or leaves it: a row without the column keeps the purpose.
    const set = await call('POST', `setting/devices/${to}/points`, {
      format: 'csv',
      content: 'name,purpose\r\nCoil T,room_temperature\r\nRoom H,\r\n',
    });
    expect(set.body.data).toEqual({ created: 0, updated: 2 });
    const kept = await call('POST', `setting/devices/${to}/points`, {
      format: 'csv',
      content: 'name,threshold_max\r\nRoom T,31\r\n',
    });
    expect(kept.body.data).toEqual({ created: 0, updated: 1 });
    expect(await purposes(to)).toEqual({ 'Room T': 'room_temperature', 'Room H': '', 'Coil T': 'room_temperature' });
    // A purpose that is none of the list names its row and column, and changes nothing.
    const before = await snapshotDigest(t.database.db);
    const bad = await call('POST', `setting/devices/${to}/points`, {
      format: 'csv',
      content: 'name,purpose\r\nRoom T,battery_temperature\r\n',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields).toEqual([
      { path: 'rows.2.purpose', message: expect.stringContaining('Row 2, column "purpose"') },
    ]);
    expect(await snapshotDigest(t.database.db)).toBe(before);

    // The bulk update sets it on many items at once, and refuses a purpose not in the list.
    const ids = (await k.selectFrom('items').select('id').where('device_id', '=', to).orderBy('id').execute()).map(
      (r) => r.id,
    );
    const bulk = await call('PUT', 'setting/items/bulk', { ids, set: { purpose: 'room_humidity' } });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.data).toEqual({ updated: 3, failed: [] });
    expect(Object.values(await purposes(to))).toEqual(['room_humidity', 'room_humidity', 'room_humidity']);
    const refused = await call('PUT', 'setting/items/bulk', { ids, set: { purpose: 'battery' } });
    expect(refused.status).toBe(400);
    expect(Object.values(await purposes(to))).toEqual(['room_humidity', 'room_humidity', 'room_humidity']);
    // Other bulk changes leave the purpose alone.
    expect((await call('PUT', 'setting/items/bulk', { ids, set: { alarm_level: 2 } })).status).toBe(200);
    expect(Object.values(await purposes(to))).toEqual(['room_humidity', 'room_humidity', 'room_humidity']);
  });

  it('makes a template from a device; a device made from it has the same points', async () => {
    const made = await call('POST', 'setting/device_templates/from_device', { device_id: ids.meter, name: 'My meter' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({
      name: 'My meter',
      driver: 'modbus-tcp',
      category_code: 'power_meter',
      builtin: false,
      device_count: 0,
    });
    const original = await itemsOf(ids.meter);
    expect(made.body.data.items.map((i: { name: string }) => i.name)).toEqual(
      original.map((i: { name: string }) => i.name),
    );
    expect(made.body.data.items[3]).toMatchObject({ name: 'Active energy', telemetry_only: true, threshold_max: null });

    const dev = await call('POST', 'setting/devices', {
      name: 'PM-3',
      device_group_id: ids.site,
      driver: 'modbus-tcp',
      code: 'power_meter',
      ip: '127.0.0.1',
      port: 1502,
      template_id: made.body.data.id,
    });
    expect(dev.status).toBe(200);
    const items = await itemsOf(dev.body.data.id);
    const pointOf = (i: Record<string, unknown>) => [i.name, i.item_cell_name, i.unit, i.source, i.telemetry_only];
    expect(items.map(pointOf)).toEqual(original.map(pointOf));

    // The template's own point table exports in the same columns and imports into a device.
    const csv = (await download(`setting/device_templates/${made.body.data.id}/points?format=csv`)).toString('utf8');
    const imported = await call('POST', `setting/devices/${ids.copy}/points`, { format: 'csv', content: csv });
    expect(imported.body.data).toEqual({ created: 0, updated: 4 });

    // In use: it cannot be deleted, and the list says by how many.
    const refused = await call('DELETE', `setting/device_templates/${made.body.data.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('1 devices were made from this template, so it cannot be deleted');
    const listed = await call('GET', 'setting/device_templates?limit=1000');
    expect(listed.body.data.data.find((x: { id: number }) => x.id === made.body.data.id).device_count).toBe(1);
  });

  it('creates, renames, edits and deletes a template; without the function grant every write is refused', async () => {
    const body = {
      name: 'Sensor box',
      category_code: 'temp_hum',
      driver: 'mqtt',
      items: [
        {
          name: 'Temperature',
          unit: '°C',
          threshold_min: 10,
          threshold_max: 30,
          source: { kind: 'mqtt', topic: 'sitewatch/{device_id}/env', json_path: 'temp' },
        },
      ],
    };
    const created = await call('POST', 'setting/device_templates', body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    expect(id).toBeGreaterThan(7);

    const wrongKind = await call('POST', 'setting/device_templates', {
      ...body,
      driver: 'snmp',
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.data.fields[0].path).toBe('body.items.0.source.kind');

    const edited = await call('PUT', `setting/device_templates/${id}`, {
      ...body,
      name: 'Sensor box v2',
      items: [
        ...body.items,
        {
          name: 'Energy',
          unit: 'kWh',
          telemetry_only: true,
          source: { kind: 'mqtt', topic: 'sitewatch/{device_id}/env', json_path: 'kwh' },
        },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.name).toBe('Sensor box v2');
    expect(edited.body.data.items).toHaveLength(2);

    // A built-in template renamed keeps its name; one left unrenamed keeps following the language.
    const builtin = (await call('GET', 'setting/device_templates/4')).body.data;
    const same = await call('PUT', 'setting/device_templates/4', {
      name: builtin.name,
      category_code: builtin.category_code,
      driver: builtin.driver,
      items: builtin.items,
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const zh = await call('GET', 'setting/device_templates/4', undefined, { lang: 'zh_cn' });
    expect(zh.body.data.name).not.toBe(builtin.name);
    expect(zh.body.data.items[0].name).not.toBe(builtin.items[0].name);

    const before = await snapshotDigest(t.database.db);
    const token = 'pt-pages-token';
    for (const [method, url, payload] of [
      ['POST', 'setting/device_templates', body],
      ['POST', 'setting/device_templates/from_device', { device_id: ids.meter, name: 'x' }],
      ['PUT', `setting/device_templates/${id}`, body],
      ['DELETE', `setting/device_templates/${id}`, undefined],
      ['POST', `setting/devices/${ids.copy}/points`, { format: 'csv', content: 'name\r\nX\r\n' }],
    ] as const) {
      const res = await call(method, url, payload, { token });
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    // Reading is the page's: the list and one template open with the page alone.
    expect((await call('GET', `setting/device_templates/${id}`, undefined, { token })).status).toBe(200);
    expect(await snapshotDigest(t.database.db)).toBe(before);

    expect((await call('DELETE', `setting/device_templates/${id}`)).status).toBe(200);
    expect((await call('GET', `setting/device_templates/${id}`)).status).toBe(404);
  });

  it('the built-in energy counters are telemetry only, and so are the items of devices made from them', async () => {
    const list = (await call('GET', 'setting/device_templates?limit=1000')).body.data.data as Array<{
      id: number;
      items: Array<{ item_cell_name: string; unit: string; telemetry_only: boolean; threshold_max: number | null }>;
    }>;
    const energy = list.flatMap((tpl) => tpl.items.filter((i) => i.unit === 'kWh').map((i) => ({ tpl: tpl.id, ...i })));
    expect(energy.length).toBeGreaterThanOrEqual(2);
    for (const e of energy) expect(e).toMatchObject({ telemetry_only: true, threshold_max: null });
    const dev = await call('POST', 'setting/devices', {
      name: 'PM-sim',
      device_group_id: ids.site,
      driver: 'simulator',
      code: 'power_meter',
      template_id: 4,
    });
    expect(dev.status).toBe(200);
    const items = await itemsOf(dev.body.data.id);
    const kwh = items.filter((i: { unit: string }) => i.unit === 'kWh');
    expect(kwh).toHaveLength(1);
    expect(kwh[0]).toMatchObject({ telemetry_only: true, threshold_min: null, recovery_point: null });
  });

  it('answers the SNMP OID tables of the templates as JSON (setting/snmp_json)', async () => {
    const res = await call('GET', 'setting/snmp_json');
    expect(res.status).toBe(200);
    for (const t of res.body.data) {
      expect(t.points.length).toBeGreaterThan(0);
      for (const p of t.points) expect(p.oid).toMatch(/^\.?\d+(\.\d+)+$/);
    }
  });

  it('never raises a threshold alarm for a telemetry-only item, even with a threshold left in its row', async () => {
    const k = t.database.db.kysely;
    const refused = await call('POST', 'setting/items', {
      device_id: ids.meter,
      name: 'Energy with a limit',
      telemetry_only: true,
      threshold_min: 0,
      threshold_max: 10,
      source: modbus(30, 'uint32'),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.data.fields.map((f: { path: string }) => f.path)).toContain('body.threshold_min');

    const items = (await call('GET', `setting/items?device_id=${ids.meter}&limit=100`)).body.data.data;
    const energy = items.find((i: { name: string }) => i.name === 'Active energy');
    const voltage = items.find((i: { name: string }) => i.name === 'Voltage L1');
    expect(energy.telemetry_only).toBe(true);
    // A row changed behind the API's back still carries no threshold for the engine.
    await k.updateTable('items').set({ threshold_min: 0, threshold_max: 10 }).where('id', '=', energy.id).execute();

    await t.sitewatch.alarms.start();
    for (let i = 0; i < 5; i++) {
      t.sitewatch.alarms.onSample(energy.id, 123_456 + i, Date.now());
      t.sitewatch.alarms.onSample(voltage.id, 300, Date.now());
    }
    await t.sitewatch.alarms.flush();
    const raised = await k.selectFrom('alarms').select(['item_id', 'kind']).execute();
    expect(raised.filter((a) => a.item_id === voltage.id)).toHaveLength(1);
    expect(raised.filter((a) => a.item_id === energy.id)).toEqual([]);
    await t.sitewatch.alarms.stop();
  });
});
