import { doorMenus } from '@sitewatch/contract/door-access';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localTime } from '../src/modules/door-access/service.ts';
import { startWgSimulator, type WgSimulator } from '../src/modules/door-access/wg/simulator.ts';
import { type TestApp, useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { type AdminCall, addSite, type Headers, realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { createUser, loginHeader } from './helpers/login.ts';

const ok = async (res: { json(): { code: number; data: unknown }; body: string }) => {
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return res.json().data as Record<string, unknown>;
};
const card = (number: number, holder: string, job_number: string, doors: number[], device_group_id: number) => ({
  number,
  format: 'wiegand26',
  device_group_id,
  holder,
  job_number,
  valid_from: '2026-01-01',
  valid_to: '2026-12-31',
  doors: doors.map((door_id) => ({ door_id, profile: 0 })),
});
/** A user whose one role holds `menus`, signed in. */
const userWith = async (t: TestApp, roleId: number, name: string, menus: number[]) => {
  const k = t.database.db.kysely;
  await k.insertInto('roles').values({ id: roleId, name, remark: '', created_at: 0 }).execute();
  await createUser(t.database.db, name, 'Some-Pass-123', [roleId]);
  for (const menu_id of menus) await k.insertInto('role_menus').values({ role_id: roleId, menu_id }).execute();
  return loginHeader(t.app, name, 'Some-Pass-123');
};

/** The one sheet of an xlsx answer. */
const sheetOf = async (res: { rawPayload: Buffer }) => {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return book.worksheets[0]!;
};

/** Each door page's holder reads what the page shows (the shared reads), and nothing more. */
const checkReaders = async (t: TestApp, call: AdminCall) => {
  const custom = await userWith(t, 61, 'logreader', [doorMenus.group, doorMenus.logCustom]);
  expect((await call('GET', 'access_control/log', custom)).statusCode).toBe(200);
  expect((await call('GET', 'access_control/device', custom)).statusCode).toBe(200);
  expect((await call('GET', 'access_control/card', custom)).statusCode).toBe(403);
  expect((await call('GET', 'access_control/permission', custom)).statusCode).toBe(403);
  // Export is a function of the page, not granted here.
  expect((await call('GET', 'access_control/log/export', custom)).statusCode).toBe(403);
  const perm = await userWith(t, 62, 'permreader', [doorMenus.group, doorMenus.permission]);
  expect((await call('GET', 'access_control/card', perm)).statusCode).toBe(200);
  expect((await call('GET', 'access_control/permission', perm)).statusCode).toBe(200);
  expect((await call('GET', 'access_control/log', perm)).statusCode).toBe(403);
};

/**
 * The routes of the door pages built after the first session (docs/door-access.md, "Log pages",
 * "Permission page"): the log's filters (door, person, granted, time range), its xlsx export, the
 * permissions seen from a door and set per door, and the reads shared by the pages that show them.
 */
describeEachDatabase('door pages (002 §2.1 /door_log_custom, /doors_logs, /door_permission)', (dialect) => {
  const t = useManualTestApp(dialect, realLogin, Date.UTC(2026, 10, 28, 1, 0, 0));
  let sim: WgSimulator;
  let admin: Headers = {};
  let call: AdminCall;
  let site = 0;
  let otherSite = 0;
  let doorIds: number[] = [];
  const cardIds: number[] = [];
  let controllerId = 0;
  const SERIAL = 423187001;

  beforeAll(async () => {
    sim = await startWgSimulator({ serial: SERIAL, timers: t.clock.timers, now: () => localTime(t.clock.now()) });
  });
  afterAll(async () => {
    await sim.close();
  });

  const logs = async (query: string) => {
    const data = await ok(await call('GET', `access_control/log?page_size=100&${query}`));
    return (data.list as Array<Record<string, unknown>>).map((l) => l.event_index);
  };

  it('sets up a controller, two cards and swipes read from the controller', async () => {
    ({ admin, call } = await signInFirstAdmin(t));
    site = await addSite(call, 'Equipment room A');
    otherSite = await addSite(call, 'Equipment room B');
    const made = await ok(
      await call('POST', 'access_control/device', admin, {
        name: 'Room A controller',
        device_group_id: site,
        serial: SERIAL,
        address: '127.0.0.1',
        port: sim.port,
        doors: [
          { number: 1, nickname: 'Front', direction: 'in' },
          { number: 2, nickname: '', direction: 'out' },
        ],
      }),
    );
    controllerId = made.id as number;
    const list = (await ok(await call('GET', 'access_control/device'))).list as Array<{ doors: Array<{ id: number }> }>;
    doorIds = list[0]!.doors.map((d) => d.id);
    for (const c of [
      card(0x7c0a2b, 'Zhang Wei', 'A-017', [doorIds[0]!], site),
      card(0x10203, 'Li Na', 'B-200', [], site),
    ])
      cardIds.push((await ok(await call('POST', 'access_control/card', admin, c))).id as number);
    await ok(await call('POST', 'access_control/log_sync', admin, { controller_id: controllerId }));
    sim.swipe(0x7c0a2b, 1); // 1 granted, Zhang Wei, door 1
    await t.clock.advance(3600_000);
    sim.swipe(0x10203, 1); // 2 refused, Li Na, door 1
    sim.swipe(0x7c0a2b, 2); // 3 refused, Zhang Wei, door 2
    sim.forceOpen(2); // 4 alarm, door 2
    expect(
      await ok(await call('POST', 'access_control/log_sync', admin, { controller_id: controllerId })),
    ).toMatchObject({ events: 4 });
  });

  it('filters the log by door, person, card, granted, kind and time range', async () => {
    expect(await logs('')).toEqual([4, 3, 2, 1]);
    expect(await logs(`door_id=${doorIds[0]}`)).toEqual([2, 1]);
    expect(await logs(`door_id=${doorIds[1]}`)).toEqual([4, 3]);
    expect(await logs('person=zhang')).toEqual([3, 1]);
    expect(await logs('person=B-200')).toEqual([2]);
    expect(await logs(`person=${0x7c0a2b}`)).toEqual([3, 1]);
    expect(await logs('person=1:515')).toEqual([2]);
    expect(await logs('granted=true')).toEqual([1]);
    expect(await logs('granted=false&kind=swipe')).toEqual([3, 2]);
    expect(await logs('kind=alarm')).toEqual([4]);
    const first = Math.floor(Date.UTC(2026, 10, 28, 1, 0, 0) / 1000);
    expect(await logs(`start=${first + 1800}`)).toEqual([4, 3, 2]);
    expect(await logs(`end=${first + 1800}`)).toEqual([1]);
    expect(await logs(`controller_id=${controllerId}&person=Li&door_id=${doorIds[0]}`)).toEqual([2]);
    const row = (await ok(await call('GET', 'access_control/log?kind=swipe&granted=true'))).list as unknown[];
    expect(row[0]).toMatchObject({ door_name: 'Front', holder: 'Zhang Wei', job_number: 'A-017', card: '124:2603' });

    const backwards = await call('GET', `access_control/log?start=${first}&end=${first - 1}`, {
      ...admin,
      'accept-language': 'zh_cn',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain('结束时间不能早于开始时间');
    expect((await call('GET', 'access_control/log?door_id=99999')).statusCode).toBe(404);
    expect((await call('GET', 'access_control/log?granted=maybe')).statusCode).toBe(400);
  });

  it('exports the filtered log as xlsx in the caller’s language', async () => {
    const res = await call('GET', `access_control/log/export?door_id=${doorIds[1]}&tz_offset=480`, {
      ...admin,
      'accept-language': 'zh_cn',
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const sheet = await sheetOf(res);
    expect(sheet.name).toBe('门禁日志');
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      '时间',
      '控制器',
      '门',
      '类型',
      '允许通过',
      '结果',
      '持卡人',
      '工号',
      '卡号',
      '记录序号',
    ]);
    expect(values(2)).toEqual([
      '2026-11-28 10:00:00',
      'Room A controller',
      '2号门',
      '报警',
      '',
      '强行开门',
      '',
      '',
      '',
      4,
    ]);
    expect(values(3).slice(0, 9)).toEqual([
      '2026-11-28 10:00:00',
      'Room A controller',
      '2号门',
      '刷卡',
      '否',
      '无权限',
      'Zhang Wei',
      'A-017',
      '124:2603',
    ]);
    expect(sheet.rowCount).toBe(3);
    const english = await call('GET', 'access_control/log/export?person=Li', { ...admin, 'accept-language': 'en_us' });
    const en = await sheetOf(english);
    expect((en.getRow(2).values as unknown[]).slice(3, 6)).toEqual(['Front', 'Card swipe', 'No']);
    expect(en.rowCount).toBe(2);
  });

  it('lists permissions by door and sets a door’s cards as a whole, pushed at the next sync', async () => {
    const perms = async (door: number) =>
      (
        (await ok(await call('GET', `access_control/permission?door_id=${door}`))).list as Array<
          Record<string, unknown>
        >
      )
        .map((p) => [p.holder, p.display])
        .sort();
    expect(await perms(doorIds[0]!)).toEqual([['Zhang Wei', '124:2603']]);
    expect(await perms(doorIds[1]!)).toEqual([]);
    expect(
      await ok(
        await call('PUT', `access_control/permission/${doorIds[1]}`, admin, {
          cards: cardIds.map((card_id) => ({ card_id })),
        }),
      ),
    ).toEqual({ cards: 2 });
    expect(await perms(doorIds[1]!)).toEqual([
      ['Li Na', '1:515'],
      ['Zhang Wei', '124:2603'],
    ]);
    const cards = (await ok(await call('GET', 'access_control/card'))).list as Array<{ id: number; doors: unknown[] }>;
    expect(cards.find((c) => c.id === cardIds[1])?.doors).toEqual([{ door_id: doorIds[1], profile: 0 }]);
    await ok(await call('POST', 'access_control/log_sync', admin, { controller_id: controllerId }));
    expect(sim.cards.get(0x10203)?.doors).toEqual({ 2: true });
    expect(sim.cards.get(0x7c0a2b)?.doors).toEqual({ 1: true, 2: true });

    // Refusals change nothing: a card of another site, a card twice, an unknown door or card.
    const stranger = (
      await ok(await call('POST', 'access_control/card', admin, card(77, 'Wang Fang', 'C-1', [], otherSite)))
    ).id as number;
    const before = await snapshotDigest(t.database.db);
    const zh = { ...admin, 'accept-language': 'zh_cn' };
    const refusals: Array<[string, object, number, string]> = [
      [`access_control/permission/${doorIds[1]}`, { cards: [{ card_id: stranger }] }, 400, '门与卡必须属于同一站点'],
      [`access_control/permission/${doorIds[1]}`, { cards: [{ card_id: 1 }, { card_id: 1 }] }, 400, '同一张卡不能重复'],
      ['access_control/permission/99999', { cards: [] }, 404, '门不存在'],
      [`access_control/permission/${doorIds[1]}`, { cards: [{ card_id: 99999 }] }, 404, '门禁卡不存在'],
      [`access_control/permission/${doorIds[1]}`, { cards: [{ card_id: cardIds[0], profile: 255 }] }, 400, ''],
    ];
    for (const [url, body, status, message] of refusals) {
      const res = await call('PUT', url, zh, body);
      expect(res.statusCode, `${url} ${res.body}`).toBe(status);
      expect(res.json().message).toContain(message);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);

    // A card edited without its PIN keeps it (the pages never see it to send it back).
    const pinned = (
      await ok(
        await call('POST', 'access_control/card', admin, {
          ...card(4242, 'Zhao Lei', 'D-4', [doorIds[0]!], site),
          pin: 1357,
        }),
      )
    ).id as number;
    await ok(
      await call('PUT', `access_control/card/${pinned}`, admin, card(4242, 'Zhao Lei', 'D-5', [doorIds[0]!], site)),
    );
    await ok(await call('POST', 'access_control/log_sync', admin, { controller_id: controllerId }));
    expect(sim.cards.get(4242)?.pin).toBe(1357);
    await ok(
      await call('PUT', `access_control/card/${pinned}`, admin, {
        ...card(4242, 'Zhao Lei', 'D-5', [doorIds[0]!], site),
        pin: 0,
      }),
    );
    await ok(await call('POST', 'access_control/log_sync', admin, { controller_id: controllerId }));
    expect(sim.cards.get(4242)?.pin).toBe(0);

    // An empty list withdraws the door from every card.
    await ok(await call('PUT', `access_control/permission/${doorIds[1]}`, admin, { cards: [] }));
    expect(await perms(doorIds[1]!)).toEqual([]);
  });

  it('lets a holder of one door page read what that page shows, and nothing else', () => checkReaders(t, call));
});
