import { Counter, Gauge, type Registry } from 'prom-client';
import type { BusBridge } from '../bus/bridge.ts';
import type { EventBus } from '../bus/bus.ts';
import type { SeriesStore } from '../series/store.ts';

/**
 * The collection path in /metrics (issue 18, bench:e2e reads them): samples with a value published
 * on the bus (each is judged by the alarm engine and handed to the series store as it is
 * published), what the store still buffers, what it dropped, and its recent flush latency. Samples
 * stored = samples − pending − dropped (a flush in progress counts as stored a little early).
 */
export const registerPipelineMetrics = (
  registry: Registry,
  deps: { bus: EventBus; series?: SeriesStore | undefined; bridge?: BusBridge | undefined },
) => {
  if (deps.bridge) registerBridgeMetrics(registry, deps.bridge);
  // Counted in a plain number (this runs for every sample) and handed to the counter at a scrape.
  let counted = 0;
  let reported = 0;
  deps.bus.subscribe('samples', ({ values, from, to }) => {
    for (let i = from; i < to; i++) if (!Number.isNaN(values[i]!)) counted += 1;
  });
  new Counter({
    name: 'sitewatch_samples_total',
    help: 'Samples with a value published on the bus (judged by the alarm engine, handed to the series store)',
    registers: [registry],
    collect() {
      this.inc(counted - reported);
      reported = counted;
    },
  });
  const { series } = deps;
  if (!series) return;
  new Gauge({
    name: 'sitewatch_series_pending',
    help: 'Samples the series store buffers for its next flush',
    registers: [registry],
    collect() {
      this.set(series.pending());
    },
  });
  new Gauge({
    name: 'sitewatch_series_dropped',
    help: 'Samples dropped since start because the database refused them',
    registers: [registry],
    collect() {
      this.set(series.dropped());
    },
  });
  new Gauge({
    name: 'sitewatch_series_flush_p99_seconds',
    help: 'p99 of the series store’s recent flush latencies',
    registers: [registry],
    collect() {
      const sorted = [...series.flushLatencies()].sort((a, b) => a - b);
      this.set((sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0) / 1000);
    },
  });
};

/** The bus bridge on PostgreSQL (docs/scale.md): what crossed, what waits, what was lost. */
const registerBridgeMetrics = (registry: Registry, bridge: BusBridge) => {
  const counts = {
    written: 'Domain events this process wrote to the outbox',
    delivered: 'Other processes’ domain events delivered on this process’s bus',
    dropped: 'Domain events dropped because the outbox was unreachable and the queue full',
    reconnects: 'Times the event listener lost its connection and opened it again',
    fellBehind: 'Times rows were pruned before this process read them (every cache reloaded)',
  } as const;
  for (const [key, help] of Object.entries(counts) as [keyof typeof counts, string][]) {
    let reported = 0;
    new Counter({
      name: `sitewatch_bus_bridge_${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}_total`,
      help,
      registers: [registry],
      collect() {
        const now = bridge.counts()[key];
        this.inc(now - reported);
        reported = now;
      },
    });
  }
  new Gauge({
    name: 'sitewatch_bus_bridge_queued',
    help: 'Domain events waiting to be written to the outbox',
    registers: [registry],
    collect() {
      this.set(bridge.counts().queued);
    },
  });
};
