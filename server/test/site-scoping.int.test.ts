import { sharedText } from '@sitewatch/contract';
import type { AlarmRow } from '@sitewatch/contract/alarms';
import { expect, it } from 'vitest';
import { fromWallTime } from '../src/schedule/repeat.ts';
import { scheduleZone } from '../src/schedule/zone.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser } from './helpers/login.ts';

/**
 * Rows that know their sites (issue 27, item 3): a user granted site A, with every function of the
 * inspection, duty, work-order and site-map pages, tries to read and change rows of sites B and C and
 * rows of no site (every site, someone's own). Each refusal is a 403 or 404 with its message and
 * changes no row; rows spanning several sites answer only the part of site A (docs/users.md, "Rows
 * of several sites").
 */
describeEachDatabase('rows of several sites answer and change only the granted part', (dialect) => {
  // 2026-11-23 10:00 in the server's zone: inside the day shifts below.
  const now = fromWallTime({ y: 2026, mo: 11, d: 23, h: 10, mi: 0, s: 0 }, scheduleZone());
  const nowSeconds = Math.floor(now / 1000);
  const today = '2026-11-23';
  const t = useTestApp(dialect, { clock: () => now });
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
  const ok = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    token = 'admin-token',
  ) => {
    const res = await call(method, url, payload, token);
    expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  };
  /** The request is refused with this status (and message, when named) and no row of any table changes. */
  const refused = async (
    method: 'POST' | 'PUT' | 'DELETE' | 'GET',
    url: string,
    payload: object | undefined,
    status: 403 | 404 | 400,
    key?: string | [string, Record<string, number>],
    token = 'a-token',
  ) => {
    const before = await snapshotDigest(t.database.db);
    const res = await call(method, url, payload, token);
    expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(status);
    expect(res.body.code).not.toBe(0);
    if (key)
      expect(res.body.message).toBe(typeof key === 'string' ? sharedText('zh_cn', key) : sharedText('zh_cn', ...key));
    expect(await snapshotDigest(t.database.db)).toBe(before);
  };
  const at = { a: 0, b: 0, c: 0, a1: 0, userA: 0, userA2: 0, contactA: 0, contactB: 0 };
  const itemsOf: Record<number, number[]> = {};

  const grantPages = async (roleId: number, menus: number[]) => {
    for (const menu_id of menus) {
      await k().insertInto('role_menus').values({ role_id: roleId, menu_id }).execute();
      for (const f of await k().selectFrom('functions').select('id').where('menu_id', '=', menu_id).execute())
        await k().insertInto('role_functions').values({ role_id: roleId, function_id: f.id }).execute();
    }
  };

  it('sets up sites A, B, C (A1 under A), their items, and users of site A', async () => {
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    at.a = (await ok('POST', 'setting/device_groups', { name: 'Site A', weight: 3 })).id;
    at.b = (await ok('POST', 'setting/device_groups', { name: 'Site B', weight: 2 })).id;
    at.c = (await ok('POST', 'setting/device_groups', { name: 'Site C', weight: 1 })).id;
    at.a1 = (await ok('POST', 'setting/device_groups', { name: 'Hall A1', weight: 1, parent_id: at.a })).id;
    for (const site of [at.a, at.b, at.c]) {
      const device = await ok('POST', 'setting/devices', {
        name: `TH-${site}`,
        device_group_id: site,
        driver: 'simulator',
        code: 'temp_hum',
      });
      itemsOf[site] = [];
      for (const name of ['温度', '湿度'])
        itemsOf[site]!.push(
          (
            await ok('POST', 'setting/items', {
              device_id: device.id,
              name,
              value_type: 1,
              threshold_min: 10,
              threshold_max: 30,
              overrun_point: 0,
              recovery_point: 1,
              source: { kind: 'simulator', model: 'analog', base: 20 },
            })
          ).id,
        );
    }
    // Stored as the collector would leave them: every item normal.
    await k().updateTable('items').set({ value: 22, state: 1 }).execute();
    at.contactA = (await ok('POST', 'setting/contacts', { name: '甲', sms_number: '13800000001' })).id;
    at.contactB = (await ok('POST', 'setting/contacts', { name: '乙', sms_number: '13800000002' })).id;

    // Role 41: site A (not its hall A1), every function of inspection, duty, work orders and the editor.
    await k().insertInto('roles').values({ id: 41, name: 'site A', remark: '', created_at: 0 }).execute();
    await k().insertInto('role_sites').values({ role_id: 41, site_id: at.a }).execute();
    await k().insertInto('role_contacts').values({ role_id: 41, contact_id: at.contactA }).execute();
    await grantPages(41, [721, 731, 732, 733, 741, 214]);
    at.userA = await createUser(t.database.db, 'user-a', 'Some-Pass-123', [41]);
    at.userA2 = await createUser(t.database.db, 'user-a2', 'Some-Pass-123', [41]);
    fakeTokens['a-token'] = { user_id: at.userA, user_name: 'user-a', session_id: 4100 };
    fakeTokens['a2-token'] = { user_id: at.userA2, user_name: 'user-a2', session_id: 4101 };
    // Role 42: site A without the inspection page.
    await k()
      .insertInto('roles')
      .values({ id: 42, name: 'site A, no inspection', remark: '', created_at: 0 })
      .execute();
    await k().insertInto('role_sites').values({ role_id: 42, site_id: at.a }).execute();
    await grantPages(42, [741]);
    const noPage = await createUser(t.database.db, 'user-a-np', 'Some-Pass-123', [42]);
    fakeTokens['np-token'] = { user_id: noPage, user_name: 'user-a-np', session_id: 4200 };
  });

  it('inspection plans cover only sites the caller holds; others are refused with nothing changed', async () => {
    const plan = (sites: number[]) => ({
      name: '日巡',
      device_group_ids: sites,
      rule: 'daily',
      start_time: nowSeconds + 60,
    });
    // The probe: a user of site A makes a plan over A, B and C.
    await refused('POST', 'setting/intelligent_inspection', plan([at.a, at.b, at.c]), 403, 'access.siteNotGranted');
    // Site A has a hall outside the grant: a plan over A would run over it too.
    await refused('POST', 'setting/intelligent_inspection', plan([at.a]), 403, 'access.siteNotGranted');
    await k().insertInto('role_sites').values({ role_id: 41, site_id: at.a1 }).execute();
    const mine = await ok('POST', 'setting/intelligent_inspection', plan([at.a]), 'a-token');
    expect(mine.device_group_ids).toEqual([at.a]);
    await ok('PUT', `setting/intelligent_inspection/${mine.id}`, { ...plan([at.a]), name: '早巡' }, 'a-token');

    const wide = await ok('POST', 'setting/intelligent_inspection', plan([at.a, at.b]));
    const other = await ok('POST', 'setting/intelligent_inspection', plan([at.c]));
    // A plan over A and B is seen with its part of site A, and neither changed nor deleted.
    const seen = await ok('GET', 'setting/intelligent_inspection', undefined, 'a-token');
    expect(seen.map((p: { id: number; device_group_ids: number[] }) => [p.id, p.device_group_ids])).toEqual([
      [mine.id, [at.a]],
      [wide.id, [at.a]],
    ]);
    await refused('PUT', `setting/intelligent_inspection/${wide.id}`, plan([at.a]), 403, 'access.spansOtherSites');
    await refused('DELETE', `setting/intelligent_inspection/${wide.id}`, undefined, 403, 'access.spansOtherSites');
    // A plan of site C does not exist for them.
    await refused('GET', `setting/intelligent_inspection/${other.id}`, undefined, 404);
    await refused('PUT', `setting/intelligent_inspection/${other.id}`, plan([at.a]), 404);
    await refused('DELETE', `setting/intelligent_inspection/${other.id}`, undefined, 404);
    await k().deleteFrom('role_sites').where('role_id', '=', 41).where('site_id', '=', at.a1).execute();
  });

  it('a report of three sites answers site A’s items to a user of A, needs the inspection page, and is reviewed only whole', async () => {
    const report = await ok('POST', 'inspection/manual', {
      device_group_ids: [at.a, at.b, at.c],
      summary: '全部巡检',
      marks: [{ item_id: itemsOf[at.b]![0]!, abnormal: true, note: 'B 异常' }],
    });
    expect(report.items).toBe(6);
    const part = await ok('GET', `inspection/report/${report.id}`, undefined, 'a-token');
    expect(part.content.map((i: { item_id: number }) => i.item_id)).toEqual(itemsOf[at.a]);
    expect(part).toMatchObject({ items: 2, abnormal: 0, device_group_ids: [at.a] });
    const listed = (await ok('GET', 'inspection/report?page=1&limit=10', undefined, 'a-token')).data;
    expect(listed.find((r: { id: number }) => r.id === report.id)).toMatchObject({ items: 2, abnormal: 0 });
    // Without the inspection page: refused, the list, one report and its export alike.
    await refused('GET', `inspection/report/${report.id}`, undefined, 403, undefined, 'np-token');
    await refused('GET', 'inspection/report?page=1&limit=10', undefined, 403, undefined, 'np-token');
    await refused('GET', `inspection/report/${report.id}/export`, undefined, 403, undefined, 'np-token');
    // A review judges the whole report: a reader of a part may not give it.
    await refused(
      'POST',
      `inspection/report/${report.id}/review`,
      { result: 'passed', comment: '' },
      403,
      'access.spansOtherSites',
    );
    const onlyC = await ok('POST', 'inspection/manual', { device_group_ids: [at.c], summary: 'C', marks: [] });
    await refused('GET', `inspection/report/${onlyC.id}`, undefined, 404);
  });

  it('dispatch rules: a user of A neither changes a rule of other sites nor names one, and gets the part of A', async () => {
    const rule = (sites: number[], handler = 1) => ({
      name: '派单',
      enable: true,
      levels: [1, 2, 3, 4, 5],
      device_group_ids: sites,
      handler_id: handler,
      reviewer_id: 1,
      priority: 4,
      deadline_hours: 2,
      require_recovered: true,
    });
    await ok('PUT', 'work_order_set/1', rule([]));
    await ok('PUT', 'work_order_set/2', rule([at.b]));
    await ok('PUT', 'work_order_set/3', rule([at.a, at.c]));
    const seen = await ok('GET', 'work_order_set', undefined, 'a-token');
    expect(
      seen.map((s: { id: number; device_group_ids: number[]; editable: boolean }) => [
        s.id,
        s.device_group_ids,
        s.editable,
      ]),
    ).toEqual([
      [1, [], false],
      [3, [at.a], false],
    ]);
    // The probe: site B's alarms routed to themself by overwriting the rule for every site.
    const mine = rule([at.b], at.userA);
    await refused('PUT', 'work_order_set/1', { ...mine, require_recovered: false }, 403, 'access.spansOtherSites');
    await refused('PUT', 'work_order_set/1', rule([at.a], at.userA), 403, 'access.spansOtherSites');
    await refused('PUT', 'work_order_set/2', rule([at.a], at.userA), 403, 'access.spansOtherSites');
    await refused('PUT', 'work_order_set/3', rule([at.a], at.userA), 403, 'access.spansOtherSites');
    await refused('PUT', 'work_order_set/0', mine, 403, 'access.siteNotGranted');
    await refused('PUT', 'work_order_set/9', mine, 403, 'access.siteNotGranted');
    await refused('PUT', 'work_order_set/0', rule([], at.userA), 403, 'access.everySiteNeeded');
    // Their own rule, numbered after every rule (3 they partly see).
    const created = await ok('PUT', 'work_order_set/0', rule([at.a], at.userA), 'a-token');
    expect(created).toMatchObject({ id: 4, device_group_ids: [at.a], editable: true });
    await ok('PUT', 'work_order_set/4', { ...rule([at.a], at.userA), name: '我的派单' }, 'a-token');
  });

  it('site map: a sub-site picture of another site is refused, read or written', async () => {
    const picture = (parent: number) => ({
      device_group_id: at.a,
      parent_id: parent,
      background: { background: `/api/v1/setting/top_view/file/${'b'.repeat(32)}.png` },
      components: [],
    });
    // The probe: a picture of site B saved as a sub-site of site A.
    await refused('PUT', 'setting/top_view/device', picture(at.b), 403, 'access.siteNotGranted');
    await refused('PUT', 'setting/top_view/device', picture(at.a1), 403, 'access.siteNotGranted');
    const background = { device_group_id: at.a, parent_id: at.b, background: picture(0).background.background };
    await refused('POST', 'setting/top_view/background', background, 403, 'access.siteNotGranted');
    // Site C is no sub-site of A, whoever asks.
    await refused(
      'PUT',
      'setting/top_view/device',
      picture(at.c),
      400,
      ['topView.notSubSite', { id: at.c }],
      'admin-token',
    );
    await refused('GET', `setting/top_view/device?device_group_id=${at.a}&parent_id=${at.b}`, undefined, 404);
  });

  it('duty: shifts of other sites and of every site, others’ memos and handovers are neither read nor changed', async () => {
    const shift = (name: string, site: number | null) => ({
      name,
      start: '08:00',
      end: '20:00',
      device_group_id: site,
    });
    const everywhere = await ok('POST', 'on_duty_time_schedule', shift('全站白班', null));
    const ofB = await ok('POST', 'on_duty_time_schedule', shift('B 白班', at.b));
    await ok('POST', 'on_duty_table', { date: today, shift_id: ofB.id, contact_ids: [at.contactB] });
    const adminNote = await ok('POST', 'on_duty_memorandum', { date: today, content: '管理员的备忘' });
    const memoB = await ok('POST', 'on_duty_memorandum', { date: today, content: 'B 站备忘', device_group_id: at.b });
    const handover = await ok('POST', 'on_duty_handover', { successor_id: at.userA2, events: '私下交接' });

    // What they see: the shift of every site (not theirs to change), nothing of B, no one's notes.
    const shifts = await ok('GET', 'on_duty_time_schedule', undefined, 'a-token');
    expect(shifts.map((s: { id: number; editable: boolean }) => [s.id, s.editable])).toEqual([[everywhere.id, false]]);
    expect(await ok('GET', `on_duty_table?from=${today}&to=${today}`, undefined, 'a-token')).toEqual([]);
    expect(await ok('GET', `on_duty_memorandum?from=${today}&to=${today}`, undefined, 'a-token')).toEqual([]);
    expect(await ok('GET', 'on_duty_handover', undefined, 'a-token')).toEqual([]);
    expect((await ok('GET', 'on_duty_table/contacts', undefined, 'a-token')).map((c: { id: number }) => c.id)).toEqual([
      at.contactA,
    ]);

    // The probe: the administrator's shift deleted, memo read and edited; and the rest of it.
    await refused('DELETE', `on_duty_time_schedule/${everywhere.id}`, undefined, 403, 'access.everySiteNeeded');
    await refused('PUT', `on_duty_time_schedule/${everywhere.id}`, shift('改', at.a), 403, 'access.everySiteNeeded');
    await refused('DELETE', `on_duty_time_schedule/${ofB.id}`, undefined, 404);
    await refused('POST', 'on_duty_time_schedule', shift('新', null), 403, 'access.everySiteNeeded');
    await refused('POST', 'on_duty_time_schedule', shift('新', at.b), 403, 'access.siteNotGranted');
    const rotation = { contact_ids: [at.contactA], start_date: today, weeks: 1 };
    await refused('POST', 'on_duty_table/rotation', { ...rotation, shift_id: everywhere.id }, 403);
    await refused('POST', 'on_duty_table/rotation', { ...rotation, shift_id: ofB.id }, 404);
    await refused('POST', 'on_duty_table', { date: today, shift_id: ofB.id, contact_ids: [at.contactA] }, 404);
    const rowOfB = (await ok('GET', `on_duty_table?from=${today}&to=${today}`))[0];
    await refused('DELETE', `on_duty_table/${rowOfB.id}`, undefined, 404);
    await refused('PUT', `on_duty_memorandum/${adminNote.id}`, { date: today, content: '改了' }, 404);
    await refused('DELETE', `on_duty_memorandum/${adminNote.id}`, undefined, 404);
    await refused('DELETE', `on_duty_memorandum/${memoB.id}`, undefined, 404);
    await refused('POST', 'on_duty_memorandum', { date: today, content: 'x', device_group_id: at.b }, 403);
    await refused('PUT', `on_duty_handover/${handover.id}`, {}, 404);
    await refused('DELETE', `on_duty_handover/${handover.id}`, undefined, 404);
    await refused('PUT', 'on_duty_handover/setting', { handover_enable: true }, 403, 'access.everySiteNeeded');

    // Their own site's shift, arranged with their contact; a memo of site A read by their colleague.
    const ofA = await ok('POST', 'on_duty_time_schedule', shift('A 白班', at.a), 'a-token');
    expect(ofA).toMatchObject({ device_group_id: at.a, editable: true });
    await refused('POST', 'on_duty_table/rotation', { ...rotation, shift_id: ofA.id, contact_ids: [at.contactB] }, 400);
    await ok('POST', 'on_duty_table/rotation', { ...rotation, shift_id: ofA.id }, 'a-token');
    const memoA = await ok(
      'POST',
      'on_duty_memorandum',
      { date: today, content: 'A 站备忘', device_group_id: at.a },
      'a-token',
    );
    const colleague = await ok('GET', `on_duty_memorandum?from=${today}&to=${today}`, undefined, 'a2-token');
    expect(colleague.map((m: { id: number; editable: boolean }) => [m.id, m.editable])).toEqual([[memoA.id, false]]);
    await refused('DELETE', `on_duty_memorandum/${memoA.id}`, undefined, 403, 'duty.notAuthor', 'a2-token');
    // The administrator sees the site memos and their own note, and may tidy a site's memo.
    const all = await ok('GET', `on_duty_memorandum?from=${today}&to=${today}`);
    expect(all.map((m: { id: number }) => m.id).sort()).toEqual([adminNote.id, memoB.id, memoA.id].sort());
    expect(all.every((m: { editable: boolean }) => m.editable)).toBe(true);
  });

  it('with handover on, the pop-up of an alarm goes to who is on duty for its site; an order records them', async () => {
    // 甲 is on duty for site A (its shift), 乙 for site B only; user-a is 甲 by e-mail, user-a2 乙.
    await ok('PUT', `setting/contacts/${at.contactA}`, {
      name: '甲',
      sms_number: '13800000001',
      email: 'jia@example.com',
    });
    await ok('PUT', `setting/contacts/${at.contactB}`, {
      name: '乙',
      sms_number: '13800000002',
      email: 'yi@example.com',
    });
    await k().updateTable('users').set({ email: 'jia@example.com' }).where('id', '=', at.userA).execute();
    await k().updateTable('users').set({ email: 'yi@example.com' }).where('id', '=', at.userA2).execute();
    const told = (userId: number) =>
      new Promise<{ notice?: boolean }>((resolve) => {
        const remove = t.push.add({
          principal: { user_id: userId, user_name: String(userId), session_id: 1 },
          send: (m) => {
            const msg = JSON.parse(m);
            if (msg.type !== 'alarm') return;
            resolve(msg);
            remove();
          },
        });
      });
    await ok('PUT', 'on_duty_handover/setting', { handover_enable: true });
    const pushes = [told(at.userA), told(at.userA2)];
    // Level 0: no dispatch rule takes it.
    const alarm = { status_id: 999_001, item_id: itemsOf[at.a]![0]!, device_id: 0, device_group_id: at.a, level: 0 };
    t.sitewatch.bus.publish('alarm.raised', { alarm: alarm as unknown as AlarmRow });
    const [jia, yi] = await Promise.all(pushes);
    expect(jia).toMatchObject({ event: 'raise', notice: true });
    expect(yi).toMatchObject({ event: 'raise', notice: false });
    await ok('PUT', 'on_duty_handover/setting', { handover_enable: false });

    // A work order records who was on duty for its site (a sub-site: the shifts of the site above).
    const order = (site: number) =>
      ok('POST', 'work_order', {
        description: '巡查',
        priority: 2,
        handler_id: 1,
        reviewer_id: 1,
        deadline_hours: 2,
        device_group_id: site,
      });
    expect((await order(at.b)).on_duty).toBe('乙');
    expect((await order(at.a1)).on_duty).toBe('甲');
    expect((await order(at.c)).on_duty).toBe('');
  });

  it('the user-group list answers only users whose pages show it', async () => {
    await refused('GET', 'setting/user_groups', undefined, 403);
    await k().insertInto('role_menus').values({ role_id: 41, menu_id: 222 }).execute();
    expect((await ok('GET', 'setting/user_groups', undefined, 'a-token')).total).toBeGreaterThan(0);
  });
});
