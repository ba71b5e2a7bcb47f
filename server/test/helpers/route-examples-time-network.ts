import { type FakeBox, startFakeBox } from './host-helper-fake.ts';
import type { Example, Prepared } from './route-examples.ts';

/**
 * The working calls of the time, network and services routes (issue 30 item 4;
 * docs/time-network.md), beside route-examples.ts's catalogue, which spreads them in. They talk to
 * the real host helper over a stand-in box (helpers/host-helper-fake.ts), started once per test file.
 */
let box: Promise<FakeBox> | null = null;
async function withBox(): Promise<Prepared> {
  box ??= startFakeBox({ unref: true });
  process.env.SITEWATCH_HOST_SOCKET = (await box).socketPath;
  return {};
}

export const timeNetworkRoutes: Record<string, Example> = {
  'POST /api/v1/setting/time': { prepare: withBox, body: () => ({ timezone: 'Asia/Shanghai' }) },
  'POST /api/v1/setting/time/syncd': { prepare: withBox, body: () => ({ enabled: false, servers: [] }) },
  'POST /api/v1/setting/network/ip': {
    prepare: withBox,
    body: (_s, e) => ({
      interface: 'eth0',
      ip: '192.0.2.10',
      mask: '255.255.255.0',
      gateway: '192.0.2.1',
      verify_password: e.encrypt(e.password),
    }),
  },
  'POST /api/v1/setting/network/dns': {
    prepare: withBox,
    body: (_s, e) => ({ dns: ['192.0.2.53'], verify_password: e.encrypt(e.password) }),
  },
  // Keeping needs a change on trial: the stand-in's lan1 holds inject's 127.0.0.1, moved on trial.
  'POST /api/v1/setting/network/keep': {
    prepare: async ({ api, estate }) => {
      await withBox();
      const verify_password = estate.encrypt(estate.password);
      const lan1 = { interface: 'lan1', mask: '255.0.0.0', gateway: '', verify_password };
      await api('POST', 'setting/network/ip', { ...lan1, ip: '127.0.0.1' });
      await api('POST', 'setting/network/ip', { ...lan1, ip: '127.0.0.9', confirm_lockout: true });
      return {};
    },
    body: () => ({}),
  },
  'PUT /api/v1/setting/service/:name': {
    prepare: withBox,
    params: () => ({ name: 'ntp' }),
    body: () => ({ action: 'restart' }),
  },
};
