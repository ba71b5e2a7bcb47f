import type { BusEvent, BusEventName } from '@sitewatch/contract/events';
import { monitorState } from '@sitewatch/contract/monitoring';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSimulatorDriver } from '../src/collector/drivers/simulator.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';
import { createUser } from './helpers/login.ts';

type Seen = { name: BusEventName; at: number; event: BusEvent<BusEventName> };

/**
 * The spine (docs/architecture.md): a sample, a threshold change and an alarm travel the event bus
 * in the documented order, through the engines that app.ts builds with real drivers. Times are the
 * app's own clock, which the test moves: "within 2 s" is the product's schedule (polls, gathering,
 * live rounds), not the speed of the machine running the test.
 */
describeEachDatabase('the event bus carries samples, changes and alarms', (dialect) => {
  const t = useManualTestApp(dialect, { drivers: { simulator: createSimulatorDriver() } });
  const seen: Seen[] = [];
  const ids = { site: 0, device: 0, item: 0 };
  /** A temperature reading a steady 20 °C, alarmed above `max`. */
  const itemInput = (max: number) => ({
    device_id: ids.device,
    name: '温度',
    value_type: 1,
    threshold_min: 0,
    threshold_max: max,
    overrun_point: 0,
    recovery_point: 1,
    repetitions: 1,
    source: { kind: 'simulator', model: 'analog', base: 20, spread: 0, noise: 0 },
  });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    for (const name of [
      'sample',
      'item.state',
      'device.state',
      'config.changed',
      'alarm.raised',
      'alarm.recovered',
    ] as const)
      t.sitewatch.bus.subscribe(name, (event) => {
        seen.push({ name, at: t.clock.now(), event });
      });
    ids.site = (await call('POST', 'setting/device_groups', { name: '机房S', weight: 1 })).id;
    ids.device = (
      await call('POST', 'setting/devices', {
        name: 'TH-S',
        device_group_id: ids.site,
        driver: 'simulator',
        code: 'temp_hum',
        check_interval: 1,
      })
    ).id;
    ids.item = (await call('POST', 'setting/items', itemInput(100))).id;
    await t.sitewatch.start();
  });
  afterAll(() => {
    seen.length = 0;
  });

  const mine = (s: Seen) =>
    ((s.name === 'sample' || s.name === 'item.state') && (s.event as BusEvent<'sample'>).item_id === ids.item) ||
    (s.name.startsWith('alarm.') && (s.event as BusEvent<'alarm.raised'>).alarm.item_id === ids.item) ||
    (s.name === 'config.changed' && (s.event as BusEvent<'config.changed'>).ids?.includes(ids.device) === true);

  it('a polled value is published as a sample, and the series store and live view have it', async () => {
    // The first poll falls within the first interval (1 s).
    await t.clock.advance(1_000);
    const first = seen.find((s) => s.name === 'sample' && mine(s))!.event as BusEvent<'sample'>;
    expect(first.value).toBe(20);
    expect(t.sitewatch.collector?.liveItem(ids.item)?.value).toBe(20);
    // settled() wrote the buffered samples.
    const stored = await t.sitewatch.series!.raw(ids.item, 0, Math.ceil(t.clock.now() / 1000) + 1);
    expect(stored.map((p) => p.value)).toContain(20);
  });

  it('a threshold edited through the API raises its alarm within 2 s: config.changed, then a sample, then alarm.raised', async () => {
    const from = seen.length;
    const started = t.clock.now();
    await call('PUT', `setting/items/${ids.item}`, itemInput(10));
    await t.clock.advance(2_000);
    const trail = seen.slice(from).filter(mine);
    const names = trail.map((s) => s.name);
    const raised = names.indexOf('alarm.raised');
    expect(raised, names.join(' → ')).toBeGreaterThan(0);
    expect(names[0]).toBe('config.changed');
    // The alarm follows the sample that broke the new rule, never the change itself: the engine, the
    // one owner of item state, publishes the item's new state first, and the live view shows it.
    expect(names.slice(raised - 2, raised + 1)).toEqual(['sample', 'item.state', 'alarm.raised']);
    expect((trail[raised - 1]!.event as BusEvent<'item.state'>).state).toBe(monitorState.abnormal);
    expect(t.sitewatch.collector?.liveItem(ids.item)?.state).toBe(monitorState.abnormal);
    expect(trail[raised]!.at - started).toBeLessThan(2000);
    // The dashboard counts it at once, not after the collector's next write of item rows.
    const counted = { items: 1, item_abnormal: 1, item_normal: 0 };
    expect(t.sitewatch.collector!.unsavedStates()).toContainEqual([ids.item, monitorState.abnormal]);
    expect(await call('GET', 'overview/statistics')).toMatchObject(counted);
    // It is counted from its row once the collector has written it, and the same.
    await t.sitewatch.collector!.persist();
    expect(t.sitewatch.collector!.unsavedStates()).not.toContainEqual([ids.item, expect.anything()]);
    expect(await call('GET', 'overview/statistics')).toMatchObject(counted);
  });

  it('live values are pushed within a second to browsers watching the site, and only to those granted it', async () => {
    const k = t.database.db.kysely;
    const other = (await call('POST', 'setting/device_groups', { name: '机房T', weight: 1 })).id;
    // A user granted only the other site, watching every site it may see.
    await k.insertInto('roles').values({ id: 61, name: 'site T', remark: '', created_at: 0 }).execute();
    await k.insertInto('role_sites').values({ role_id: 61, site_id: other }).execute();
    // User 1 is never restricted: the administrator takes that id first.
    if ((await k.selectFrom('users').select('id').where('id', '=', 1).execute()).length === 0)
      await createUser(t.database.db, 'admin', 'Admin-Pass-123');
    const watcherId = await createUser(t.database.db, 'watcher-t', 'Watcher-Pass-123', [61]);
    type Live = { type: string; items?: Array<{ id: number; value: number | null; state: number }> };
    type Got = { at: number; message: Live };
    const boxes = { all: [] as Got[], site: [] as Got[], otherSite: [] as Got[], notGranted: [] as Got[] };
    const into = (box: Got[]) => (text: string) => box.push({ at: t.clock.now(), message: JSON.parse(text) });
    const admin = { user_id: 1, user_name: 'admin', session_id: 1 };
    const watcher = { user_id: watcherId, user_name: 'watcher-t', session_id: 61 };
    const removers = [
      t.push.add({ principal: admin, watch: null, send: into(boxes.all) }),
      t.push.add({ principal: admin, watch: [ids.site], send: into(boxes.site) }),
      t.push.add({ principal: admin, watch: [other], send: into(boxes.otherSite) }),
      t.push.add({ principal: watcher, watch: null, send: into(boxes.notGranted) }),
    ];
    const firstOf = (box: Got[]) =>
      box.find((g) => g.message.type === 'live' && g.message.items?.some((i) => i.id === ids.item));
    try {
      await t.clock.advance(2_000);
      expect(firstOf(boxes.all)).toBeDefined();
      const got = firstOf(boxes.site);
      expect(got?.message.items?.find((i) => i.id === ids.item)).toMatchObject({ value: 20 });
      // The newest sample of the item before the message arrived: pushed within a second of it.
      const sampled = seen.filter((s) => s.name === 'sample' && mine(s) && s.at <= got!.at).at(-1);
      expect(got!.at - sampled!.at).toBeLessThan(1000);
      expect(firstOf(boxes.otherSite)).toBeUndefined();
      expect(firstOf(boxes.notGranted)).toBeUndefined();
    } finally {
      for (const remove of removers) remove();
    }
  });

  it('putting the threshold back recovers the alarm the same way', async () => {
    const from = seen.length;
    await call('PUT', `setting/items/${ids.item}`, itemInput(100));
    await t.clock.advance(2_000);
    const names = seen
      .slice(from)
      .filter(mine)
      .map((s) => s.name);
    // The change is published before the recovery it causes.
    const changed = names.indexOf('config.changed');
    expect(changed).toBe(0);
    const recovered = names.indexOf('alarm.recovered');
    expect(recovered).toBeGreaterThan(changed);
    expect(names.slice(recovered - 2, recovered + 1)).toEqual(['sample', 'item.state', 'alarm.recovered']);
    expect(t.sitewatch.collector?.liveItem(ids.item)?.state).toBe(monitorState.normal);
  });
});
