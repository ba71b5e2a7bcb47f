import { expect, it } from 'vitest';
import type { Channel } from '../src/notify/channel.ts';
import { createChannels } from '../src/notify/channels/index.ts';
import { useManualTestApp } from './helpers/build-app.ts';
import { describeEachDatabase } from './helpers/databases.ts';

describeEachDatabase('escalation and the flood limiter', (dialect) => {
  // The app's own clock, moved by the test, and a webhook channel that records what it is given.
  const sent: { channel: string; subject: string; text: string; action: unknown; value: unknown }[] = [];
  const recording: Channel = {
    kind: 'webhook',
    async send(settings, message) {
      if (settings.kind !== 'webhook') throw new Error('not a webhook');
      const { action, value } = message.fields;
      sent.push({ channel: settings.config.url, subject: message.subject, text: message.text, action, value });
      return 'recorded';
    },
  };
  const t = useManualTestApp(
    dialect,
    { notifyChannels: { ...createChannels(), webhook: recording } },
    Date.UTC(2026, 10, 23, 3, 0, 0),
  );
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1/${url}`,
      headers: { authorization: 'Bearer admin-token' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const items: number[] = [];
  const made = { device: 0, group: 0 };

  it('sets up two groups, the first escalating to the second after one minute', async () => {
    const site = await call('POST', 'setting/device_groups', { name: '机房E', weight: 1 });
    const device = await call('POST', 'setting/devices', {
      name: 'TH-E',
      device_group_id: site.id,
      driver: 'simulator',
      code: 'temp_hum',
    });
    const hook = async (name: string) =>
      (
        await call('POST', 'setting/alarm_push', {
          name,
          kind: 'webhook',
          config: { url: `http://127.0.0.1:9/${name}` },
        })
      ).id;
    const later = await call('POST', 'setting/contact_groups', {
      name: '主管',
      email: false,
      channel_ids: [await hook('b')],
    });
    const first = await call('POST', 'setting/contact_groups', {
      name: '值班',
      email: false,
      channel_ids: [await hook('a')],
      escalate_minutes: 1,
      escalate_group_id: later.id,
    });
    made.device = device.id;
    made.group = first.id;
    for (let i = 0; i < 7; i++) {
      const item = await call('POST', 'setting/items', {
        device_id: device.id,
        name: `温度${i}`,
        value_type: 1,
        threshold_min: 10,
        threshold_max: 30,
        overrun_point: 0,
        recovery_point: 1,
        notification_interval: 0,
        contact_group_id: first.id,
        source: { kind: 'simulator', model: 'analog', base: 20 },
      });
      items.push(item.id);
    }
    await t.sitewatch.alarms.start();
  });

  it('notifies the further group once when an alarm is not confirmed in time, and not when it is', async () => {
    t.sitewatch.alarms.onSample(items[0]!, 40, t.clock.now());
    t.sitewatch.alarms.onSample(items[1]!, 40, t.clock.now());
    await t.sitewatch.settled();
    expect(sent.filter((s) => s.channel.endsWith('/a'))).toHaveLength(2);
    const [confirmed] = (await call('GET', 'review')).data.filter((a: { item_id: number }) => a.item_id === items[1]);
    await call('POST', 'warning_operation', {
      alarm_action: 0,
      remarks: '处理中',
      item_id: items[1],
      status_id: confirmed.status_id,
    });
    await t.clock.advance(59_000);
    expect(sent.filter((s) => s.channel.endsWith('/b'))).toHaveLength(0);
    // One minute after the raise (the engine's tick runs each second), and a minute more.
    await t.clock.advance(61_000);
    const escalated = sent.filter((s) => s.channel.endsWith('/b'));
    expect(escalated).toHaveLength(1);
    expect(escalated[0]).toMatchObject({ action: 'escalation' });
    expect(escalated[0]!.subject).toContain('温度0');
    const log = await call('GET', 'alarm_log?action=escalate');
    expect(log.total).toBe(1);
  });

  it('sends at most flood_limit notices a minute per channel and folds the rest into one summary', async () => {
    const commons = await call('GET', 'setting/alarm_commons');
    await call('PUT', 'setting/alarm_commons', { ...commons, flood_limit: 3, escalation_enable: false });
    // A fresh minute.
    await t.clock.advanceTo(Math.ceil((t.clock.now() + 1) / 60_000) * 60_000);
    const before = sent.filter((s) => s.channel.endsWith('/a')).length;
    for (const id of items.slice(2)) t.sitewatch.alarms.onSample(id, 40, t.clock.now());
    await t.sitewatch.settled();
    const toA = () => sent.filter((s) => s.channel.endsWith('/a')).length - before;
    expect(toA()).toBe(3);
    // The folded two go out as one summary in the next minute (the limiter looks every 5 s).
    await t.clock.advance(59_000);
    expect(toA()).toBe(3);
    await t.clock.advance(6_000);
    expect(toA()).toBe(4);
    const summary = sent.filter((s) => s.channel.endsWith('/a')).at(-1)!;
    expect(summary).toMatchObject({ action: undefined });
    expect(summary.subject).toContain('告警汇总');
    expect(summary.subject).toContain('2');
    const log = await call('GET', 'notification_log?limit=100');
    expect(log.data.filter((r: { action: string }) => r.action === 'summary')).toHaveLength(1);
  });

  it('writes {value} of a notice’s text with the item’s display decimals; its fields keep the number', async () => {
    const item = async (name: string, decimals: number | null) =>
      (
        await call('POST', 'setting/items', {
          device_id: made.device,
          name,
          value_type: 1,
          threshold_min: 10,
          threshold_max: 30,
          overrun_point: 0,
          recovery_point: 1,
          notification_interval: 0,
          contact_group_id: made.group,
          decimals,
          source: { kind: 'simulator', model: 'analog', base: 20 },
        })
      ).id;
    const rounded = await item('湿度', 2);
    const asRead = await item('压力', null);
    // A fresh minute of the flood limiter.
    await t.clock.advance(61_000);
    const before = sent.length;
    t.sitewatch.alarms.onSample(rounded, 40.123456, t.clock.now());
    t.sitewatch.alarms.onSample(asRead, 40.123456, t.clock.now());
    await t.sitewatch.settled();
    const notices = sent.slice(before).filter((s) => s.channel.endsWith('/a'));
    const rounded2 = notices.find((s) => s.subject.includes('湿度'))!;
    const asRead2 = notices.find((s) => s.subject.includes('压力'))!;
    expect(rounded2.text).toContain('40.12');
    expect(rounded2.text).not.toContain('40.123');
    expect(asRead2.text).toContain('40.123456');
    expect([rounded2.value, asRead2.value]).toEqual([40.123456, 40.123456]);
  });
});
