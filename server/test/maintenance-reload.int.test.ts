import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createFirstAdmin, encryptFor, publicKeyOf } from './helpers/login.ts';

/**
 * A restore reloads what the server keeps in memory (docs/maintenance.md, "Restore" 4): cached
 * settings (global config, alarm settings, the duty setting) and the alarm engine's open alarms
 * answer the restored state at once, without a restart. Each area says what it re-reads in its own
 * declaration (`reload`); the maintenance area knows none of them.
 */
describeEachDatabase('a restore reloads cached state', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-reload-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const t = useManualTestApp(dialect, { dataDir, logLevel: 'error' }, new Date(2026, 0, 10, 12).getTime());
  const headers = { authorization: 'Bearer admin-token' };
  let password = '';
  let key = '';
  beforeAll(async () => {
    password = await createFirstAdmin(t.database.db);
    key = await publicKeyOf(t.app);
    await t.sitewatch.start();
  });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url: `/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data;
  };
  const openAlarms = async () =>
    (await t.database.db.kysely.selectFrom('alarms').select('id').where('end_time', 'is', null).execute()).length;
  const settingsNow = async () => ({
    gc: await call('GET', 'setting/gc?k=ACCOUNT_SAFE'),
    commons: (await call('GET', 'setting/alarm_commons')).jitter_start,
    duty: (await call('GET', 'on_duty_handover/setting?t=1')).handover_enable,
  });
  const setSettings = async (period: number, jitterStart: number, handover: boolean) => {
    await call('POST', 'setting/gc', {
      k: 'ACCOUNT_SAFE',
      v: { acc_logout_config: { enabled: true, opt_period: period } },
    });
    const commons = await call('GET', 'setting/alarm_commons');
    await call('PUT', 'setting/alarm_commons', { ...commons, jitter_start: jitterStart });
    await call('PUT', 'on_duty_handover/setting', { handover_enable: handover, t: 1 });
  };

  it('answers the restored settings and open alarms without a restart', async () => {
    const { alarms } = t.sitewatch;
    const site = await call('POST', 'setting/device_groups', { name: 'Room R', weight: 1 });
    const device = await call('POST', 'setting/devices', {
      name: 'TH-R',
      device_group_id: site.id,
      driver: 'simulator',
      code: 'temp_hum',
    });
    const item = await call('POST', 'setting/items', {
      device_id: device.id,
      name: 'Temperature R',
      value_type: 1,
      threshold_min: 10,
      threshold_max: 30,
      overrun_point: 0,
      recovery_point: 0,
      source: { kind: 'simulator', model: 'analog', base: 20 },
    });
    await t.sitewatch.settled();
    const sample = async (value: number) => {
      alarms.onSample(item.id, value, t.clock.now());
      await t.clock.advance(1_000);
      await alarms.flush();
    };

    // State A, backed up: an alarm open and the first settings.
    await sample(50);
    expect(await openAlarms()).toBe(1);
    await setSettings(15, 60, true);
    const before = await settingsNow();
    const made = await call('POST', 'setting/maintain/mysql/backup', {});

    // State B: the alarm recovered and every setting changed (each store caches B).
    await sample(20);
    expect(await openAlarms()).toBe(0);
    await setSettings(45, 70, false);
    expect(await settingsNow()).not.toEqual(before);

    await call('POST', 'setting/maintain/mysql/restore', {
      filename: made.filename,
      verify_password: encryptFor(key, password),
    });
    // The caches answer A at once.
    expect(await settingsNow()).toEqual(before);
    // The engine holds the restored open alarm again: a normal value recovers it (an engine that
    // kept B's memory would think the item normal already and leave the alarm open for ever).
    expect(await openAlarms()).toBe(1);
    await sample(20);
    expect(await openAlarms()).toBe(0);
    // And a new alarm takes an id past the restored ones.
    await sample(50);
    const ids = (await t.database.db.kysely.selectFrom('alarms').select('id').execute()).map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await openAlarms()).toBe(1);
  });
});
