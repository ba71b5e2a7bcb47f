import {
  type FirewallRule,
  type FirewallState,
  type FirewallUnavailable,
  firewallRule,
  type OpenPort,
} from '@sitewatch/contract/firewall';
import { z } from 'zod';
import type { Timer, Timers } from '../../clock/timers.ts';
import type { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../http/errors.ts';
import type { FirewallHost } from './client.ts';
import { newlyClosedGuardedPorts, refusesIncoming } from './render.ts';

/** The stored firewall (module_settings `firewall`): whether it is on, the rules in order, the next id. */
export const firewallSettings = z.object({
  enabled: z.boolean().default(false),
  rules: z.array(firewallRule).default([]),
  next_id: z.number().int().default(1),
});
export type FirewallSettings = z.infer<typeof firewallSettings>;

/** How long a change that cuts off its author stays applied unless kept (issue 30 item 2). */
export const rollbackAfterMs = 60_000;
/** Between tries of a roll-back the host refused. */
const rollbackRetryMs = 10_000;

/** Who makes a change: their address and the port they reached the console on. */
export interface Author {
  address: string;
  port: number;
}

export interface FirewallChange {
  rules: Omit<FirewallRule, 'id'>[];
  confirm: boolean;
  confirm_lockout: boolean;
}

interface Pending {
  previous: FirewallSettings;
  expiresAt: number;
  address: string;
  timer: Timer;
}

const reasonKey = (reason: FirewallUnavailable) => `firewall.${reason}`;

/**
 * The firewall's rules (docs/firewall.md): stored rules are what the host holds; a change is applied
 * by the helper first and stored only when the host took it. A change that would cut off its
 * author's address is applied on trial and rolled back after 60 s on the kernel's clock unless kept.
 */
export const createFirewallService = (deps: {
  store: SettingsStore<{ firewall: FirewallSettings }>;
  host: FirewallHost;
  timers: Timers;
  clock: () => number;
  onRolledBack?: (restored: FirewallSettings) => Promise<void>;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}) => {
  let pending: Pending | null = null;
  let work = Promise.resolve();

  const stateOf = async (ownAddress: string): Promise<FirewallState> => {
    const stored = await deps.store.get('firewall');
    const probe = await deps.host.probe();
    const table = probe.ok ? await deps.host.state() : probe;
    const failed = !probe.ok ? probe : !table.ok ? table : null;
    return {
      enabled: stored.enabled,
      rules: stored.rules,
      host: {
        available: failed === null,
        reason: failed?.reason ?? null,
        detail: failed?.detail ?? '',
        table: table.ok ? table.data.table : false,
        host_rules: table.ok ? table.data.rules : null,
      },
      pending: pending ? { expires_at: Math.floor(pending.expiresAt / 1000), address: pending.address } : null,
      own_address: ownAddress.replace(/^::ffff:/i, ''),
    };
  };

  /** Applies on the host, then stores; the host refusing leaves everything as it was. */
  const applyAndStore = async (next: FirewallSettings) => {
    const result = await deps.host.apply(next.enabled, next.enabled ? next.rules : []);
    if (!result.ok) throw new AppError('conflict', reasonKey(result.reason), { detail: result.detail });
    await deps.store.set('firewall', next);
  };

  const rollback = async () => {
    const trial = pending;
    if (!trial) return;
    try {
      await applyAndStore(trial.previous);
    } catch (err) {
      deps.log?.error({ err }, 'firewall roll-back refused by the host; trying again');
      trial.timer = deps.timers.setTimeout(() => serial(rollback), rollbackRetryMs);
      return;
    }
    pending = null;
    await deps.onRolledBack?.(trial.previous);
  };

  /** One change at a time (a save, a roll-back, a keep), in arrival order. */
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = work.then(run);
    work = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  };

  const change = async (next: FirewallSettings, author: Author, confirm: boolean, confirmLockout: boolean) => {
    const current = await deps.store.get('firewall');
    const probe = await deps.host.probe();
    if (!probe.ok) throw new AppError('conflict', reasonKey(probe.reason), { detail: probe.detail });
    if (next.enabled) {
      const closed = newlyClosedGuardedPorts(current.enabled ? current.rules : [], next.rules);
      if (closed.length > 0 && !confirm) {
        throw new AppError('badRequest', 'firewall.confirmClose', { ports: closed.join(', ') });
      }
    }
    const cutsOff = refusesIncoming(next.enabled, next.rules, author.address, author.port);
    if (cutsOff && !confirmLockout) {
      throw new AppError('badRequest', 'firewall.confirmLockout', { address: author.address.replace(/^::ffff:/i, '') });
    }
    await applyAndStore(next);
    if (cutsOff) {
      // A second trial keeps the first's starting point: a roll-back returns to rules that let the author in.
      const previous = pending?.previous ?? current;
      if (pending) deps.timers.clearTimeout(pending.timer);
      pending = {
        previous,
        expiresAt: deps.clock() + rollbackAfterMs,
        address: author.address.replace(/^::ffff:/i, ''),
        timer: deps.timers.setTimeout(() => serial(rollback), rollbackAfterMs),
      };
    } else if (pending) {
      deps.timers.clearTimeout(pending.timer);
      pending = null;
    }
  };

  return {
    state: stateOf,

    /** Replaces the rules (ids kept for rules that name one of the stored ids, new ones numbered). */
    save: (input: FirewallChange & { ids?: (number | undefined)[] }, author: Author) =>
      serial(async () => {
        const current = await deps.store.get('firewall');
        let nextId = current.next_id;
        const rules = input.rules.map((rule, i) => {
          const id = input.ids?.[i];
          return { ...rule, id: id && current.rules.some((r) => r.id === id) ? id : nextId++ };
        });
        await change({ ...current, rules, next_id: nextId }, author, input.confirm, input.confirm_lockout);
        return stateOf(author.address);
      }),

    /** Turns the firewall on or off (002 §4: the status call with its Disabled flag). */
    setEnabled: (enabled: boolean, confirm: boolean, confirmLockout: boolean, author: Author) =>
      serial(async () => {
        const current = await deps.store.get('firewall');
        await change({ ...current, enabled }, author, confirm, confirmLockout);
        return stateOf(author.address);
      }),

    /** Keeps a change on trial (the author could still reach the console to say so). */
    keep: (author: Author) =>
      serial(async () => {
        if (!pending) throw new AppError('badRequest', 'firewall.nothingPending');
        deps.timers.clearTimeout(pending.timer);
        pending = null;
        return stateOf(author.address);
      }),

    openPorts: async (): Promise<{ available: boolean; reason: FirewallUnavailable | null; data: OpenPort[] }> => {
      const ports = await deps.host.ports();
      return ports.ok
        ? { available: true, reason: null, data: ports.data }
        : { available: false, reason: ports.reason, data: [] };
    },

    /** At start: the stored rules again on the host (a reboot empties nftables). */
    async restore() {
      const stored = await deps.store.get('firewall');
      if (!stored.enabled) return;
      const result = await deps.host.apply(true, stored.rules);
      if (!result.ok) deps.log?.warn({ reason: result.reason, detail: result.detail }, 'firewall rules not applied');
    },

    stop() {
      if (pending) deps.timers.clearTimeout(pending.timer);
    },
    settled: async () => {
      const before = work;
      await work;
      return before !== work;
    },
  };
};
export type FirewallService = ReturnType<typeof createFirewallService>;
