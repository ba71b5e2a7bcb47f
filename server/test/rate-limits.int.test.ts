import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSitewatch, type Sitewatch } from '../src/app.ts';
import type { Db } from '../src/db/kysely.ts';
import { testLoginKey } from './helpers/build-app.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

/**
 * A route's limit per address holds for the installation, not per process (issue 35, step 1;
 * docs/scale.md): on PostgreSQL two servers on one database share the count (http/rate-store.ts);
 * SQLite is one process, counted in memory as before.
 */
describeEachDatabase('rate limits', (dialect) => {
  let database: TestDatabase;
  let secondDb: Db | undefined;
  const servers: Sitewatch[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    if (dialect === 'postgres') secondDb = database.connect();
    for (const db of [database.db, ...(secondDb ? [secondDb] : [])])
      servers.push(
        await createSitewatch({
          db,
          loginKey: testLoginKey,
          logLevel: 'silent',
          loginRateLimit: { max: 4, timeWindow: 60_000 },
        }),
      );
  });
  afterAll(async () => {
    for (const s of servers) await s.app.close();
    await secondDb?.close();
    await database?.destroy();
  });

  // A sign-in without a body: refused by validation (400) until the address is past the limit.
  const login = (s: Sitewatch, remoteAddress: string) =>
    s.app.inject({ method: 'POST', url: '/api/v1/pub/login/safe', payload: {}, remoteAddress });

  it('counts an address over every server, and each address on its own', async () => {
    const codes: number[] = [];
    // Alternating between the servers (one on SQLite): the fifth request is refused wherever it lands.
    for (let i = 0; i < 6; i++) codes.push((await login(servers[i % servers.length]!, '198.51.100.7')).statusCode);
    expect(codes).toEqual([400, 400, 400, 400, 429, 429]);
    const refused = await login(servers.at(-1)!, '198.51.100.7');
    expect(refused.json()).toMatchObject({ code: 42900, message: '请求过于频繁，请稍后重试！' });
    expect((await login(servers[0]!, '198.51.100.8')).statusCode).toBe(400);
    if (dialect === 'postgres') {
      const { rows } = await sql<{ key: string; hits: number }>`select key, hits from rate_limits order by key`.execute(
        database.db.kysely,
      );
      expect(rows).toEqual([
        { key: 'POST/api/v1/pub/login/safe-198.51.100.7', hits: 7 },
        { key: 'POST/api/v1/pub/login/safe-198.51.100.8', hits: 1 },
      ]);
    }
  });

  it.skipIf(dialect !== 'postgres')('starts a new window once the last has ended', async () => {
    // The window of .7 ended a minute ago (by the database's clock, as every server reads it).
    await sql`update rate_limits set window_start = window_start - 61000`.execute(database.db.kysely);
    expect((await login(servers[1]!, '198.51.100.7')).statusCode).toBe(400);
  });
});
