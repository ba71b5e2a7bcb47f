import { expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { snapshotDigest } from './helpers/db-snapshot.ts';
import { type Headers, realLogin, signInFirstAdmin } from './helpers/estate.ts';
import { createUser, loginHeader } from './helpers/login.ts';

interface Node {
  id: number;
  name: string;
  url: string;
  target: string;
  weight: number;
  children: Node[];
}
const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

const entry = (patch: Record<string, unknown> = {}) => ({
  name: 'Asset ledger',
  icon: 'link',
  parent_id: 0,
  url: 'http://127.0.0.1:9/ledger',
  target: '_self',
  display: true,
  enable: true,
  weight: 5,
  ...patch,
});

/**
 * Custom menus (issue 31 item 4; docs/custom-menus.md): setting/menus POST, PUT {id}, DELETE; what
 * GET menus answers after them; grants over custom entries; the /external_link check; the asset link.
 */
describeEachDatabase('custom menus (002 §2.3, §3, §7.1)', (dialect) => {
  const t = useTestApp(dialect, realLogin);
  let admin: Headers = {};
  let call: Awaited<ReturnType<typeof signInFirstAdmin>>['call'];
  const menus = async (headers: Headers) => flat((await call('GET', 'menus', headers)).json().data.list as Node[]);
  const ok = async (res: { json(): { code: number; data: unknown }; body: string }) => {
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data as { id: number } & Record<string, unknown>;
  };

  it('refuses bad input with its messages (en_us and zh_cn) and changes nothing', async () => {
    ({ admin, call } = await signInFirstAdmin(t));
    const before = await snapshotDigest(t.database.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'Name cannot be empty', '名称不能为空'],
      [{ name: '   ' }, 'Name cannot be empty', '名称不能为空'],
      [{ weight: 0 }, 'positive integer', '排序号必须为正整数，且不能以0开头'],
      [{ weight: '012' }, 'positive integer', '排序号必须为正整数，且不能以0开头'],
      [{ url: 'javascript:alert(1)' }, 'http or https', '链接地址只能是http或https地址，或以/static/开头的路径'],
      [{ url: 'data:text/html,hi' }, 'http or https', '链接地址只能是http或https地址'],
      [{ url: 'ftp://host/x' }, 'http or https', '链接地址只能是http或https地址'],
      [{ url: 'http://user:pw@host/x' }, 'http or https', '链接地址只能是http或https地址'],
      [{ url: '/static/../etc/passwd' }, 'http or https', '链接地址只能是http或https地址'],
      [{ url: '/setting_users' }, 'http or https', '链接地址只能是http或https地址'],
      [{ icon: '<b>' }, 'icon name', '图标名称只能包含小写字母、数字和连字符'],
      [{ parent_id: 101 }, 'existing menu group', '上级菜单不存在或不是菜单组'],
      [{ parent_id: 99_999 }, 'existing menu group', '上级菜单不存在或不是菜单组'],
      [{ target: 'top' }, '', ''],
    ];
    for (const [patch, en, zh] of cases) {
      const english = await t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/menus',
        headers: { ...admin, 'accept-language': 'en_us' },
        payload: entry(patch),
      });
      expect(english.statusCode, JSON.stringify(patch)).toBe(400);
      expect(english.json().message).toContain(en);
      const chinese = await t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/menus',
        headers: { ...admin, 'accept-language': 'zh_cn' },
        payload: entry(patch),
      });
      expect(chinese.json().message).toContain(zh);
    }
    expect(await snapshotDigest(t.database.db)).toBe(before);
  });

  it('adds, orders, hides and disables entries, and GET menus follows', async () => {
    const main = await ok(await call('POST', 'setting/menus', admin, entry({ weight: 950 })));
    expect(main.id).toBeGreaterThanOrEqual(100_000);
    const group = await ok(await call('POST', 'setting/menus', admin, entry({ name: 'Partner tools', url: '' })));
    const tab = await ok(
      await call(
        'POST',
        'setting/menus',
        admin,
        entry({
          name: 'Vendor portal',
          url: 'https://portal.example.com/a?b=1',
          target: '_blank',
          parent_id: group.id,
        }),
      ),
    );
    expect(new Set([main.id, group.id, tab.id]).size).toBe(3);
    let seen = await menus(admin);
    const top = (await call('GET', 'menus')).json().data.list as Node[];
    // Weight 950 puts the entry above Monitoring (900).
    expect(top[0]).toMatchObject({
      id: main.id,
      name: 'Asset ledger',
      url: 'http://127.0.0.1:9/ledger',
      target: '_self',
    });
    expect(seen.find((n) => n.id === tab.id)).toMatchObject({
      target: '_blank',
      url: 'https://portal.example.com/a?b=1',
    });
    expect(seen.find((n) => n.id === group.id)?.children.map((c) => c.id)).toEqual([tab.id]);

    // Order: a lower weight moves it below the others.
    await ok(await call('PUT', `setting/menus/${main.id}`, admin, { weight: 1 }));
    const after = (await call('GET', 'menus')).json().data.list as Node[];
    expect(after.at(-1)?.id).toBe(main.id);
    // Hidden, disabled: gone from the menu (and the group with its only entry hidden).
    await ok(await call('PUT', `setting/menus/${main.id}`, admin, { display: false }));
    await ok(await call('PUT', `setting/menus/${tab.id}`, admin, { enable: false }));
    seen = await menus(admin);
    expect(seen.some((n) => n.id === main.id || n.id === tab.id || n.id === group.id)).toBe(false);
    await ok(await call('PUT', `setting/menus/${main.id}`, admin, { display: true }));
    await ok(await call('PUT', `setting/menus/${tab.id}`, admin, { enable: true }));
    expect((await menus(admin)).map((n) => n.id)).toEqual(expect.arrayContaining([main.id, group.id, tab.id]));

    // Built-in entries: hidden, disabled, reordered, with their ids; never renamed, moved or deleted.
    await ok(await call('PUT', 'setting/menus/301', admin, { weight: 999, display: false }));
    expect((await menus(admin)).some((n) => n.id === 301)).toBe(false);
    await ok(await call('PUT', 'setting/menus/301', admin, { display: true }));
    expect((await menus(admin)).find((n) => n.id === 301)).toMatchObject({ weight: 999, url: '/system_log_user' });
    const before = await snapshotDigest(t.database.db);
    const renamed = await call('PUT', 'setting/menus/301', { ...admin, 'accept-language': 'zh_cn' }, { name: 'x' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toBe('内置菜单只能修改图标、排序、显示和启用');
    expect((await call('PUT', 'setting/menus/301', admin, { url: 'http://x.example' })).statusCode).toBe(400);
    const locked = await call('PUT', 'setting/menus/425', { ...admin, 'accept-language': 'en_us' }, { enable: false });
    expect(locked.json().message).toBe('The menu settings page and the groups above it cannot be hidden or disabled');
    expect((await call('PUT', 'setting/menus/400', admin, { display: false })).statusCode).toBe(400);
    const builtinDelete = await call(
      'DELETE',
      'setting/menus',
      { ...admin, 'accept-language': 'zh_cn' },
      {
        ids: [tab.id, 301],
      },
    );
    expect(builtinDelete.statusCode).toBe(400);
    expect(builtinDelete.json().message).toBe('内置菜单不能删除');
    expect((await call('DELETE', 'setting/menus', admin, { ids: [123_456_789] })).statusCode).toBe(404);
    expect((await call('PUT', `setting/menus/${group.id}`, admin, { url: 'http://x.example' })).statusCode).toBe(400);
    expect((await call('PUT', `setting/menus/${group.id}`, admin, { parent_id: tab.id })).statusCode).toBe(400);
    expect(await snapshotDigest(t.database.db)).toBe(before);

    // /setting_menu's list: every row, its kind and state.
    const list = (await call('GET', 'setting/menus/entries')).json().data.list as Record<string, unknown>[];
    expect(list.find((r) => r.id === 301)).toMatchObject({ kind: 'builtin', display: true, weight: 999 });
    expect(list.find((r) => r.id === group.id)).toMatchObject({ kind: 'custom', group: true });

    // Deleting a group deletes the entries under it.
    const gone = await ok(await call('DELETE', 'setting/menus', admin, { ids: [group.id] }));
    expect(gone).toEqual({ deleted: 2 });
    expect((await menus(admin)).some((n) => n.id === tab.id || n.id === group.id)).toBe(false);
    await ok(await call('DELETE', 'setting/menus', admin, { ids: [main.id] }));
  });

  it('grants a custom entry like any other page: one role holds it, another does not', async () => {
    const k = t.database.db.kysely;
    const link = await ok(
      await call('POST', 'setting/menus', admin, entry({ name: 'Cabinet wiki', url: '/static/wiki/index.html' })),
    );
    await k
      .insertInto('roles')
      .values([
        { id: 7, name: 'wiki readers', remark: '', created_at: 0 },
        { id: 8, name: 'others', remark: '', created_at: 0 },
      ])
      .execute();
    await k
      .insertInto('role_menus')
      .values([
        { role_id: 7, menu_id: link.id },
        { role_id: 7, menu_id: 301 },
        { role_id: 8, menu_id: 301 },
      ])
      .execute();
    await createUser(t.database.db, 'reader', 'Reader-Strong-55', [7]);
    await createUser(t.database.db, 'other', 'Other-Strong-55', [8]);
    const reader = await loginHeader(t.app, 'reader', 'Reader-Strong-55');
    const other = await loginHeader(t.app, 'other', 'Other-Strong-55');
    expect((await menus(reader)).map((n) => n.id)).toContain(link.id);
    expect((await menus(other)).map((n) => n.id)).not.toContain(link.id);

    const open = (headers: Headers, url: string) =>
      call('GET', `menus/link?url=${encodeURIComponent(url)}`, { ...headers, 'accept-language': 'zh_cn' });
    expect((await open(reader, '/static/wiki/index.html')).json().data).toMatchObject({ id: link.id, target: '_self' });
    const refused = await open(other, '/static/wiki/index.html');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('当前用户无权限访问此页面！');
    // An address no entry holds is refused to everyone, the administrator too (no open redirector).
    expect((await open(admin, 'https://elsewhere.example/')).statusCode).toBe(403);
    // A disabled entry is no longer open to the role that holds it.
    await ok(await call('PUT', `setting/menus/${link.id}`, admin, { enable: false }));
    expect((await open(reader, '/static/wiki/index.html')).statusCode).toBe(403);

    // Neither role manages menus.
    for (const headers of [reader, other]) {
      expect((await call('POST', 'setting/menus', headers, entry())).statusCode).toBe(403);
      expect((await call('DELETE', 'setting/menus', headers, { ids: [link.id] })).statusCode).toBe(403);
      expect((await call('GET', 'setting/menus/entries', headers)).statusCode).toBe(403);
    }
    // Deleting the entry takes its grants with it.
    await ok(await call('DELETE', 'setting/menus', admin, { ids: [link.id] }));
    expect(await k.selectFrom('role_menus').select('menu_id').where('menu_id', '=', link.id).execute()).toEqual([]);
  });

  it('keeps the asset system address the administrator sets (none at first)', async () => {
    expect((await call('GET', 'menus/asset')).json().data).toEqual({ url: '', target: '_self' });
    const bad = await call('PUT', 'setting/menus/426', admin, { url: 'javascript:void(0)' });
    expect(bad.statusCode).toBe(400);
    await ok(await call('PUT', 'setting/menus/426', admin, { url: 'https://assets.example.com/', target: '_self' }));
    expect((await call('GET', 'menus/asset')).json().data).toEqual({
      url: 'https://assets.example.com/',
      target: '_self',
    });
    const list = (await call('GET', 'setting/menus/entries')).json().data.list as Record<string, unknown>[];
    expect(list.find((r) => r.id === 426)).toMatchObject({ kind: 'asset', url: 'https://assets.example.com/' });
    // The entry itself keeps its route, and opens as its system does.
    expect((await menus(admin)).find((n) => n.id === 426)).toMatchObject({ url: '/asset_management', target: '_self' });
    await ok(await call('PUT', 'setting/menus/426', admin, { target: '_blank' }));
    expect((await menus(admin)).find((n) => n.id === 426)).toMatchObject({
      url: '/asset_management',
      target: '_blank',
    });
  });
});
