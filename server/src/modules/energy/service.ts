import type { RollupBucket } from '../../series/store.ts';
import { createAnalyses } from './analyses.ts';
import { createConsumption } from './consumption.ts';
import { createCost } from './cost.ts';
import { createOverview } from './overview.ts';
import { createPue } from './pue.ts';
import { createEnergyReader, type EnergyContext } from './reader.ts';
import type { EnergyRepository } from './repository.ts';
import { createEnergySettings, siteScope } from './settings.ts';
import { zoneClock } from './tariff.ts';

export interface EnergyDeps {
  repo: EnergyRepository;
  /** Brings the meters' stored energy up to date with the series store before a read (fill.ts). */
  catchUp?: (meterIds: number[]) => Promise<void>;
  /** Drops a meter's stored energy, to be recomputed over its whole history (its reading changed). */
  forget?: (meterId: number) => Promise<void>;
  /** The series store's minute roll-ups (get_active_power). */
  minutes?: (itemIds: number[], t1: number, t2: number) => Promise<RollupBucket[]>;
  zone?: string;
  now?: () => number;
}

/**
 * The energy area's service (docs/energy.md), one part per concern: settings (meters, tariffs, the
 * tariff in force), consumption, cost, PUE, the analyses and the overview, all reading stored energy
 * through one reader on the server's local clock.
 */
export const createEnergyService = (deps: EnergyDeps) => {
  const { repo } = deps;
  const clock = zoneClock(deps.zone ?? (process.env.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone));
  const now = () => Math.floor((deps.now?.() ?? Date.now()) / 1000);
  const { scope, visible } = siteScope(repo);
  const ctx: EnergyContext = {
    repo,
    clock,
    now,
    scope,
    visible,
    reader: createEnergyReader({ repo, clock, scope, catchUp: deps.catchUp }),
    catchUp: deps.catchUp,
    minutes: deps.minutes,
  };
  return {
    ...createEnergySettings({ repo, now, scope, visible, forget: deps.forget }),
    ...createConsumption(ctx),
    ...createCost(ctx),
    ...createPue(ctx),
    ...createAnalyses(ctx),
    ...createOverview(ctx),
  };
};
export type EnergyService = ReturnType<typeof createEnergyService>;
