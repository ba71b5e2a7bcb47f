import { expect, it } from 'vitest';
import type { Channel } from '../src/notify/channel.ts';
import { createChannels } from '../src/notify/channels/index.ts';
import type { NoticeSubject } from '../src/notify/notifier.ts';
import { fakeTokens, useTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

/**
 * Clearing the notice queue holds to the caller's sites (issue 27, item 3): a user of site A who
 * clears it drops the queued notices of site A's alarms only; site B's people are still told.
 */
describeEachDatabase('clearing the notice queue', (dialect) => {
  // A webhook channel that holds every send until the test lets them go (the notifier sends eight at once).
  const started: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let eightRunning: () => void = () => undefined;
  const running = new Promise<void>((resolve) => {
    eightRunning = resolve;
  });
  const held: Channel = {
    kind: 'webhook',
    async send(_settings, message) {
      started.push(String(message.fields.site));
      if (started.length === 8) eightRunning();
      await gate;
      return 'sent';
    },
  };
  const t = useTestApp(dialect, { notifyChannels: { ...createChannels(), webhook: held } });
  const call = async (method: 'POST' | 'PUT', url: string, payload?: object, token = 'admin-token') => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('a user of site A drops the queued notices of site A only', async () => {
    const k = t.database.db.kysely;
    expect(await createUser(t.database.db, 'admin', 'Admin-Pass-123')).toBe(1);
    const a = (await call('POST', 'setting/device_groups', { name: 'Site A', weight: 1 })).id;
    const b = (await call('POST', 'setting/device_groups', { name: 'Site B', weight: 1 })).id;
    const hook = await call('POST', 'setting/alarm_push', {
      name: 'hook',
      kind: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    const group = await call('POST', 'setting/contact_groups', { name: 'ops', email: false, channel_ids: [hook.id] });
    await k.insertInto('roles').values({ id: 61, name: 'site A', remark: '', created_at: 0 }).execute();
    await k.insertInto('role_sites').values({ role_id: 61, site_id: a }).execute();
    await k.insertInto('role_menus').values({ role_id: 61, menu_id: 234 }).execute();
    const edit = await k
      .selectFrom('functions')
      .select('id')
      .where('menu_id', '=', 234)
      .where('code', '=', 'edit')
      .executeTakeFirstOrThrow();
    await k.insertInto('role_functions').values({ role_id: 61, function_id: edit.id }).execute();
    const user = await createUser(t.database.db, 'site-a', 'Some-Pass-123', [61]);
    fakeTokens['notice-a-token'] = { user_id: user, user_name: 'site-a', session_id: 6100 };

    // Ten notices of each site: eight are being sent, twelve wait in the queue.
    const subject = (site: number, n: number): NoticeSubject => ({
      alarm_id: 100 + n,
      item_id: 100 + n,
      item_name: `item ${n}`,
      device_name: 'device',
      device_group_id: site,
      device_group_name: site === a ? 'Site A' : 'Site B',
      state: 2,
      level: 1,
      value: 40,
      decimals: null,
      unit: '',
      info: '',
      time: 1_800_000_000,
    });
    const { notifier } = t.sitewatch.services;
    for (const site of [a, b])
      for (let n = 0; n < 10; n++)
        notifier.enqueue({ action: 'notice', subject: subject(site, n), contact_group_id: group.id });
    await running;

    const { dropped } = await call('PUT', 'clean_notice_list', undefined, 'notice-a-token');
    expect(dropped).toBeGreaterThan(0);
    release();
    await notifier.idle();
    const sent = (site: number) => started.filter((s) => s === (site === a ? 'Site A' : 'Site B')).length;
    expect(sent(b)).toBe(10);
    expect(sent(a)).toBe(10 - dropped);
  });
});
