import { describe, expect, it } from 'vitest';
import { makePair } from '../../../test/helpers/https-certs.ts';
import { createManualClock } from '../../clock/manual.ts';
import type { SettingsStore } from '../../db/settings-store.ts';
import type { AcmeIssuer, AcmeOrder } from './acme.ts';
import { createHttpsService, defaultHttpsSettings, type HttpsSettings, renewal } from './service.ts';

const day = 86_400_000;

/** The settings row in memory, and an issuer that hands out certificates valid `validDays` from the clock. */
const rig = (start: number, validDays = 90) => {
  let row: HttpsSettings = { ...defaultHttpsSettings };
  const store: SettingsStore<{ HTTPS: HttpsSettings }> = {
    get: async () => row,
    peek: () => row,
    set: async (_k, v) => {
      row = v;
    },
    reload: async () => undefined,
  };
  const clock = createManualClock(start);
  const orders: AcmeOrder[] = [];
  const acme: AcmeIssuer = {
    challenges: { answer: () => undefined },
    issue: async (order) => {
      orders.push(order);
      const pair = makePair(order.domain, { from: clock.now() - day, to: clock.now() + validDays * day });
      return { ...pair, accountKey: 'account-key' };
    },
  };
  const service = createHttpsService({ store, acme, clock: clock.now, timers: clock.timers });
  return { service, clock, orders, row: () => row, set: (v: Partial<HttpsSettings>) => (row = { ...row, ...v }) };
};

describe('ACME renewal on the clock', () => {
  it('issues when ACME is on with a domain, and renews only under 30 days left', async () => {
    const start = Date.now();
    const r = rig(start);
    r.set({ acme_enabled: true, domain: 'box.sitewatch.test' });
    r.service.start();
    // First check: no certificate → issued.
    await r.clock.advance(renewal.checkEveryMs);
    expect(r.orders).toHaveLength(1);
    const first = (await r.service.state()).certificate!;
    expect(first).toMatchObject({ source: 'acme', names: ['box.sitewatch.test'] });
    // Two months on: 30 days or more left, kept.
    await r.clock.advance(59 * day);
    expect(r.orders).toHaveLength(1);
    // Past 60 days of 90: under 30 left → renewed at the next check, and only once.
    await r.clock.advance(2 * day);
    expect(r.orders).toHaveLength(2);
    expect((await r.service.state()).certificate!.fingerprint).not.toBe(first.fingerprint);
    expect(r.orders[1]!.accountKey).toBe('account-key');
    r.service.stop();
  });

  it('does nothing with ACME off or without a domain, and keeps the reason of a failure', async () => {
    const r = rig(Date.now());
    r.service.start();
    await r.clock.advance(renewal.checkEveryMs);
    r.set({ acme_enabled: true });
    await r.clock.advance(renewal.checkEveryMs);
    expect(r.orders).toHaveLength(0);
    await expect(r.service.issue()).rejects.toMatchObject({ key: 'https.validation.domainRequired' });
    r.set({ domain: 'box.sitewatch.test' });
    const failing = rig(Date.now());
    failing.set({ acme_enabled: true, domain: 'box.sitewatch.test' });
    const broken = createHttpsService({
      store: {
        get: async () => failing.row(),
        peek: () => failing.row(),
        set: async (_k, v) => void failing.set(v),
        reload: async () => undefined,
      },
      acme: { challenges: { answer: () => undefined }, issue: async () => Promise.reject(new Error('CA says no')) },
      clock: failing.clock.now,
      timers: failing.clock.timers,
    });
    await expect(broken.issue()).rejects.toMatchObject({ key: 'https.errors.acme' });
    expect(failing.row().last_error).toBe('CA says no');
    expect(failing.row().cert).toBe('');
  });
});
