import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type AppDeps, createSitewatch, type Sitewatch } from '../../src/app.ts';
import { createManualClock, type ManualClock } from '../../src/clock/manual.ts';
import type { Dialect } from '../../src/db/kysely.ts';
import type { Authenticator, Principal } from '../../src/http/auth.ts';
import { createLoginKey, generateLoginKeyPem } from '../../src/modules/auth/index.ts';
import { createPushHub, type PushHub } from '../../src/push/hub.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { testLicenceKeys } from './licence-keys.ts';

export interface TestApp {
  app: FastifyInstance;
  /** The engines and the bus beside the app (the alarm engine, the collector when given drivers). */
  sitewatch: Sitewatch;
  database: TestDatabase;
  push: PushHub;
}

/** Tokens that the fake authenticator accepts, for suites that do not exercise sign-in. */
export const fakeTokens: Record<string, Principal> = {
  'admin-token': { user_id: 1, user_name: 'admin', session_id: 1 },
};
export const fakeAuthenticator: Authenticator = {
  authenticate: async (token) => {
    const principal = fakeTokens[token];
    return principal ? { principal } : { reason: 'unknown' };
  },
};

/** One login key for the whole test process (RSA key generation takes a moment). */
export const testLoginKey = createLoginKey(generateLoginKeyPem());

/**
 * Builds the app on a fresh database of `dialect` before the suite and closes it after. `overrides`
 * may be made from the database (e.g. a series store on it).
 */
export const useTestApp = (
  dialect: Dialect,
  overrides: Partial<AppDeps> | ((database: TestDatabase) => Partial<AppDeps>) = {},
  extraRoutes?: (app: FastifyInstance) => void,
): TestApp => {
  const state = {} as TestApp;
  // A data dir of its own: the app's default is the working directory, where a first start's files
  // (the initial administrator password) would land in the repository.
  let dataDir = '';
  beforeAll(async () => {
    state.database = await createTestDatabase(dialect);
    state.push = createPushHub();
    dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-app-'));
    state.sitewatch = await createSitewatch({
      db: state.database.db,
      dataDir,
      push: state.push,
      authenticator: fakeAuthenticator,
      loginKey: testLoginKey,
      logLevel: 'silent',
      // A trial that outlasts any clock a suite moves (auth.int moves it a month): only the licence
      // suite, which sets its own, is about the trial's end.
      licence: { publicKey: testLicenceKeys.publicKey, trialDays: 36_500 },
      ...(typeof overrides === 'function' ? overrides(state.database) : overrides),
    });
    state.app = state.sitewatch.app;
    extraRoutes?.(state.app);
    await state.app.ready();
  });
  afterAll(async () => {
    await state.app?.close();
    await state.database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return state;
};

export interface ManualTestApp extends TestApp {
  /** The app's clock: `advance(ms)` runs its timers at once, settling the app after each. */
  clock: ManualClock;
}

/**
 * `useTestApp` on a manual clock of its own (docs/testing.md, "The test clock"): every timer of the
 * app (alarm flush and ticks, notices and retries, schedules, polls, live rounds) runs only when the
 * test advances the clock, and `t.sitewatch.settled()` waits for what they started. `startMs` is
 * the clock's first reading (epoch ms).
 */
export const useManualTestApp = (
  dialect: Dialect,
  overrides: Partial<AppDeps> = {},
  startMs?: number,
  extraRoutes?: (app: FastifyInstance) => void,
): ManualTestApp => {
  const clock = createManualClock(startMs);
  const state = useTestApp(
    dialect,
    { clock: clock.now, timers: clock.timers, ...overrides },
    extraRoutes,
  ) as ManualTestApp;
  state.clock = clock;
  beforeAll(() => {
    clock.settleWith((between) => state.sitewatch.settled(between));
  });
  return state;
};
