import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { pdfFont } from '../src/http/pdf.ts';
import { planTask } from '../src/modules/inspection/service.ts';
import type { Channel } from '../src/notify/channel.ts';
import { createChannels } from '../src/notify/channels/index.ts';
import { fromWallTime, wallTime } from '../src/schedule/repeat.ts';
import { createScheduler } from '../src/schedule/scheduler.ts';
import { scheduleZone } from '../src/schedule/zone.ts';
import { apiCalls } from './helpers/api-calls.ts';
import { fakeTokens, useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser } from './helpers/login.ts';
import { pdfText } from './helpers/pdf-text.ts';

/**
 * Schedules, inspection and duty (issue 16; docs/inspection-duty.md): a plan's runs across a restart
 * of the scheduler (none twice, none skipped), a manual inspection to its report and review, and the
 * duty table routing alarm notices to the operator on duty while shift handover is enabled.
 */
describeEachDatabase('inspection and duty', (dialect) => {
  const zone = scheduleZone();
  const sent: string[] = [];
  const recording: Channel = {
    kind: 'sms',
    async send(_settings, _message, to) {
      sent.push(to.address);
      return 'recorded';
    },
  };
  // The app's own clock, from 2026-11-23 10:00 in the server's zone: the day shift.
  const t = useManualTestApp(
    dialect,
    { notifyChannels: { ...createChannels(), sms: recording } },
    fromWallTime({ y: 2026, mo: 11, d: 23, h: 10, mi: 0, s: 0 }, zone),
  );
  const now = () => t.clock.now();
  const { call, ok } = apiCalls(t);
  const tables = [
    'inspection_reports',
    'inspection_plans',
    'scheduled_tasks',
    'duty_table',
    'duty_handovers',
    'duty_rotations',
    'duty_shifts',
    'module_settings',
  ];
  const digest = () => snapshotDigest(t.database.db, tables);
  const ids = { site: 0, items: [] as number[], group: 0, a: 0, b: 0, day: 0, night: 0 };

  it('sets up a site with three items, two contacts told by SMS', async () => {
    const site = await ok('POST', 'setting/device_groups', { name: '机房I', weight: 1 });
    ids.site = site.id;
    const device = await ok('POST', 'setting/devices', {
      name: 'TH-I',
      device_group_id: site.id,
      driver: 'simulator',
      code: 'temp_hum',
    });
    const channel = await ok('POST', 'setting/alarm_push', {
      name: 'sms',
      kind: 'sms',
      config: { url: 'http://127.0.0.1:9/sms' },
    });
    ids.a = (await ok('POST', 'setting/contacts', { name: '甲', sms_number: '13800000001' })).id;
    ids.b = (await ok('POST', 'setting/contacts', { name: '乙', sms_number: '13800000002' })).id;
    ids.group = (
      await ok('POST', 'setting/contact_groups', {
        name: '值班组',
        email: false,
        sms: true,
        channel_ids: [channel.id],
        contact_ids: [ids.a, ids.b],
      })
    ).id;
    for (let i = 0; i < 3; i++) {
      const item = await ok('POST', 'setting/items', {
        device_id: device.id,
        name: `温度${i}`,
        value_type: 1,
        threshold_min: 10,
        threshold_max: 30,
        overrun_point: 0,
        recovery_point: 1,
        notification_interval: 0,
        contact_group_id: ids.group,
        source: { kind: 'simulator', model: 'analog', base: 20 },
      });
      ids.items.push(item.id);
    }
    // Stored values and states as the collector would have left them: item 2 is abnormal.
    const k = t.database.db.kysely;
    await k.updateTable('items').set({ value: 22.5, state: 1 }).where('id', 'in', ids.items.slice(0, 2)).execute();
    await k.updateTable('items').set({ value: 41, state: 2 }).where('id', '=', ids.items[2]!).execute();
  });

  it('a daily plan runs once when due, never twice, and once after a restart that missed runs', async () => {
    const start = Math.floor(now() / 1000) + 3600;
    const plan = await ok('POST', 'setting/intelligent_inspection', {
      name: '每日巡检',
      device_group_ids: [ids.site],
      rule: 'daily',
      start_time: start,
    });
    expect(plan.next_run).toBe(start);
    const scheduler = t.sitewatch.services.inspection.scheduler;
    expect(await scheduler.tick()).toBe(0);
    t.clock.jump((start + 60) * 1000);
    // Two ticks at once (two timers, or two processes): the claim lets one run.
    const runs = await Promise.all([scheduler.tick(), createSchedulerLike().tick()]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await scheduler.tick()).toBe(0);
    const reports = await ok('GET', 'inspection/report?kind=auto');
    expect(reports.total).toBe(1);
    expect(reports.data[0]).toMatchObject({
      kind: 'auto',
      inspector: '每日巡检',
      items: 3,
      abnormal: 1,
      status: 0,
      summary: '1/3: TH-I/温度2',
    });

    // Stopped for three days: a new scheduler on the same database runs the plan once, then waits for the next day.
    await scheduler.stop();
    t.clock.jump((start + 3 * 86_400 + 120) * 1000);
    const restarted = createSchedulerLike();
    expect(await restarted.tick()).toBe(1);
    expect(await restarted.tick()).toBe(0);
    const task = await restarted.task(planTask, plan.id);
    expect(Number(task!.next_run)).toBe(start + 4 * 86_400);
    expect(task!.runs).toBe(2);
    expect((await ok('GET', 'inspection/report?kind=auto')).total).toBe(2);
    t.clock.jump((start + 4 * 86_400) * 1000);
    expect(await restarted.tick()).toBe(1);
    await ok('DELETE', `setting/intelligent_inspection/${plan.id}`);
    expect(await restarted.task(planTask, plan.id)).toBeUndefined();

    function createSchedulerLike() {
      const s = createScheduler({ db: t.database.db, clock: now, zone });
      s.on(planTask, (refId) => t.sitewatch.services.inspection.service.runPlan(refId));
      return s;
    }
  });

  it('a manual inspection captures the values of that moment; its review is done once', async () => {
    const snapshot = await ok('GET', `inspection/snapshot?device_group_ids=${ids.site}`);
    expect(snapshot.map((i: { value: number }) => i.value)).toEqual([22.5, 22.5, 41]);
    const before = await digest();
    const refused = [
      await call('POST', 'inspection/manual', { device_group_ids: [ids.site], summary: '' }),
      await call('POST', 'inspection/manual', { device_group_ids: [999_999], summary: '巡检' }),
      await call('POST', 'inspection/manual', {
        device_group_ids: [ids.site],
        summary: '巡检',
        marks: [{ item_id: 999_999, abnormal: true }],
      }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 404, 400]);
    expect(await digest()).toEqual(before);

    const report = await ok('POST', 'inspection/manual', {
      device_group_ids: [ids.site],
      summary: '机房巡检正常，温度2偏高',
      marks: [{ item_id: ids.items[0], abnormal: true, note: '风扇异响' }],
    });
    expect(report).toMatchObject({ kind: 'manual', inspector: 'admin', status: 0, items: 3, abnormal: 2 });
    // Later values do not change the report.
    await t.database.db.kysely.updateTable('items').set({ value: 25 }).where('id', '=', ids.items[1]!).execute();
    const detail = await ok('GET', `inspection/report/${report.id}`);
    expect(detail.content.map((i: { value: number; note: string }) => [i.value, i.note])).toEqual([
      [22.5, '风扇异响'],
      [22.5, ''],
      [41, ''],
    ]);
    expect((await ok('GET', 'inspection/last')).report.id).toBe(report.id);
    const unconfirmed = await ok('GET', 'inspection/report?status=0');
    expect(unconfirmed.data.map((r: { id: number }) => r.id)).toContain(report.id);

    const reviewed = await ok('POST', `inspection/report/${report.id}/review`, { result: 'passed', comment: '已处理' });
    expect(reviewed).toMatchObject({ status: 1, reviewer: 'admin', review_comment: '已处理' });
    const again = await digest();
    const second = await call('POST', `inspection/report/${report.id}/review`, { result: 'failed' });
    expect(second.status).toBe(409);
    expect((await call('POST', `inspection/report/${report.id}/review`, { result: 'maybe' })).status).toBe(400);
    expect(await digest()).toEqual(again);

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/inspection/report/${report.id}/export`,
      headers: { authorization: 'Bearer admin-token' },
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(2).getCell(3).value).toBe('温度0');
    expect(sheet.getRow(2).getCell(6).value).toBe('异常');

    // The same report as a PDF: the Chinese text survives (read back through the font's ToUnicode map).
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/v1/inspection/report/${report.id}/export?format=pdf`,
      headers: { authorization: 'Bearer admin-token', 'accept-language': 'zh-CN' },
    });
    if (pdfFont() === null) {
      // A machine without a CJK font: refused with the message, not a document of empty boxes.
      expect(pdf.statusCode).toBe(409);
      expect(pdf.json().message).toContain('SITEWATCH_PDF_FONT');
      return;
    }
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="inspection-${report.id}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1')).toContain('/FontFile2');
    const lines = pdfText(pdf.rawPayload);
    const all = lines.join('');
    expect(lines[0]).toBe(`巡检报告 ${report.id}`);
    for (const text of [
      '巡检人: admin',
      '状态: 已通过',
      '审核意见: 已处理',
      '机房巡检正常，温度2偏高',
      '机房I',
      'TH-I',
      '风扇异响',
    ])
      expect(all).toContain(text);
    // Three item rows, their results in the table's result column.
    expect(lines.filter((l) => l.startsWith('温度'))).toEqual(['温度0', '温度1', '温度2']);
    expect(lines.filter((l) => l === '异常' || l === '正常')).toEqual(['异常', '正常', '异常']);
    expect(all).not.toContain('\ufffd');
    expect(pdf.rawPayload.length).toBeLessThan(300_000);
    // An unknown format is refused.
    expect((await call('GET', `inspection/report/${report.id}/export?format=doc`)).status).toBe(400);
  });

  it('with shift handover enabled the operator on duty gets the alarm notice and the one off duty does not', async () => {
    const w = wallTime(now(), zone);
    const today = `${w.y}-${String(w.mo).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
    t.clock.jump(fromWallTime({ ...w, h: 10, mi: 0, s: 0 }, zone));
    ids.day = (await ok('POST', 'on_duty_time_schedule', { name: '白班', start: '08:00', end: '20:00' })).id;
    ids.night = (await ok('POST', 'on_duty_time_schedule', { name: '夜班', start: '20:00', end: '08:00' })).id;

    const before = await digest();
    const refused = [
      await call('POST', 'on_duty_table/rotation', {
        shift_id: ids.day,
        contact_ids: [999_999],
        start_date: today,
        weeks: 1,
      }),
      await call('POST', 'on_duty_table/rotation', {
        shift_id: ids.day,
        contact_ids: [ids.a],
        start_date: '2026-02-30',
        weeks: 1,
      }),
      await call('POST', 'on_duty_time_schedule', { name: '错', start: '25:00', end: '08:00' }),
      await call('POST', 'on_duty_table', { date: today, shift_id: 999_999, contact_ids: [ids.a] }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 404]);
    expect(await digest()).toEqual(before);

    // 甲 then 乙 week by week on the day shift; 乙 covers tonight's night shift as a one-off.
    expect(
      (
        await ok('POST', 'on_duty_table/rotation', {
          shift_id: ids.day,
          contact_ids: [ids.a, ids.b],
          start_date: today,
          weeks: 1,
          horizon_weeks: 4,
        })
      ).created,
    ).toBe(28);
    await ok('POST', 'on_duty_table/rotation', {
      shift_id: ids.night,
      contact_ids: [ids.a],
      start_date: today,
      weeks: 1,
      horizon_weeks: 1,
    });
    await ok('POST', 'on_duty_table', { date: today, shift_id: ids.night, contact_ids: [ids.b] });
    const onDuty = await ok('GET', 'on_duty_table/now');
    expect(onDuty.map((e: { contact_name: string }) => e.contact_name)).toEqual(['甲']);
    const tonight = (await ok('GET', `on_duty_table?from=${today}&to=${today}`)).filter(
      (e: { shift_id: number }) => e.shift_id === ids.night,
    );
    expect(tonight.map((e: { contact_name: string; override: boolean }) => [e.contact_name, e.override])).toEqual([
      ['乙', true],
    ]);

    await ok('PUT', 'on_duty_handover/setting', { handover_enable: true });
    await t.sitewatch.alarms.start();
    t.sitewatch.alarms.onSample(ids.items[0]!, 40, now());
    await t.sitewatch.settled();
    expect(sent).toEqual(['13800000001']);

    // Night: the override's 乙 is told.
    sent.length = 0;
    t.clock.jump(fromWallTime({ ...w, h: 22, mi: 0, s: 0 }, zone));
    t.sitewatch.alarms.onSample(ids.items[1]!, 40, now());
    await t.sitewatch.settled();
    expect(sent).toEqual(['13800000002']);

    // Disabled: the standard mode tells the whole group.
    sent.length = 0;
    await ok('PUT', 'on_duty_handover/setting', { handover_enable: false });
    t.sitewatch.alarms.onSample(ids.items[2]!, 40, now());
    await t.sitewatch.settled();
    expect(sent.sort()).toEqual(['13800000001', '13800000002']);
  });

  it('a handover is confirmed by its successor only, once', async () => {
    // The fake admin token is user 1: make sure a row stands behind it.
    if (!(await t.database.db.kysely.selectFrom('users').select('id').where('id', '=', 1).executeTakeFirst()))
      await createUser(t.database.db, `admin-${dialect}`, 'Passw0rd!x', [1]);
    const succId = await createUser(t.database.db, `succ-${dialect}`, 'Passw0rd!x', [1]);
    const otherId = await createUser(t.database.db, `other-${dialect}`, 'Passw0rd!x', [1]);
    fakeTokens[`succ-${dialect}`] = { user_id: succId, user_name: `succ-${dialect}`, session_id: 900 };
    fakeTokens[`other-${dialect}`] = { user_id: otherId, user_name: `other-${dialect}`, session_id: 901 };
    const before = await digest();
    expect((await call('POST', 'on_duty_handover', { successor_id: 1, events: '无' })).status).toBe(400);
    expect((await call('POST', 'on_duty_handover', { successor_id: 999_999, events: '无' })).status).toBe(400);
    expect((await call('POST', 'on_duty_handover', { successor_id: succId, events: '' })).status).toBe(400);
    expect(await digest()).toEqual(before);

    const h = await ok('POST', 'on_duty_handover', { successor_id: succId, events: 'UPS 告警未恢复，已派工单' });
    // People are named by their alias (issue 38), the login name only without one.
    const admin = await t.database.db.kysely
      .selectFrom('users')
      .select(['alias', 'user_name'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    expect(h).toMatchObject({ status: 0, shifter: admin.alias || admin.user_name, confirmed_at: null });
    const pending = await digest();
    // A handover of no site is its two people's: anyone else, an administrator too, does not find it.
    expect((await call('PUT', `on_duty_handover/${h.id}`, {}, `other-${dialect}`)).status).toBe(404);
    expect((await call('PUT', `on_duty_handover/${h.id}`, {})).status).toBe(403);
    expect(await digest()).toEqual(pending);
    const confirmed = await ok('PUT', `on_duty_handover/${h.id}`, {}, `succ-${dialect}`);
    expect(confirmed).toMatchObject({ status: 1, confirmed_at: Math.floor(now() / 1000) });
    expect((await call('PUT', `on_duty_handover/${h.id}`, {}, `succ-${dialect}`)).status).toBe(409);
    expect((await call('DELETE', `on_duty_handover/${h.id}`)).status).toBe(409);
  });

  it("exports one's own shifts as iCalendar", async () => {
    await t.database.db.kysely.updateTable('users').set({ email: 'jia@example.com' }).where('id', '=', 1).execute();
    await ok('PUT', `setting/contacts/${ids.a}`, { name: '甲', sms_number: '13800000001', email: 'Jia@example.com' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/on_duty_table/ical',
      headers: { authorization: 'Bearer admin-token' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/calendar');
    const events = res.body.split('BEGIN:VEVENT').length - 1;
    // 甲: weeks one and three of the day shift, and the week of nights but tonight (乙's override).
    expect(events).toBe(14 + 7 - 1);
    expect(res.body).toContain('SUMMARY:白班');
  });

  it('with handover on, only the users on duty get the pop-up; an order records who was on duty and may go to them', async () => {
    // 22:00: 乙 is on duty (tonight's override); the administrator is 甲 by e-mail, off duty now.
    const w = wallTime(now(), zone);
    t.clock.jump(fromWallTime({ ...w, h: 22, mi: 0, s: 0 }, zone));
    await ok('PUT', `setting/contacts/${ids.b}`, { name: '乙', sms_number: '13800000002', email: 'yi@example.com' });
    const yi = await createUser(t.database.db, `yi-${dialect}`, 'Passw0rd!x', [1]);
    await t.database.db.kysely.updateTable('users').set({ email: 'YI@example.com' }).where('id', '=', yi).execute();
    fakeTokens[`yi-${dialect}`] = { user_id: yi, user_name: `yi-${dialect}`, session_id: 902 };
    const pushed = new Map<number, { event: string; notice?: boolean; alarm: { status_id: number } }[]>();
    const removers = [1, yi].map((user_id) =>
      t.push.add({
        principal: { user_id, user_name: String(user_id), session_id: 1 },
        send: (m) => {
          const msg = JSON.parse(m);
          if (msg.type === 'alarm') pushed.set(user_id, [...(pushed.get(user_id) ?? []), msg]);
        },
      }),
    );
    try {
      const alarm = (await ok('GET', 'review?scope=all&page=1&limit=1')).data[0];
      const raise = (statusId: number) =>
        t.sitewatch.bus.publish('alarm.raised', { alarm: { ...alarm, status_id: statusId } });
      await ok('PUT', 'on_duty_handover/setting', { handover_enable: true });
      raise(alarm.status_id);
      await t.sitewatch.settled();
      expect([pushed.get(1)?.length, pushed.get(yi)?.length]).toEqual([1, 1]);
      expect(pushed.get(yi)![0]).toMatchObject({ event: 'raise', notice: true });
      expect(pushed.get(1)![0]).toMatchObject({ event: 'raise', notice: false });
      // Off: everyone is told, no mark.
      await ok('PUT', 'on_duty_handover/setting', { handover_enable: false });
      raise(alarm.status_id);
      await t.sitewatch.settled();
      expect([pushed.get(1)?.length, pushed.get(yi)?.length]).toEqual([2, 2]);
      expect(pushed.get(1)![1]!.notice).toBeUndefined();
      expect(pushed.get(yi)![1]!.notice).toBeUndefined();

      // A manual order records who was on duty then, whatever the handover switch.
      const manual = await ok('POST', 'work_order', {
        description: '夜间巡查',
        priority: 2,
        handler_id: 1,
        reviewer_id: 1,
        deadline_hours: 2,
      });
      expect(manual.on_duty).toBe('乙');
      // A rule that sends to the person on duty: 乙's user gets the order raised by the alarm.
      const rule = {
        name: '当班派单',
        enable: true,
        levels: [1, 2, 3, 4, 5],
        device_group_ids: [],
        handler_id: 1,
        reviewer_id: 1,
        priority: 4,
        deadline_hours: 1,
        require_recovered: false,
        handler_on_duty: true,
      };
      expect(await ok('PUT', 'work_order_set/1', rule)).toMatchObject({ handler_on_duty: true });
      raise(alarm.status_id);
      await t.sitewatch.settled();
      const orders = await ok('GET', `work_order/of_alarms?alarm_ids=${alarm.status_id},999999`);
      expect(orders).toMatchObject([{ alarm_id: alarm.status_id, number: expect.stringMatching(/^WO\d{6}$/) }]);
      const order = await ok('GET', `work_order_info?id=${orders[0].id}`);
      expect(order).toMatchObject({ dispatch: 'auto', handler_id: yi, on_duty: '乙', alarm_id: alarm.status_id });
      // The alarm list opens that one alarm by id (the order's link back).
      const one = await ok('GET', `review?scope=all&status_id=${alarm.status_id}`);
      expect(one.total).toBe(1);
      expect(one.data[0].status_id).toBe(alarm.status_id);
      expect((await call('GET', 'work_order/of_alarms?alarm_ids=1,x')).status).toBe(400);
      // The one on duty is no enabled user: the rule's own handler gets it, 乙 is still recorded.
      await t.database.db.kysely.updateTable('users').set({ enable: 0 }).where('id', '=', yi).execute();
      raise(999_001);
      await t.sitewatch.settled();
      const [made] = await ok('GET', 'work_order/of_alarms?alarm_ids=999001');
      const fallback = await ok('GET', `work_order_info?id=${made.id}`);
      expect(fallback).toMatchObject({ handler_id: 1, on_duty: '乙' });
      await ok('PUT', 'work_order_set/1', { ...rule, enable: false });
    } finally {
      for (const remove of removers) remove();
    }
  });
});
