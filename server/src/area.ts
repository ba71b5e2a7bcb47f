import type { Language } from '@sitewatch/contract';
import type { BusEventName, ConfigArea } from '@sitewatch/contract/events';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import type { EventBus } from './bus/bus.ts';
import type { Timers } from './clock/timers.ts';
import type { Db } from './db/kysely.ts';
import type { Database } from './db/schema.ts';
import type { GlobalConfigDefaults } from './modules/global-config/index.ts';

/**
 * What a demo estate may show on purpose besides a healthy installation (docs/monitoring.md, "Demo
 * estate"): `faults`, the occasional realistic fault (a door, a leak, a compressor, a link).
 */
export const demoScenarios = ['faults'] as const;
export type DemoScenario = (typeof demoScenarios)[number];

/** Start-up facts (main.ts reads them from the environment; tests hand in their own). */
export interface ServerConfig {
  /** Where the SQLite database, keys and uploaded files live. */
  dataDir: string;
  mode: 'production' | 'test' | 'development';
  /** Requests a minute per address on each login route. */
  loginRateLimit: { max: number; timeWindow: number };
  /** Global settings before an administrator changes them (main.ts turns the captcha off in test mode). */
  globalConfigDefaults?: GlobalConfigDefaults | undefined;
  /** The vendor's licence public key (PEM) and trial length; the licence area's own by default (docs/licence.md). */
  licence?: { publicKey?: string; trialDays?: number } | undefined;
}

/** What first-start work reports (main.ts logs it and shows the banner). */
export interface PrepareReport {
  /** Lines for a person at a terminal (the first administrator password). */
  banner?: string[];
  info?: { msg: string; obj?: object }[];
  warnings?: string[];
}

/** What every area receives: the database, the bus, the clock and its timers, the log and the start-up facts. */
export interface Kernel {
  db: Db;
  bus: EventBus;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Every timer an area runs (its schedules, its fills): a test's manual clock drives them. */
  timers: Timers;
  log: FastifyBaseLogger;
  config: ServerConfig;
}

/**
 * The services areas provide to each other, by name. An area that provides one adds its name and
 * type here by declaration merging, in its own `area.ts`:
 *
 * @example
 * declare module '../../area.ts' {
 *   interface Services { duty: DutyService }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each area's declaration merging
export interface Services {}

/**
 * Families that many areas contribute to and one reads (password checkers, settings guards …): the
 * reader sees every contribution once all areas are made, so a family never forms a cycle.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each area's declaration merging
export interface Families {}

export type ServiceName = keyof Services;
export type FamilyName = keyof Families;
export type TableName = keyof Database;

/**
 * How a row of a table belongs to sites (the site dimension of authorization, generated from these):
 * - `{ site }`: a column holding a site (device group) id (`id` for device_groups itself); null where
 *   a row belongs to no one site (a shift of every site, a memo of its author: the area says which);
 * - `{ device }` / `{ item }`: a column holding a device / item id, whose site is the row's;
 * - `{ sites }`: a JSON array of site ids (empty or null: every site, only for those granted all);
 * - `{ parent, column }`: the row belongs to a row of another declared table;
 * - `'global'`: not site data (users, roles, settings, logs of the system).
 */
export type SiteMapping =
  | { site: string }
  | { device: string }
  | { item: string }
  | { sites: string }
  | { parent: TableName; column: string }
  | 'global';

export interface TableDeclaration {
  sites: SiteMapping;
  /** The `config.changed` topic a write of this table announces (consumers keep it in memory). */
  announces?: ConfigArea;
  /**
   * Whether the table belongs in a backup: true by default (the configuration package); false for
   * sessions and other transient rows; 'history' for the history (series) package (docs/maintenance.md).
   */
  backup?: boolean | 'history';
  /** Rows the licence counts against a quota (docs/licence.md): read by the licence area, never imported. */
  quota?: QuotaDeclaration;
}

/**
 * A licence quota over a table's rows: `counts` names the quota; `category` the column holding a
 * row's category code (per-category quotas); `addedBy` the routes (`METHOD /api/v1/…`) that add
 * rows, each adding one, or the body's `count` where the route copies.
 */
export interface QuotaDeclaration {
  counts: 'devices' | 'items';
  category?: string;
  addedBy: readonly string[];
  /**
   * How many rows a route of `addedBy` adds, by category code ('' for none), where "one, or the
   * body's `count`" is not right (a device made from a template, a copied site, an imported point
   * table): the owning area counts, before its handler runs; the licence checks the sum.
   */
  adds?: Readonly<Record<string, (call: QuotaCall) => Promise<Record<string, number>>>>;
}

/** A request a quota counter reads: its body as sent (checked by the handler after), params and the database. */
export interface QuotaCall {
  body: Record<string, unknown>;
  params: Record<string, string>;
  db: Db;
}

/** A secret inside stored JSON: the fields sealed at rest, in a column or under one settings key. */
export type SecretDeclaration =
  | { table: TableName; column: string; fields: readonly string[] }
  | { table: 'global_config' | 'alarm_settings' | 'module_settings'; key: string; fields: readonly string[] };

/** A page of the menu catalogue (docs/menus.md) and its functions; ids are fixed so grants survive upgrades. */
export interface MenuDeclaration {
  id: number;
  parent_id: number;
  name_key: string;
  url?: string;
  icon: string;
  weight: number;
  functions?: readonly string[];
}

/** What an area's factory returns: the services it provides, its contributions, routes, start and stop. */
export interface AreaParts<P extends ServiceName> {
  provides?: { [K in P]: Services[K] };
  contributes?: { [F in FamilyName]?: Families[F][] };
  /** First-start work on this database, before the app listens (`Sitewatch.prepare`, main.ts only). */
  prepare?(): Promise<PrepareReport | undefined>;
  /** Registers the area's routes (and request hooks of its own). */
  routes?(app: FastifyInstance): void | Promise<void>;
  /** After every area is made and the app listens; the engines run already. */
  start?(): void | Promise<void>;
  /** On close, before the engines stop, in the reverse order of start. */
  stop?(): void | Promise<void>;
  /**
   * Resolves when the area's own work in flight has drained, true when it had to wait
   * (`Sitewatch.settled` asks every part again until none waited; docs/testing.md). `between`: the
   * test clock settles between two of its timers, and work a timer of the area's own will do (the
   * series store's buffered samples, flushed every second) waits for that timer, as in production.
   */
  settled?(between?: boolean): Promise<boolean>;
  /**
   * After a restore replaced the rows of the database (docs/maintenance.md): re-reads whatever the
   * area keeps in memory of them (cached settings, an engine's open alarms). The restore awaits it
   * before it answers, so the app answers the restored state without a restart.
   */
  reload?(): Promise<void>;
}

/** What an area's factory may use besides the kernel. */
export interface AreaContext<N extends ServiceName> {
  kernel: Kernel;
  /** The services named in `needs`, made before this area. */
  needs: { [K in N]: Services[K] };
  /** Every contribution to a family; callable once all areas are made (in handlers, start, timers). */
  all<F extends FamilyName>(family: F): Families[F][];
}

/**
 * An area of the product, declared once (docs/architecture.md, "Areas"): what the composition root,
 * the backup, the licence, the authorization matrix and the fuzz test read of it.
 */
export interface AreaDeclaration<N extends ServiceName = ServiceName, P extends ServiceName = ServiceName> {
  /** One name on every side: server module, contract file, web feature, docs. */
  name: string;
  needs?: readonly N[];
  provides?: readonly P[];
  /** Every table the area owns, with how its rows map to sites. */
  tables?: { [T in TableName]?: TableDeclaration };
  /** Keys of the area's settings (key/JSON stores) and their shapes. */
  settings?: Record<string, ZodType>;
  secrets?: readonly SecretDeclaration[];
  /** Folders under the data dir holding the area's uploaded files. */
  uploads?: readonly string[];
  menus?: readonly MenuDeclaration[];
  /** Bus events the area publishes and consumes (config topics as `config.changed:<topic>`). */
  events?: {
    publishes?: readonly (BusEventName | `config.changed:${ConfigArea}`)[];
    consumes?: readonly (BusEventName | `config.changed:${ConfigArea}`)[];
  };
  /**
   * A demo estate's share of this area, on an empty database (SITEWATCH_DEMO), named in `language`,
   * with the scenarios asked for (none: a healthy installation that raises no alarm by itself).
   */
  seed?(kernel: Kernel, language: Language, scenarios: readonly DemoScenario[]): Promise<object | null>;
  /** Areas whose demo share this one's stands on (energy's meters are monitoring's demo devices). */
  seedAfter?: readonly string[];
  /** Per server: builds the area's own state (no module-level registries) and what it offers. */
  create(context: AreaContext<N>): AreaParts<P> | Promise<AreaParts<P>>;
}

/** Declares an area; the types check that it provides what it says and uses only what it needs. */
export const defineArea = <N extends ServiceName = never, P extends ServiceName = never>(
  declaration: AreaDeclaration<N, P>,
): AreaDeclaration<N, P> => declaration;

// biome-ignore lint/suspicious/noExplicitAny: a list of areas of any needs and provisions
export type AnyArea = AreaDeclaration<any, any>;

/**
 * Every declaration the server was made of (engines and areas), given by the composition root as the
 * service `declarations`: what spans areas (backup) reads them without importing any area.
 */
export interface DeclarationCatalogue {
  all(): readonly AnyArea[];
  /** Calls every made area's `reload` in the order they were made (after a restore). */
  reload(): Promise<void>;
}

declare module './area.ts' {
  interface Services {
    declarations: DeclarationCatalogue;
  }
}
