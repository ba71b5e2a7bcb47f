import { defaultPwdComplexity } from '@sitewatch/contract';
import { expect, it } from 'vitest';
import { useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

describeEachDatabase('public global config', (dialect) => {
  const t = useTestApp(dialect);
  const read = (k: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/setting/gc/readonly?k=${k}`,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });

  it('answers the login page the password rules without exempt users, and the idle policy only to a signed-in user', async () => {
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/v1/setting/gc',
      headers: { authorization: 'Bearer admin-token' },
      payload: {
        k: 'PWD_COMPLEXITY',
        v: { pwd_complexity_config: { ...defaultPwdComplexity, always_valid_user_ids: [1, 7] } },
      },
    });
    expect(set.statusCode).toBe(200);
    const rules = await read('PWD_COMPLEXITY');
    expect(rules.statusCode).toBe(200);
    expect(rules.json().data.pwd_complexity_config.opt_min_len).toBe(defaultPwdComplexity.opt_min_len);
    expect(rules.json().data.pwd_complexity_config.always_valid_user_ids).toEqual([]);
    // The stored setting keeps the list.
    const row = await t.database.db.kysely
      .selectFrom('global_config')
      .select('v')
      .where('k', '=', 'PWD_COMPLEXITY')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row.v)).toContain('[1,7]');
    // The administrator reads every key back whole (the answer's union once emptied it into OUTBOUND's shape).
    const admin = (k: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/setting/gc?k=${k}`,
        headers: { authorization: 'Bearer admin-token' },
      });
    expect((await admin('PWD_COMPLEXITY')).json().data.pwd_complexity_config.always_valid_user_ids).toEqual([1, 7]);
    expect((await admin('LOGIN_SAFE')).json().data).toHaveProperty('auto_lock');
    expect((await admin('OUTBOUND')).json().data).toEqual({ allow: [], deny: [] });

    const anonymous = await read('ACCOUNT_SAFE');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).not.toBe(0);
    const signedIn = await read('ACCOUNT_SAFE', 'admin-token');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data).toHaveProperty('acc_logout_config');
  });
});

describeEachDatabase('UTF-8 on input', (dialect) => {
  const t = useTestApp(dialect);
  it('refuses a lone surrogate with 400 and the envelope, and stores nothing', async () => {
    const create = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/setting/device_groups',
        headers: { authorization: 'Bearer admin-token', 'content-type': 'application/json' },
        payload: `{"name":"${name}","weight":1}`,
      });
    for (const bad of ['\\ud800', 'a\\udc00b']) {
      const res = await create(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).not.toBe(0);
      expect(res.json().message).toBeTruthy();
    }
    expect(await t.database.db.kysely.selectFrom('device_groups').selectAll().execute()).toEqual([]);
    // The same body with a well-formed pair (an emoji) is stored.
    expect((await create('\\ud83d\\ude00 room')).statusCode).toBe(200);
    // A well-formed pair (an emoji) is fine as far as this check goes.
    const pair = await t.app.inject({
      method: 'GET',
      url: `/api/v1/setting/gc/readonly?k=PWD_COMPLEXITY&x=${encodeURIComponent('😀')}`,
    });
    expect(pair.statusCode).toBe(200);
  });
});

describeEachDatabase('mail server address', (dialect) => {
  const t = useTestApp(dialect);
  it('takes a host name or an IP address, and refuses free text with the field named', async () => {
    const put = (host: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/setting/email_service',
        headers: { authorization: 'Bearer admin-token' },
        payload: { host, port: 25, security: 'none', user: '', password: '', from: 'alarm@example.com', enable: false },
      });
    for (const good of ['smtp.example.com', 'mail', '10.0.0.5', '::1'])
      expect((await put(good)).statusCode, good).toBe(200);
    for (const bad of ['http://smtp.example.com', 'smtp example com', 'smtp.example.com:25', 'a/b']) {
      const res = await put(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain('主机名或IP地址');
    }
  });
});
