import { afterAll, beforeAll } from 'vitest';
import { createManualClock, type ManualClock } from '../../src/clock/manual.ts';
import type { Db } from '../../src/db/kysely.ts';
import { createAuthRepository, newUserDefaults } from '../../src/modules/auth/repository.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

export interface ServiceKit {
  /** A migrated SQLite database of the suite's own (the service's real repository runs on it). */
  db: Db;
  /** The service's clock: the test moves it (docs/testing.md, "The test clock"). */
  clock: ManualClock;
}

/**
 * What a service test needs besides its service: a real SQLite database, made before the suite and
 * removed after, and a manual clock starting at `startMs` (epoch ms).
 */
export const useServiceKit = (startMs?: number): ServiceKit => {
  const kit = { clock: createManualClock(startMs) } as ServiceKit;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    kit.db = database.db;
  });
  afterAll(async () => {
    await database?.destroy();
  });
  return kit;
};

/** A user row as the services read it (id, names, e-mail, enabled); it has no password to sign in with. */
export const insertUser = (db: Db, userName: string, over: { email?: string; enable?: number } = {}) =>
  createAuthRepository(db).insertUser({
    ...newUserDefaults(0),
    user_name: userName,
    alias: userName,
    password_hash: 'not-a-hash',
    must_change_password: 0,
    ...over,
  });
