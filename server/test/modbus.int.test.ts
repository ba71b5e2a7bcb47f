import { type ModbusByteOrder, type ModbusDataType, monitorState } from '@sitewatch/contract/monitoring';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { modbusTcpDriver } from '../src/collector/drivers/modbus-tcp.ts';
import * as m0011 from '../src/db/migrations/0011-modbus.ts';
import { sleep } from './conformance/peers.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { pymodbusPeer } from './helpers/pymodbus.ts';

/**
 * Modbus against pymodbus, a server nobody here wrote (issue 13, Build 2): a register hole between
 * two readable registers, block merging on and off, and every data type in the four byte orders,
 * which pymodbus encodes itself. Configured through the HTTP API only, polled by the collector.
 */

const hole = { first: 100, last: 105 };
/** The table test: each type in each byte order, with a value that needs every byte. */
const typed: Array<[ModbusDataType, number]> = [
  ['int16', -1234],
  ['uint16', 54321],
  ['int32', -123456789],
  ['uint32', 4_000_000_000],
  ['int64', -1_234_567_890_123],
  ['uint64', 9_007_199_254_740_000],
  ['float32', 230.5],
  ['float64', 230.100006],
];
const orders: ModbusByteOrder[] = ['ABCD', 'CDAB', 'BADC', 'DCBA'];
const table = orders.flatMap((order, o) =>
  typed.map(([type, value], i) => ({ address: 1000 + o * 100 + i * 4, type, order, value })),
);

describeEachDatabase('modbus against pymodbus', (dialect) => {
  const t = useTestApp(dialect, { drivers: { 'modbus-tcp': modbusTcpDriver } });
  let peer: Awaited<ReturnType<typeof pymodbusPeer>>;
  const ids = { site: 0, merged: 0, alone: 0, table: 0, coils: 0 };
  const itemIds = new Map<string, number>();

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const addDevice = async (name: string, options: object) =>
    (
      await call('POST', 'setting/devices', {
        name,
        device_group_id: ids.site,
        driver: 'modbus-tcp',
        code: 'power_meter',
        ip: '127.0.0.1',
        port: peer.port,
        check_interval: 1,
        options: { timeout_ms: 1500, ...options },
      })
    ).id as number;
  const addItem = async (device: number, name: string, source: object) => {
    const item = await call('POST', 'setting/items', {
      device_id: device,
      name,
      value_type: 1,
      threshold_min: -1e20,
      threshold_max: 1e20,
      recovery_point: 0,
      overrun_point: 0,
      source: { kind: 'modbus', scale: 1, ...source },
    });
    itemIds.set(`${device}:${name}`, item.id);
    return item.id as number;
  };
  /** The device's items once every one has been checked. */
  const checkedItems = async (device: number) => {
    const until = Date.now() + 10_000;
    for (;;) {
      const items = (await call('GET', `setting/items?device_id=${device}&limit=100`)).data as Array<{
        name: string;
        value: number | null;
        state: number;
        info: string;
        last_check: number;
      }>;
      if (items.every((i) => i.last_check > 0) || Date.now() > until) return new Map(items.map((i) => [i.name, i]));
      await sleep(100);
    }
  };

  beforeAll(async () => {
    peer = await pymodbusPeer({
      // Registers 101–104 are not implemented: a read touching them answers exception 2.
      holding: [
        { address: hole.first, registers: [111] },
        { address: hole.last, registers: [222] },
        { address: 200, registers: [1, 2, 3] },
      ],
      input: table,
    });
    ids.site = (await call('POST', 'setting/device_groups', { name: 'Modbus 机房', weight: 1 })).id;
    // The old planner's gap of 8 merges 100…105 into one read, which the hole refuses.
    ids.merged = await addDevice('meter-merged', { modbus_merge_gap: 8 });
    await addItem(ids.merged, 'before', { function: 3, register: hole.first, data_type: 'uint16' });
    await addItem(ids.merged, 'in hole', { function: 3, register: 102, data_type: 'uint16' });
    await addItem(ids.merged, 'after', { function: 3, register: hole.last, data_type: 'uint16' });
    // 1-based, merging off: registers 201–203 of the manual are 200–202 on the wire.
    ids.alone = await addDevice('meter-alone', { modbus_merge: false, modbus_address_base: 1 });
    for (const r of [201, 202, 203])
      await addItem(ids.alone, `r${r}`, { function: 3, register: r, data_type: 'uint16' });
    ids.table = await addDevice('meter-types', { modbus_merge_gap: 4, modbus_max_block: 125 });
    for (const e of table) {
      await addItem(ids.table, `${e.type} ${e.order}`, {
        function: 4,
        register: e.address,
        data_type: e.type,
        byte_order: e.order,
      });
    }
    await t.sitewatch.start();
  });
  afterAll(() => peer?.stop());

  it('a register hole between two readable registers: both have values, the hole is unknown with exception 2, the device is up', async () => {
    const items = await checkedItems(ids.merged);
    expect(items.get('before')).toMatchObject({ value: 111, state: monitorState.normal, info: '' });
    expect(items.get('after')).toMatchObject({ value: 222, state: monitorState.normal, info: '' });
    expect(items.get('in hole')).toMatchObject({
      value: null,
      state: monitorState.unknown,
      info: 'exception 2: illegal data address',
    });
    const device = await call('GET', `setting/devices/${ids.merged}`);
    // Not down (unknown): the device answered; it names the point it refuses.
    expect(device.state).not.toBe(monitorState.unknown);
    expect(device.state_reason).toContain('in hole: exception 2: illegal data address');
    // The merged block was refused once, then read in halves down to single points. The peer's
    // log line comes through its stdout, which may land after the values the collector worker sent.
    const until = Date.now() + 5000;
    while (!peer.requests.includes('3 105 1 ok') && Date.now() < until) await sleep(50);
    expect(peer.requests).toContain('3 100 6 refused');
    expect(peer.requests).toContain('3 102 1 refused');
    expect(peer.requests).toContain('3 105 1 ok');
  });

  it('a refused block is split for good: later polls read the halves without asking for it again', async () => {
    const refusals = () => peer.requests.filter((r) => r === '3 100 6 refused').length;
    const before = refusals();
    const polls = peer.requests.filter((r) => r === '3 105 1 ok').length;
    const until = Date.now() + 5000;
    while (peer.requests.filter((r) => r === '3 105 1 ok').length < polls + 2 && Date.now() < until) await sleep(100);
    expect(peer.requests.filter((r) => r === '3 105 1 ok').length).toBeGreaterThanOrEqual(polls + 2);
    expect(refusals()).toBe(before);
  });

  it('merging off reads each point alone, at the 1-based address less one', async () => {
    const items = await checkedItems(ids.alone);
    expect([...items.values()].map((i) => [i.name, i.value])).toEqual([
      ['r201', 1],
      ['r202', 2],
      ['r203', 3],
    ]);
    const reads = peer.requests.filter((r) => /^3 20\d /.test(r));
    expect(new Set(reads)).toEqual(new Set(['3 200 1 ok', '3 201 1 ok', '3 202 1 ok']));
  });

  it('every data type in the four byte orders decodes to the value pymodbus encoded', async () => {
    const items = await checkedItems(ids.table);
    const decoded = table.map((e) => [e.type, e.order, items.get(`${e.type} ${e.order}`)?.value]);
    expect(decoded).toEqual(table.map((e) => [e.type, e.order, e.value]));
    expect(table).toHaveLength(32);
  });

  it('stores and answers display decimals, and refuses a register the address base does not have', async () => {
    const id = itemIds.get(`${ids.table}:float64 ABCD`)!;
    const item = await call('GET', `setting/items/${id}`);
    const {
      id: _i,
      device_name: _n,
      device_group_id: _g,
      state: _s,
      value: _v,
      last_check: _l,
      info: _f,
      ...input
    } = item;
    const saved = await call('PUT', `setting/items/${id}`, { ...input, decimals: 2 });
    expect(saved.decimals).toBe(2);
    // The stored value is not rounded: only its display is.
    expect(saved.value).toBe(230.100006);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/setting/items/${id}`,
      headers: { authorization: 'Bearer admin-token' },
      payload: { ...input, decimals: 7 },
    });
    expect(bad.statusCode).toBe(400);
    // Many items at once (PUT setting/items/bulk).
    const others = [itemIds.get(`${ids.table}:float32 ABCD`)!, itemIds.get(`${ids.table}:float32 CDAB`)!];
    expect(await call('PUT', 'setting/items/bulk', { ids: others, set: { decimals: 1 } })).toEqual({
      updated: 2,
      failed: [],
    });
    expect((await call('GET', `setting/items/${others[1]}`)).decimals).toBe(1);
    // Register 0 on a 1-based device: unknown with the reason, the other points still read.
    const zero = await addItem(ids.alone, 'r0', { function: 3, register: 0, data_type: 'uint16' });
    const until = Date.now() + 5000;
    let row = await call('GET', `setting/items/${zero}`);
    while (row.last_check === 0 && Date.now() < until) {
      await sleep(100);
      row = await call('GET', `setting/items/${zero}`);
    }
    expect(row).toMatchObject({
      state: monitorState.unknown,
      info: 'register 0 does not exist with 1-based addressing',
    });
  });
});

describeEachDatabase('migration 0011-modbus', (dialect) => {
  const t = useTestApp(dialect);
  it('rewrites stored _le and bool types to the byte order names, and back', async () => {
    const k = t.database.db.kysely;
    const template = async () =>
      JSON.parse(
        (await k.selectFrom('device_templates').select('items').where('id', '=', 21).executeTakeFirstOrThrow()).items,
      ).map(
        (i: { source: { data_type: string; byte_order?: string } }) =>
          `${i.source.data_type}/${i.source.byte_order ?? '-'}`,
      );
    expect(await template()).toEqual(['float32/-', 'float32/-', 'float32/-', 'uint32/-', 'bit/-']);
    await m0011.down(k);
    expect(await template()).toEqual(['float32/-', 'float32/-', 'float32/-', 'uint32/-', 'bool/-']);
    // A row as an older version stored it: a word-swapped type named `_le`.
    const old = JSON.parse(
      (await k.selectFrom('device_templates').select('items').where('id', '=', 21).executeTakeFirstOrThrow()).items,
    );
    old[0].source.data_type = 'float32_le';
    await k
      .updateTable('device_templates')
      .set({ items: JSON.stringify(old) })
      .where('id', '=', 21)
      .execute();
    await m0011.up(k);
    expect(await template()).toEqual(['float32/CDAB', 'float32/-', 'float32/-', 'uint32/-', 'bit/-']);
    // The API reads the rewritten template with the contract (defaults fill the rest).
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/setting/device_templates?limit=1000',
      headers: { authorization: 'Bearer admin-token' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const meter = res.json().data.data.find((d: { id: number }) => d.id === 21);
    expect(meter.items.map((i: { source: object }) => i.source)).toMatchObject([
      { data_type: 'float32', byte_order: 'CDAB', bit: null },
      { data_type: 'float32', byte_order: 'ABCD', bit: null },
      { data_type: 'float32', byte_order: 'ABCD' },
      { data_type: 'uint32', byte_order: 'ABCD' },
      { function: 1, data_type: 'bit', bit: null },
    ]);
    // The template point tables (setting/modbus_excel) name each point's byte order.
    const excel = await t.app.inject({
      method: 'GET',
      url: '/api/v1/setting/modbus_excel',
      headers: { authorization: 'Bearer admin-token', 'accept-language': 'en_us' },
    });
    expect(excel.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(excel.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets.find((s) => s.name.startsWith('21 '))!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Data type', 'Byte order', 'Bit']));
    const cell = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1).value;
    expect([cell(2, 'Data type'), cell(2, 'Byte order')]).toEqual(['float32', 'CDAB']);
    expect([cell(3, 'Data type'), cell(3, 'Byte order')]).toEqual(['float32', 'ABCD']);
    // decimals is back as a column.
    await k.updateTable('items').set({ decimals: 1 }).execute();
  });
});
