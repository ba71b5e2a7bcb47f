import type { AlarmEngine } from './alarms/engine.ts';
import { createAlarmEngine } from './alarms/engine.ts';
import { type AlarmSettings, createAlarmSettings } from './alarms/settings.ts';
import { type AnyArea, defineArea } from './area.ts';
import type { Timer, Timers } from './clock/timers.ts';
import { type Collector, createCollector } from './collector/collector.ts';
import type { DriverRegistry } from './collector/driver.ts';
import { createDeviceStateLog } from './modules/device-view/state-log.ts';
import { type ChannelRegistry, createChannels } from './notify/channels/index.ts';
import { createNotifier, type DutyRoster, type Notifier } from './notify/notifier.ts';
import type { PushHub } from './push/hub.ts';
import { startLiveFeed } from './push/live.ts';
import { createGrantCache, type GrantCache, pushAlarms } from './push/scoped.ts';
import type { SecretBox } from './secrets/index.ts';
import { startSeriesMaintenance } from './series/maintenance.ts';
import { createSeriesStore, type SeriesStore } from './series/store.ts';

declare module './area.ts' {
  interface Services {
    /** Encrypts stored secrets (the data dir's key). */
    secrets: SecretBox;
    /** The browsers' push channel. */
    push: PushHub;
    /** Absent in API-only tests (no drivers): areas then answer from the database alone. */
    series: SeriesStore | undefined;
    collector: Collector | undefined;
    /**
     * The live values: the collector itself, which keeps the item states the alarm engine publishes
     * (`item.state`); absent without a collector.
     */
    live: Collector | undefined;
    alarmSettings: AlarmSettings;
    notifier: Notifier;
    alarms: AlarmEngine;
    /** Site grants per user for scoped pushes (forgets a user on `grants.changed`). */
    grants: GrantCache;
  }
}

/** What the composition root hands its engines (app.ts, AppDeps). */
export interface EngineInputs {
  drivers?: DriverRegistry | undefined;
  collector?: Collector | undefined;
  collectorThread?: 'worker' | 'main' | undefined;
  series?: SeriesStore | undefined;
  notifyChannels?: ChannelRegistry | undefined;
  notifyRetryDelayMs?: number | undefined;
  /** A test's manual timers: the collector then polls on the main thread, on them. */
  timers?: Timers | undefined;
}

/**
 * The engines, declared like areas so that one resolver orders them with the areas they serve and
 * use (the notifier asks the duty area who is on duty; the grant cache asks the access area):
 * collection, the series store, the alarm engine, the notifier and the pushers (docs/architecture.md).
 */
export const engines = (inputs: EngineInputs): AnyArea[] => {
  const warnOf =
    (log: { warn(obj: object, msg: string): void }) =>
    (obj: object, msg: string): void =>
      log.warn(obj, msg);
  const declared = [
    defineArea({
      name: 'series-store',
      needs: ['globalConfig'],
      provides: ['series'],
      events: { consumes: ['samples'] },
      create: ({ kernel, needs }) => {
        const warn = warnOf(kernel.log);
        const series =
          inputs.series ??
          (inputs.drivers
            ? createSeriesStore(kernel.db, {
                timers: kernel.timers,
                onFlushError: (err) => warn({ err }, 'writing samples failed'),
                onDropped: ({ itemId, samples, err }) =>
                  warn({ err, itemId, samples }, 'samples the database refused were dropped; the rest were stored'),
                log: { warn },
              })
            : undefined);
        if (series) {
          // One answer of a device at a time; NaN (no usable value) is not stored.
          kernel.bus.subscribe('samples', ({ ids, values, from, to, ts_ms }) => {
            for (let i = from; i < to; i++) {
              const v = values[i]!;
              if (!Number.isNaN(v)) series.append(ids[i]!, ts_ms, v);
            }
          });
        }
        const owned = Boolean(inputs.drivers && series);
        let stopMaintenance: (() => void) | undefined;
        return {
          provides: { series },
          ...(series
            ? {
                settled: (between) => series.settled(between),
                // A restore replaced the history tables: reads must stop answering the blocks held in memory.
                reload: () => series.reload(),
              }
            : {}),
          start: () => {
            if (!owned || !series) return;
            series.start();
            stopMaintenance = startSeriesMaintenance(
              () => needs.globalConfig.get('SERIES_RETENTION'),
              series,
              (err) => warn({ err }, 'series maintenance failed'),
              kernel.timers,
            );
          },
          stop: async () => {
            stopMaintenance?.();
            if (owned) await series?.stop();
          },
        };
      },
    }),
    defineArea({
      name: 'collector',
      needs: ['secrets', 'series'],
      provides: ['collector', 'live'],
      // It keeps each device and its items in memory: a write of either names the device.
      events: {
        publishes: ['samples', 'device.state'],
        consumes: ['item.state', 'device.state', 'config.changed:devices'],
      },
      create: ({ kernel, needs }) => {
        const warn = warnOf(kernel.log);
        const collector =
          inputs.collector ??
          (inputs.drivers
            ? createCollector({
                db: kernel.db,
                secrets: needs.secrets,
                bus: kernel.bus,
                drivers: inputs.drivers,
                // Item rows go through the series store's writer (its thread on SQLite) while it runs.
                ...(needs.series ? { writer: needs.series.writer } : {}),
                thread: inputs.collectorThread ?? 'worker',
                ...(inputs.timers ? { timers: kernel.timers, now: kernel.clock } : {}),
                log: { warn, info: (obj, msg) => kernel.log.info(obj, msg) },
              })
            : undefined);
        // Device state changes are kept for the device pages' log (bounded per device).
        const deviceStates = inputs.drivers ? createDeviceStateLog(kernel.db, { log: { warn } }) : undefined;
        if (deviceStates) {
          kernel.bus.subscribe('device.state', (e) => {
            deviceStates.record(e.device_id, { state: e.state, reason: e.reason, time: e.since });
            return deviceStates.flush();
          });
        }
        const prune = () =>
          deviceStates?.pruneOrphans().catch((err) => warn({ err }, 'device state log pruning failed'));
        let timer: Timer | null = null;
        return {
          provides: { collector, live: collector },
          start: () => {
            if (!deviceStates) return;
            void prune();
            timer = kernel.timers.setInterval(prune, 3_600_000);
            timer.unref();
          },
          stop: async () => {
            kernel.timers.clearInterval(timer);
            await deviceStates?.flush();
          },
        };
      },
    }),
    defineArea({
      name: 'alarm-settings',
      needs: ['secrets'],
      provides: ['alarmSettings'],
      events: { publishes: ['config.changed:alarm_settings'] },
      create: ({ kernel, needs }) => {
        const alarmSettings = createAlarmSettings(kernel.db, kernel.clock, needs.secrets, kernel.bus);
        return { provides: { alarmSettings }, reload: () => alarmSettings.reload() };
      },
    }),
    defineArea({
      name: 'notifier',
      needs: ['secrets', 'alarmSettings', 'globalConfig', 'dutyRoster'],
      provides: ['notifier'],
      create: ({ kernel, needs }) => {
        const notifier = createNotifier({
          secrets: needs.secrets,
          db: kernel.db,
          settings: needs.alarmSettings,
          channels: inputs.notifyChannels ?? createChannels(() => needs.globalConfig.get('OUTBOUND')),
          clock: kernel.clock,
          timers: kernel.timers,
          roster: needs.dutyRoster,
          ...(inputs.notifyRetryDelayMs !== undefined ? { retryDelayMs: inputs.notifyRetryDelayMs } : {}),
          log: kernel.log,
        });
        return { provides: { notifier }, settled: () => notifier.settled(), stop: () => notifier.stop() };
      },
    }),
    defineArea({
      name: 'alarm-engine',
      needs: ['notifier', 'alarmSettings', 'series'],
      provides: ['alarms'],
      // It keeps every item's rule with its device, site (names in alarms), check period, the alarm
      // settings and the escalation groups in memory.
      events: {
        publishes: ['item.state', 'alarm.raised', 'alarm.recovered', 'alarm.operated', 'alarm.jitter'],
        consumes: [
          'samples',
          'device.state',
          'config.changed:sites',
          'config.changed:devices',
          'config.changed:items',
          'config.changed:time_periods',
          'config.changed:alarm_settings',
          'config.changed:contact_groups',
        ],
      },
      create: ({ kernel, needs }) => {
        const alarms = createAlarmEngine({
          db: kernel.db,
          bus: kernel.bus,
          notifier: needs.notifier,
          settings: needs.alarmSettings,
          clock: kernel.clock,
          timers: kernel.timers,
          // Alarm ids are reserved through the series store's writer (its thread on SQLite) while it runs.
          ...(needs.series ? { writer: needs.series.writer } : {}),
          log: kernel.log,
        });
        return {
          provides: { alarms },
          settled: () => alarms.settled(),
          start: () => alarms.start(),
          stop: () => alarms.stop(),
          reload: () => alarms.restored(),
        };
      },
    }),
    defineArea({
      name: 'pushers',
      needs: ['access', 'push', 'dutyRoster', 'live'],
      provides: ['grants'],
      // The grant cache keeps each user's sites: forgotten when grants or sites change.
      events: {
        consumes: [
          'grants.changed',
          'config.changed:sites',
          'alarm.raised',
          'alarm.recovered',
          'alarm.operated',
          'alarm.jitter',
          'samples',
          'item.state',
          'device.state',
        ],
      },
      create: ({ kernel, needs }) => {
        const { bus, clock, log } = kernel;
        // Scoping in one place: alarm events and live values go to the users granted their site.
        const grants = createGrantCache({
          grantedSites: async (userId) => (await needs.access.forUser(userId)).siteIds,
          bus,
          clock,
        });
        const roster: DutyRoster = needs.dutyRoster;
        const stopAlarmPush = pushAlarms(bus, needs.push, grants, clock, () => roster, log);
        const { live } = needs;
        let stopLiveFeed: (() => void) | undefined;
        return {
          provides: { grants },
          settled: () => grants.settled(),
          start: () => {
            if (!live) return;
            stopLiveFeed = startLiveFeed({
              bus,
              hub: needs.push,
              live,
              grants,
              timers: kernel.timers,
              log: { warn: warnOf(kernel.log) },
            });
          },
          stop: () => {
            stopLiveFeed?.();
            stopAlarmPush();
            grants.stop();
          },
        };
      },
    }),
  ];
  return declared;
};
