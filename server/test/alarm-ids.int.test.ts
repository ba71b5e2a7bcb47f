import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSitewatch, type Sitewatch } from '../src/app.ts';
import type { Db } from '../src/db/kysely.ts';
import { fakeAuthenticator, testLoginKey } from './helpers/build-app.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

/**
 * Alarm ids come from the database (issue 27, Build 4; docs/alarms.md "Alarm ids"): two servers on
 * one database, each with its own connection as two processes would have, raise alarms at the same
 * time, more than a first block of ids each, and no id is given twice.
 */
describeEachDatabase('alarm ids from the database', (dialect) => {
  let database: TestDatabase;
  let second: Db;
  const servers: Sitewatch[] = [];
  const items: number[][] = [[], []];
  const raisedIds: number[][] = [[], []];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    second = database.connect();
    for (const db of [database.db, second]) {
      servers.push(
        await createSitewatch({ db, authenticator: fakeAuthenticator, loginKey: testLoginKey, logLevel: 'silent' }),
      );
    }
    const call = async (method: 'POST', url: string, payload: object) => {
      const res = await servers[0]!.app.inject({
        method,
        url: `/api/v1/${url}`,
        headers: { authorization: 'Bearer admin-token' },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const site = await call('POST', 'setting/device_groups', { name: '机房I', weight: 1 });
    const device = await call('POST', 'setting/devices', {
      name: 'TH-I',
      device_group_id: site.id,
      driver: 'simulator',
      code: 'temp_hum',
    });
    for (const [server, list] of items.entries()) {
      for (let i = 0; i < 10; i++) {
        const item = await call('POST', 'setting/items', {
          device_id: device.id,
          name: `温度${server}-${i}`,
          value_type: 1,
          threshold_min: 10,
          threshold_max: 30,
          overrun_point: 0,
          recovery_point: 0,
          source: { kind: 'simulator', model: 'analog', base: 20 },
        });
        list.push(item.id);
      }
    }
    for (const [n, s] of servers.entries()) {
      s.bus.subscribe('alarm.raised', ({ alarm }) => raisedIds[n]!.push(alarm.status_id));
      await s.alarms.start();
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.app.close();
    await second?.close();
    await database?.destroy();
  });

  it('two servers raising 1 500 alarms each at once never give the same id', async () => {
    const perServer = 1_500;
    const all = 2 * perServer;
    const announced = new Promise<void>((resolve) => {
      for (const s of servers)
        s.bus.subscribe('alarm.raised', () => {
          if (raisedIds[0]!.length + raisedIds[1]!.length === all) resolve();
        });
    });
    // Interleaved, synchronously: each raise and recovery of one item is an alarm of its own.
    const now = Date.now();
    for (let round = 0; round < perServer / 10; round++) {
      for (let i = 0; i < 10; i++) {
        for (const [n, s] of servers.entries()) s.alarms.onSample(items[n]![i]!, 40, now);
        for (const [n, s] of servers.entries()) s.alarms.onSample(items[n]![i]!, 20, now);
      }
    }
    // A first block holds 1 000 ids: the rest were raised while the next block was being reserved,
    // and are announced as it comes.
    await announced;
    const ids = [...raisedIds[0]!, ...raisedIds[1]!];
    expect(new Set(ids).size).toBe(all);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    for (const s of servers) await s.alarms.flush();
    const rows = await database.db.kysely
      .selectFrom('alarms')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('id').distinct().as('distinct')])
      .executeTakeFirstOrThrow();
    expect([Number(rows.n), Number(rows.distinct)]).toEqual([all, all]);
    // Every alarm has its log rows under its own id: a raise and a recovery each.
    const logs = await database.db.kysely
      .selectFrom('alarm_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', 'in', ['raise', 'recover'])
      .executeTakeFirstOrThrow();
    expect(Number(logs.n)).toBe(2 * all);
  });

  it('a restarted server reserves past every id given, even rows written another way', async () => {
    const k = database.db.kysely;
    const max = Number(
      (
        await k
          .selectFrom('alarms')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirstOrThrow()
      ).m,
    );
    // An alarm row inserted by hand (an import) far beyond the counter.
    const row = await k.selectFrom('alarms').selectAll().where('id', '=', max).executeTakeFirstOrThrow();
    await k
      .insertInto('alarms')
      .values({ ...row, id: max + 100_000 })
      .execute();
    const third = await createSitewatch({
      db: database.db,
      authenticator: fakeAuthenticator,
      loginKey: testLoginKey,
      logLevel: 'silent',
    });
    try {
      const got: number[] = [];
      third.bus.subscribe('alarm.raised', ({ alarm }) => got.push(alarm.status_id));
      await third.alarms.start();
      third.alarms.onSample(items[0]![0]!, 40, Date.now());
      expect(got).toHaveLength(1);
      expect(got[0]).toBeGreaterThan(max + 100_000);
    } finally {
      await third.app.close();
    }
  });
});
