import type { AlarmRow } from '@sitewatch/contract/alarms';
import { expect, it } from 'vitest';
import { createSitewatch } from '../src/app.ts';
import { fakeAuthenticator, testLoginKey, useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

/**
 * Alarms of other areas (docs/alarms.md): an area raises and recovers its own alarm by a source
 * name; it is an alarm like the engine's (row, log, push, confirmation), one per source while open,
 * and a restarted server finds it again by its source so the recovery closes it.
 */
describeEachDatabase('alarms other areas raise by their source', (dialect) => {
  const t = useManualTestApp(dialect);
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const camera = (site: number) => ({
    source: 'video:7',
    kind: 'communication' as const,
    site_id: site,
    device_name: '门口摄像机',
    item_name: '',
    level: 2,
    info: 'Connection refused',
  });

  it('raises once while open, is listed, confirmed and disabled alone, and recovers', async () => {
    const site = (await call('POST', 'setting/device_groups', { name: '机房S', weight: 1 })).body.data.id as number;
    const raised: AlarmRow[] = [];
    const recovered: AlarmRow[] = [];
    t.sitewatch.bus.subscribe('alarm.raised', ({ alarm }) => void raised.push(alarm));
    t.sitewatch.bus.subscribe('alarm.recovered', ({ alarm }) => void recovered.push(alarm));
    await t.sitewatch.start();
    t.sitewatch.alarms.raiseSource(camera(site));
    t.sitewatch.alarms.raiseSource({ ...camera(site), info: 'again' });
    await t.sitewatch.settled();
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      device_group_id: site,
      device_group_name: '机房S',
      device_name: '门口摄像机',
      kind: 'communication',
      level: 2,
      info: 'Connection refused',
    });
    const listed = (await call('GET', 'review')).body.data.data as AlarmRow[];
    const row = listed.find((a) => a.status_id === raised[0]!.status_id);
    expect(row?.device_name).toBe('门口摄像机');
    expect(await t.sitewatch.alarms.openSources('video:')).toEqual(['video:7']);

    // Disabling it disables that alarm alone: no device or item of the engine's is disabled.
    const op = (alarm_action: number) =>
      call('POST', 'warning_operation', {
        alarm_action,
        remarks: '检修中',
        item_id: 0,
        status_id: raised[0]!.status_id,
      });
    expect((await op(2)).status).toBe(200);
    const disabled = await t.database.db.kysely.selectFrom('alarm_disabled').selectAll().execute();
    expect(disabled).toEqual([]);
    expect((await op(3)).status).toBe(200);
    expect((await op(0)).body.data).toMatchObject({ handling: 1, confirmed_by: 'admin' });

    t.sitewatch.alarms.recoverSource('video:7');
    t.sitewatch.alarms.recoverSource('video:7');
    await t.sitewatch.settled();
    expect(recovered.map((a) => a.status_id)).toEqual([raised[0]!.status_id]);
    const stored = await t.database.db.kysely
      .selectFrom('alarms')
      .select(['end_time', 'source'])
      .where('id', '=', raised[0]!.status_id)
      .executeTakeFirstOrThrow();
    expect(stored.source).toBe('video:7');
    expect(stored.end_time).not.toBeNull();
    expect(await t.sitewatch.alarms.openSources('video:')).toEqual([]);
  });

  it('with a hold-off, a source back in time raises nothing; one still down raises when it ends', async () => {
    const site = (await call('POST', 'setting/device_groups', { name: '机房H', weight: 1 })).body.data.id as number;
    const raised: AlarmRow[] = [];
    t.sitewatch.bus.subscribe('alarm.raised', ({ alarm }) => void raised.push(alarm));
    await t.sitewatch.start();
    const flapping = { ...camera(site), holdMs: 30_000 };
    // Down and back three times within the hold-off: no alarm.
    for (let i = 0; i < 3; i++) {
      t.sitewatch.alarms.raiseSource(flapping);
      await t.clock.advance(20_000);
      t.sitewatch.alarms.recoverSource('video:7');
      await t.clock.advance(5_000);
    }
    expect(raised).toEqual([]);
    // Down for good: told again at every check, raised once, when the hold-off of the first ends.
    t.sitewatch.alarms.raiseSource(flapping);
    await t.clock.advance(29_000);
    t.sitewatch.alarms.raiseSource(flapping);
    expect(raised).toEqual([]);
    await t.clock.advance(1_000);
    expect(raised.map((a) => a.device_name)).toEqual(['门口摄像机']);
    await t.clock.advance(60_000);
    expect(raised).toHaveLength(1);
    expect(await t.sitewatch.alarms.openSources('video:')).toEqual(['video:7']);
  });

  it('a restarted server finds the open alarm by its source: recovering it closes that alarm', async () => {
    const site = (await call('POST', 'setting/device_groups', { name: '机房T', weight: 1 })).body.data.id as number;
    t.sitewatch.alarms.raiseSource({ ...camera(site), source: 'door-access:controller:3' });
    await t.sitewatch.settled();
    const open = await t.database.db.kysely
      .selectFrom('alarms')
      .select('id')
      .where('source', '=', 'door-access:controller:3')
      .where('end_time', 'is', null)
      .execute();
    expect(open).toHaveLength(1);
    const second = await createSitewatch({
      db: t.database.db,
      authenticator: fakeAuthenticator,
      loginKey: testLoginKey,
      logLevel: 'silent',
    });
    try {
      const recovered: number[] = [];
      second.bus.subscribe('alarm.recovered', ({ alarm }) => void recovered.push(alarm.status_id));
      await second.alarms.start();
      expect(await second.alarms.openSources('door-access:')).toEqual(['door-access:controller:3']);
      // Raised again after the restart (the area still finds the controller silent): the same alarm.
      second.alarms.raiseSource({ ...camera(site), source: 'door-access:controller:3' });
      second.alarms.recoverSource('door-access:controller:3');
      await second.alarms.settled();
      expect(recovered).toEqual([open[0]!.id]);
    } finally {
      await second.app.close();
    }
  });
});
