import { defaultLoginSafe } from '@sitewatch/contract/auth';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { restoreCaptchaAfterTestMode } from '../src/modules/global-config/index.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from './helpers/databases.ts';

describeEachDatabase('a database a test run used, started in production', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.destroy());
  const loginSafe = async () =>
    JSON.parse(
      (
        await database.db.kysely
          .selectFrom('global_config')
          .select('v')
          .where('k', '=', 'LOGIN_SAFE')
          .executeTakeFirstOrThrow()
      ).v,
    );

  it('gets the captcha a test run switched off back on, once; an administrator may turn it off again', async () => {
    const k = database.db.kysely;
    expect(await restoreCaptchaAfterTestMode(database.db, 'test', 1)).toBe(false);
    // What the journeys store: the captcha off.
    await k
      .insertInto('global_config')
      .values({ k: 'LOGIN_SAFE', v: JSON.stringify({ ...defaultLoginSafe, captcha_enabled: false }), updated_at: 1 })
      .execute();
    expect(await restoreCaptchaAfterTestMode(database.db, 'production', 2)).toBe(true);
    expect((await loginSafe()).captcha_enabled).toBe(true);
    expect((await loginSafe()).single_terminal).toBe(defaultLoginSafe.single_terminal);
    // Turned off again in production, on purpose: it stays off.
    await k
      .updateTable('global_config')
      .set({ v: JSON.stringify({ ...defaultLoginSafe, captcha_enabled: false }) })
      .where('k', '=', 'LOGIN_SAFE')
      .execute();
    expect(await restoreCaptchaAfterTestMode(database.db, 'production', 3)).toBe(false);
    expect((await loginSafe()).captcha_enabled).toBe(false);
  });
});
