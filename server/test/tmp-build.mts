import { createSitewatch } from '../src/app.ts';
import { createTestDatabase } from './helpers/databases.ts';
import { fakeAuthenticator, testLoginKey } from './helpers/build-app.ts';
const times: number[] = [];
for (let i = 0; i < 12; i++) {
  const database = await createTestDatabase('sqlite');
  const t = performance.now();
  const s = await createSitewatch({ db: database.db, loginKey: testLoginKey, authenticator: fakeAuthenticator, logLevel: 'silent' } as never);
  await s.app.ready();
  times.push(performance.now() - t);
  await s.app.close();
  await database.destroy();
}
console.log(times.map((t) => t.toFixed(0)).join(' '));
