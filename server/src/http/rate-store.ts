import { sql } from 'kysely';
import { type AnyArea, defineArea } from '../area.ts';
import type { Db } from '../db/kysely.ts';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** Windows that ended this long ago are deleted (the longest a route uses is a minute). */
const keepMs = 3_600_000;

/**
 * The count of each route's requests from each address, in PostgreSQL (issue 35, step 1: no state
 * only one process knows; docs/scale.md): with several servers on one database behind a load
 * balancer, a route's limit per address holds across them, where @fastify/rate-limit's own store
 * counted in each process. One statement a request: the window restarts when it has ended, by the
 * database's clock, the same for every server. A store in the plugin's shape (a class made with the
 * plugin's options, `incr`, `read`, `child` per route), as its Redis store is.
 */
export const databaseRateStore = (db: Db) => {
  const nowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  return class DatabaseRateStore {
    constructor(
      _options?: unknown,
      readonly prefix = '',
    ) {}

    incr(key: string, cb: Callback, timeWindow: number) {
      sql<{ hits: number; ttl: number }>`
        insert into rate_limits as r (key, window_start, hits) values (${this.prefix + key}, ${nowMs}, 1)
        on conflict (key) do update set
          hits = case when r.window_start + ${timeWindow} <= ${nowMs} then 1 else r.hits + 1 end,
          window_start = case when r.window_start + ${timeWindow} <= ${nowMs} then ${nowMs} else r.window_start end
        returning hits, r.window_start + ${timeWindow} - ${nowMs} as ttl`
        .execute(db.kysely)
        .then(({ rows }) => cb(null, { current: Number(rows[0]?.hits), ttl: Math.max(0, Number(rows[0]?.ttl)) }))
        .catch((err: Error) => cb(err));
    }

    read(key: string, cb: Callback, timeWindow: number) {
      sql<{ hits: number; ttl: number }>`
        select hits, window_start + ${timeWindow} - ${nowMs} as ttl from rate_limits
        where key = ${this.prefix + key} and window_start + ${timeWindow} > ${nowMs}`
        .execute(db.kysely)
        .then(({ rows }) =>
          cb(null, { current: Number(rows[0]?.hits ?? 0), ttl: Math.max(0, Number(rows[0]?.ttl ?? 0)) }),
        )
        .catch((err: Error) => cb(err));
    }

    /** A route's own store: its counts keyed by the route as well (the plugin hands in `routeInfo`, as its Redis store reads it). */
    child(routeOptions: object) {
      const route = (routeOptions as { routeInfo?: { method: string; url: string } }).routeInfo;
      return new DatabaseRateStore(undefined, `${this.prefix}${route?.method ?? ''}${route?.url ?? ''}-`);
    }
  };
};

/**
 * The table as the composition root declares it on PostgreSQL (app.ts), with the pruning of ended
 * windows every minute (an address that stops calling leaves its row behind).
 */
export const rateLimitsArea = (): AnyArea =>
  defineArea({
    name: 'rate-limits',
    tables: { rate_limits: { sites: 'global', backup: false } },
    create: ({ kernel }) => {
      let timer: ReturnType<typeof kernel.timers.setInterval> | null = null;
      const prune = () =>
        sql`delete from rate_limits where window_start < (extract(epoch from clock_timestamp()) * 1000)::bigint - ${keepMs}`
          .execute(kernel.db.kysely)
          .catch((err) => kernel.log.warn({ err }, 'pruning the rate limits failed'));
      return {
        start: () => {
          timer = kernel.timers.setInterval(prune, 60_000);
        },
        stop: () => {
          kernel.timers.clearInterval(timer);
          timer = null;
        },
      };
    },
  });
