import type { FastifyInstance } from 'fastify';
import type { AlarmEngine } from './alarms/engine.ts';
import type { AlarmSettings } from './alarms/settings.ts';
import type { EventBus } from './bus/bus.ts';
import type { Collector } from './collector/collector.ts';
import type { Db } from './db/kysely.ts';
import type { AccessService } from './modules/access/index.ts';
import type { AuditLog } from './modules/audit/index.ts';
import type { AuthService, LoginKey } from './modules/auth/index.ts';
import type { GlobalConfig } from './modules/global-config/index.ts';
import type { Notifier } from './notify/notifier.ts';
import type { PushHub } from './push/hub.ts';
import type { GrantCache } from './push/scoped.ts';
import type { SecretBox } from './secrets/index.ts';
import type { SeriesStore } from './series/store.ts';

/**
 * What the composition root (app.ts) builds once and hands to every area: the database, the bus,
 * the push hub and its grant cache, the engines and the shared services (docs/architecture.md).
 */
export interface Kernel {
  app: FastifyInstance;
  db: Db;
  bus: EventBus;
  push: PushHub;
  /** Site grants per user for scoped pushes (forgets a user on `grants.changed`). */
  grants: GrantCache;
  clock: () => number;
  secrets: SecretBox;
  audit: AuditLog;
  access: AccessService;
  /** The typed key/JSON settings of global_config. */
  config: GlobalConfig;
  auth: AuthService;
  loginKey: LoginKey;
  alarmSettings: AlarmSettings;
  alarms: AlarmEngine;
  notifier: Notifier;
  /** Absent in API-only tests (no drivers): areas then answer from the database alone. */
  collector?: Collector | undefined;
  /** The live values: the collector's, with the item states the alarm engine published. */
  live?: Collector | undefined;
  series?: SeriesStore | undefined;
  dataDir: string;
  loginRateLimit: { max: number; timeWindow: number };
}

/**
 * An area of the product declares itself once: its routes and subscriptions (register), and what
 * it runs (start, stop). app.ts registers the areas of areas.ts in order, starts them after the
 * engines and stops them before.
 */
export interface Area {
  name: string;
  register(kernel: Kernel): void | Promise<void>;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}
