import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { deviceOptions, serialSettings } from '@sitewatch/contract/monitoring';
import { expect, it } from 'vitest';
import type { PolledDevice } from './devices.ts';
import type { DriverItem } from './driver.ts';
import { type HostEvents, startPollerWorker } from './worker-host.ts';

const device = (driver: 'snmp' | 'simulator', port: number | null, items: DriverItem[]): PolledDevice => ({
  id: 1,
  name: 'd',
  driver,
  ip: '127.0.0.1',
  port,
  protocol_id: 1,
  protocol_version: 'v2c',
  serial: serialSettings.parse({}),
  options: deviceOptions.parse({ timeout_ms: 100 }),
  check_interval: 1,
  items: items.map((item) => ({ ...item, check_interval: 0 })),
});

/**
 * network.spec's switch stayed "not ready" for 20 s: its device was reloaded once per port item
 * added, and an install that reached the worker while the previous loop was still finishing a
 * poll lost its answers (the worker forgot the device when that old loop had stopped).
 */
it('a device installed again while its old loop finishes a poll keeps its answers', async () => {
  // An agent that takes requests and never answers: the first install's poll stays in flight.
  const agent = createSocket('udp4');
  agent.bind(0, '127.0.0.1');
  await once(agent, 'listening');
  const asked = once(agent, 'message');
  // The new install's answers taken after the removal: the first may be one polled before it.
  let removedYet = false;
  const taken: number[] = [];
  let twoTaken: () => void = () => undefined;
  const two = new Promise<void>((resolve) => {
    twoTaken = resolve;
  });
  const events: HostEvents = {
    answer: (id, gen) => {
      if (!removedYet || id !== 1) return;
      taken.push(gen);
      if (taken.length === 2) twoTaken();
    },
    empty: () => undefined,
    alive: () => undefined,
    opened: () => undefined,
    failed: () => undefined,
  };
  const poller = await startPollerWorker([{ name: 'snmp' }, { name: 'simulator' }], events, undefined);
  try {
    poller.install(
      device('snmp', agent.address().port, [
        { id: 7, value_type: 1, source: { kind: 'snmp', oid: '1.3.6.1.2.1.1.3.0', scale: 1 } },
      ]),
      1,
    );
    await asked;
    // Reloaded twice at once: one removes the device, the other installs it again before the old
    // loop's poll has ended (at its 100 ms timeout).
    const removed = poller.remove(1);
    poller.install(
      device('simulator', null, [
        {
          id: 7,
          value_type: 1,
          source: {
            kind: 'simulator',
            model: 'analog',
            base: 20,
            spread: 0,
            noise: 0,
            period_s: 600,
            fault_rate: 0,
            decimals: 1,
          },
        },
      ]),
      2,
    );
    await removed;
    removedYet = true;
    // Its polls go on reaching the collector (they were dropped: this waited for ever).
    await two;
    expect(taken).toEqual([2, 2]);
  } finally {
    await poller.stop();
    agent.close();
  }
});
