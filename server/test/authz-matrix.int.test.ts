import { beforeAll, expect, it } from 'vitest';
import type { RouteRecord } from '../src/app.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { createUser } from './helpers/login.ts';

/**
 * The authorization matrix (issue 11): every write route the app registers, read from what
 * `addRoute` records, is called by a user with no grant, by a user with every page but no function,
 * and by the administrator. The first two are refused with 403 and change nothing; the administrator
 * passes the grant check (a made-up body may still be a 400 or 404). Writes that any signed-in user
 * may make are listed below with the reason; a new write route in neither place fails the test. Site
 * grants on writes are tried row by row in scoped-writes.int.test.ts.
 */
const selfService: Record<string, string> = {
  'POST /api/v1/pub/login/exit': 'ends the caller’s own session',
  'PUT /api/v1/user/password': 'the caller’s own password, with the old one, inside the brute-force budget',
  'POST /api/v1/menus/language': 'the caller’s own interface language',
  'DELETE /api/v1/user/device_tokens/:id':
    'the caller’s own auto-login browsers (another user’s only for the administrator, checked inside)',
  'POST /api/v1/user/api_tokens':
    'the caller’s own API token, from a session only; it acts with the caller’s grants, never more (docs/api.md)',
  'DELETE /api/v1/user/api_tokens/:id':
    'revokes the caller’s own API token (another user’s only for the administrator, checked inside)',
  'POST /api/v1/setting/devices/data_history': 'a read sent as POST: history of the caller’s own sites only',
  'POST /api/v1/setting/items/data_history': 'a read sent as POST: history of the caller’s own sites only',
  'POST /api/v1/energy/device_groups_device': 'a read sent as POST: the meters of the caller’s own sites only',
};

const writesOf = (routes: readonly RouteRecord[]) =>
  routes
    .map(({ method, url, requirement }) => ({ key: `${method} ${url}`, method, url, requirement }))
    .filter((r) => r.method !== 'GET' && r.method !== 'HEAD' && r.requirement !== 'public');

describeEachDatabase('authorization matrix of every write route', (dialect) => {
  const t = useTestApp(dialect);
  const writes = () => writesOf(t.sitewatch.routes);
  beforeAll(async () => {
    const k = t.database.db.kysely;
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    await k.insertInto('roles').values({ id: 81, name: 'no grant', remark: '', created_at: 0 }).execute();
    await k.insertInto('roles').values({ id: 82, name: 'pages only', remark: '', created_at: 0 }).execute();
    for (const m of await k.selectFrom('menus').select('id').execute())
      await k.insertInto('role_menus').values({ role_id: 82, menu_id: m.id }).execute();
    const none = await createUser(t.database.db, 'no-grant', 'Some-Pass-123', [81]);
    const pages = await createUser(t.database.db, 'pages-only', 'Some-Pass-123', [82]);
    fakeTokens['none-token'] = { user_id: none, user_name: 'no-grant', session_id: 8100 };
    fakeTokens['pages-token'] = { user_id: pages, user_name: 'pages-only', session_id: 8200 };
  });

  const call = (method: string, url: string, token: string) =>
    t.app.inject({
      method: method as 'POST',
      url: url.replace(/:(\w+)/g, '999999'),
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });

  it('every write route is either guarded by a page, a function or the administrator, or listed as self-service', () => {
    const unguarded = writes()
      .filter((r) => r.requirement === null && !(r.key in selfService))
      .map((r) => r.key);
    expect(unguarded).toEqual([]);
    // The list names only routes that exist.
    expect(Object.keys(selfService).filter((key) => !writes().some((w) => w.key === key))).toEqual([]);
    expect(writes().length).toBeGreaterThan(50);
  });

  it('a user without the grant is refused every guarded write with nothing changed; the administrator passes', async () => {
    const refusedWrongly: string[] = [];
    const changed: string[] = [];
    const refusals = writes().flatMap(({ key, method, url, requirement }) => {
      if (requirement === null) return [];
      // No grant at all; every page but no function (a route that needs only its page passes it).
      const needsMore = requirement === 'admin' || (typeof requirement === 'object' && requirement.func !== undefined);
      return ['none-token', ...(needsMore ? ['pages-token'] : [])].map((token) => ({ key, method, url, token }));
    });
    // Every refusal first, between two digests of the whole database (a digest of every table is
    // most of this test's time); only when they differ is each refusal tried again between two, to
    // name the route that wrote.
    const refuseAll = async (digestEach: boolean) => {
      for (const { key, method, url, token } of refusals) {
        const before = digestEach ? await snapshotDigest(t.database.db) : '';
        const res = await call(method, url, token);
        if (!digestEach && res.statusCode !== 403) refusedWrongly.push(`${key} as ${token}: ${res.statusCode}`);
        if (digestEach && (await snapshotDigest(t.database.db)) !== before) changed.push(`${key} as ${token}`);
      }
    };
    const before = await snapshotDigest(t.database.db);
    await refuseAll(false);
    if ((await snapshotDigest(t.database.db)) !== before) {
      await refuseAll(true);
      if (changed.length === 0) changed.push('the refusals changed the database, none of them when tried again alone');
    }
    for (const { key, method, url, requirement } of writes()) {
      if (requirement === null) continue;
      const admin = await call(method, url, 'admin-token');
      if (admin.statusCode === 401 || admin.statusCode === 403)
        refusedWrongly.push(`${key} as admin: ${admin.statusCode}`);
    }
    const checked = refusals.length;
    console.log(`authz matrix [${dialect}]: ${writes().length} write routes, ${checked} refusals checked`);
    expect(refusedWrongly).toEqual([]);
    expect(changed).toEqual([]);
  });
});
