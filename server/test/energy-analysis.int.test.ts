import { exportReports } from '@sitewatch/contract/energy';
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { zoneClock } from '../src/modules/energy/tariff.ts';
import { createSeriesStore } from '../src/series/store.ts';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { addDeviceItems, addSite, realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { createUser, loginHeader } from './helpers/login.ts';

const h = 3600;
// The server cuts days on its own clock: the test's days are local days of that same zone.
const clock = zoneClock(process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone);
const localMidnight = (y: number, m: number, d: number) => {
  const utc = Date.UTC(y, m - 1, d) / 1000;
  return utc - clock.offsetMinutes(utc) * 60;
};
const jan10 = localMidnight(2026, 1, 10);
const jan9 = localMidnight(2026, 1, 9);
const jan10LastYear = localMidnight(2025, 1, 10);

/**
 * The analysis routes of 002 §7.6 on both databases (docs/energy.md): the trend with month-on-month
 * and year-on-year (energy/analysis), load (energy/load), the latest active power
 * (energy/get_active_power), consumption per time-share period
 * (energy_analysis/time_sharing_statistics), device_groups/pue_menu, setting/electricity_statistics
 * and the xlsx export; bad input answers 4xx with its message, a user without the site sees nothing.
 */
describeEachDatabase('energy: trend, load, active power, time-share periods, PUE menu, export', (dialect) => {
  const t = useTestApp(dialect, realLogin);

  it('answers the analyses of a site from its meters and refuses bad input', async () => {
    const { admin, call } = await signInFirstAdmin(t);
    const north = await addSite(call, 'North room');
    const south = await addSite(call, 'South room');
    const device = await addDeviceItems(call, north, { name: 'PM-north', code: 'power_meter', template_id: 4 });
    const [totalItem, itItem, coolingItem, lightItem, lossItem] = device.items as [
      number,
      number,
      number,
      number,
      number,
    ];
    const meter = async (name: string, item: number, kind: string, category: string) => {
      const res = await call('POST', 'setting/energy', admin, {
        name,
        item_id: item,
        kind,
        category,
        device_group_id: north,
        ...(category === 'it' ? { measure_point: 'pdu_output' } : {}),
      });
      expect(res.statusCode).toBe(200);
    };
    await meter('Incoming', totalItem, 'power', 'total');
    await meter('Racks', itItem, 'power', 'it');
    await meter('CRAC', coolingItem, 'power', 'cooling');
    await meter('Lights', lightItem, 'counter', 'lighting');
    await meter('UPS loss', lossItem, 'counter', 'ups_loss');

    // Power meters (kW items read every minute, so each hour is covered): 10 January 2026 the
    // incoming feed draws 30 kW (42 kW from 14:00 to 15:00), IT 20 kW, cooling 8 kW; on 9 January
    // the feed drew 25 kW and on 10 January 2025 24 kW.
    const store = createSeriesStore(t.database.db);
    for (let hr = 0; hr < 24; hr++)
      for (let m = 0; m < 60; m++) {
        const at = (day: number) => (day + hr * h + m * 60) * 1000;
        store.append(totalItem, at(jan10), hr === 14 ? 42 : 30);
        store.append(itItem, at(jan10), 20);
        store.append(coolingItem, at(jan10), 8);
        store.append(totalItem, at(jan9), 25);
        store.append(totalItem, at(jan10LastYear), 24);
      }
    // The last minutes: the feed at 31 kW, IT at 21 kW, the lights' counter 5 kWh in 15 minutes.
    const now = Math.floor(Date.now() / 1000);
    store.append(totalItem, (now - 600) * 1000, 31);
    store.append(totalItem, (now - 120) * 1000, 31);
    store.append(itItem, (now - 120) * 1000, 21);
    store.append(lightItem, (now - 1200) * 1000, 100);
    store.append(lightItem, (now - 300) * 1000, 105);
    // A counter read twice an hour ago: no two recent readings, its last whole hour's energy (6 kWh).
    const thisHour = now - (now % h);
    store.append(lossItem, (thisHour - 2 * h + 1800) * 1000, 200);
    store.append(lossItem, (thisHour - h + 1800) * 1000, 206);
    await store.flush();
    const day = `device_group_id=${north}&t1=${jan10}&t2=${jan10 + 24 * h - 1}`;

    const trend = (await call('GET', `energy/analysis?${day}&interval=day`)).json().data;
    expect(trend).toMatchObject({
      source: 'total_meters',
      total_kwh: 732,
      last_year_total_kwh: 576,
      yoy_percent: 27.083,
    });
    expect(trend.buckets).toEqual([
      {
        ts: jan10,
        kwh: 732,
        previous_kwh: 600,
        mom_percent: 22,
        last_year_kwh: 576,
        yoy_percent: 27.083,
        estimated: false,
      },
    ]);
    const itTrend = (await call('GET', `energy/analysis?${day}&interval=hour&category=it`)).json().data;
    expect(itTrend.source).toBe('category');
    expect(itTrend.buckets).toHaveLength(24);
    expect(itTrend.buckets[1]).toMatchObject({ kwh: 20, previous_kwh: 20, mom_percent: 0, yoy_percent: null });

    const load = (await call('GET', `energy/load?${day}&interval=day`)).json().data;
    expect(load).toMatchObject({ source: 'total_meters', avg_kw: 30.5, peak_kw: 42, peak_ts: jan10 + 14 * h });
    expect(load.buckets).toEqual([{ ts: jan10, avg_kw: 30.5, peak_kw: 42, peak_ts: jan10 + 14 * h, it_avg_kw: 20 }]);

    const power = (await call('GET', `energy/get_active_power?device_group_id=${north}`)).json().data;
    expect(
      power.meters.map((m: { name: string; kw: number | null; source: string }) => [m.name, m.kw, m.source]),
    ).toEqual([
      ['Incoming', 31, 'power_item'],
      ['Racks', 21, 'power_item'],
      ['CRAC', null, 'power_item'],
      ['Lights', 20, 'counter'],
      ['UPS loss', 6, 'hour_energy'],
    ]);
    expect(power.meters[4].ts).toBe(thisHour);
    expect(power).toMatchObject({ total_kw: 31, it_kw: 21, cooling_kw: 0 });

    // A time-share tariff in force: the day's 732 kWh by period (the 10:00 hour half flat, half peak).
    const tariff = await call('POST', 'time_sharing_system', admin, {
      name: 'TS',
      slots: [
        { start: '00:00', end: '08:00', band: 'valley', price: 0.3 },
        { start: '08:00', end: '10:30', band: 'flat', price: 0.6 },
        { start: '10:30', end: '14:00', band: 'peak', price: 1 },
        { start: '14:00', end: '15:00', band: 'sharp', price: 1.5 },
        { start: '15:00', end: '23:00', band: 'peak', price: 1 },
        { start: '23:00', end: '24:00', band: 'flat', price: 0.6 },
      ],
    });
    expect(tariff.statusCode).toBe(200);
    await call('PUT', `energy_cost_set/${north}`, admin, { tariff_id: tariff.json().data.id, valid_from: 0 });
    const bands = (await call('GET', `energy_analysis/time_sharing_statistics?${day}&interval=day`)).json().data;
    expect(bands.total).toEqual({ sharp: 42, peak: 345, flat: 105, valley: 240, none: 0 });
    expect(bands.buckets).toEqual([{ ts: jan10, sharp: 42, peak: 345, flat: 105, valley: 240, none: 0 }]);
    expect(bands.percent.sharp).toBe(5.738);

    // The devices whose items are meters, by GET (one site or all) and by POST (several sites).
    const devices = (await call('GET', 'energy/energy_device')).json().data;
    expect(devices).toHaveLength(1);
    expect(devices[0]).toMatchObject({ device_id: device.id, device_name: 'PM-north', device_group_id: north });
    expect(devices[0].meters.map((m: { name: string; kind: string }) => [m.name, m.kind])).toEqual([
      ['Incoming', 'power'],
      ['Racks', 'power'],
      ['CRAC', 'power'],
      ['Lights', 'counter'],
      ['UPS loss', 'counter'],
    ]);
    const bySites = await call('POST', 'energy/device_groups_device', admin, { device_group_ids: [north, south] });
    expect(bySites.json().data).toEqual(devices);
    expect((await call('GET', `energy/energy_device?device_group_id=${south}`)).json().data).toEqual([]);
    const noSites = await call('POST', 'energy/device_groups_device', admin, { device_group_ids: [] });
    expect(noSites.statusCode).toBe(400);
    expect(noSites.json().message).toContain('请选择站点');

    const menu = (await call('GET', 'device_groups/pue_menu')).json().data;
    expect(menu).toEqual([{ id: north, name: 'North room', parent_id: 0, meter_count: 5, category: 2, children: [] }]);
    const stats = (await call('GET', 'setting/electricity_statistics')).json().data;
    expect(stats).toHaveLength(1);
    expect(stats[0]).toMatchObject({ device_group_id: north, name: 'North room', meters: 5, tariff_name: 'TS' });
    expect(stats[0].month_kwh).toBeGreaterThan(0);

    // The export: the trend as a workbook, headers in the caller's language.
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/v1/energy/export?report=analysis&${day}&interval=day`,
      headers: { ...admin, 'accept-language': 'en_us' },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Time',
      'Energy (kWh)',
      'Previous period (kWh)',
      'Period-on-period (%)',
      'Same period last year (kWh)',
      'Year-on-year (%)',
    ]);
    expect((sheet.getRow(2).values as unknown[]).slice(2)).toEqual([732, 600, 22, 576, 27.083]);
    // Every report exports: its sheet has the header row and a row per answer line.
    for (const report of exportReports) {
      const res = await call('GET', `energy/export?report=${report}&${day}&interval=day`);
      expect(res.statusCode, report).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      expect(wb.worksheets[0]!.rowCount, report).toBeGreaterThan(1);
    }

    // Bad input: 4xx with the message, in zh_cn word for word.
    const backwards = await call('GET', `energy/analysis?device_group_id=${north}&t1=${jan10}&t2=${jan9}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain('结束时间不能早于开始时间');
    const tooLong = await call('GET', `energy/load?t1=0&t2=${4 * 366 * 86_400}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('时间范围不能超过三年');
    expect((await call('GET', `energy/analysis?${day}&category=nuclear`)).statusCode).toBe(400);
    expect((await call('GET', `energy/export?${day}&report=everything`)).statusCode).toBe(400);
    expect((await call('GET', 'energy_analysis/time_sharing_statistics?t1=x&t2=1')).statusCode).toBe(400);
    expect((await call('GET', 'energy/get_active_power?device_group_id=0')).statusCode).toBe(400);
    expect((await call('GET', 'energy/energy_device?device_group_id=abc')).statusCode).toBe(400);
    expect((await call('GET', 'device_groups/pue_menu?depth=2')).statusCode).toBe(400);
    expect((await call('GET', 'setting/electricity_statistics?month=1')).statusCode).toBe(400);

    // A user of the south room only sees none of the north room's energy.
    await t.database.db.kysely
      .insertInto('roles')
      .values({ id: 8, name: 'south only', remark: '', created_at: 0 })
      .execute();
    await t.database.db.kysely.insertInto('role_sites').values({ role_id: 8, site_id: south }).execute();
    await createUser(t.database.db, 'southman', 'South-Pass-123', [8]);
    const southman = await loginHeader(t.app, 'southman', 'South-Pass-123');
    const seen = (await call('GET', `energy/analysis?${day}&interval=day`, southman)).json().data;
    expect(seen).toMatchObject({ buckets: [], total_kwh: 0 });
    expect((await call('GET', `energy/load?${day}`, southman)).json().data.buckets).toEqual([]);
    expect((await call('GET', `energy_analysis/time_sharing_statistics?${day}`, southman)).json().data.buckets).toEqual(
      [],
    );
    expect(
      (await call('GET', `energy/get_active_power?device_group_id=${north}`, southman)).json().data.meters,
    ).toEqual([]);
    expect((await call('GET', 'device_groups/pue_menu', southman)).json().data).toEqual([]);
    expect((await call('GET', 'energy/energy_device', southman)).json().data).toEqual([]);
    expect(
      (await call('POST', 'energy/device_groups_device', southman, { device_group_ids: [north] })).json().data,
    ).toEqual([]);
    expect((await call('GET', 'setting/electricity_statistics', southman)).json().data).toEqual([]);
    const theirs = await call('GET', `energy/export?report=ranking&${day}`, southman);
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load(theirs.rawPayload as unknown as ArrayBuffer);
    expect(empty.worksheets[0]!.rowCount).toBe(1);
  });
});
