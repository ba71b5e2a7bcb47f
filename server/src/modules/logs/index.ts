import { nowSeconds } from '@sitewatch/contract';
import {
  encodeOperationLogDetail,
  type OperationLogAction,
  type OperationLogDetail,
  type OperationLogModule,
} from '@sitewatch/contract/operation-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';

/** One entry: codes named in `@sitewatch/contract/operation-log`, so a reader sees names in their language. */
export interface AuditEntry {
  module: OperationLogModule;
  action: OperationLogAction;
  target?: string;
  success: boolean;
  /** A coded detail (words, shown in the reader's language), or data stored as it is. */
  detail?: OperationLogDetail;
  user_id?: number | null;
  user_name?: string;
  ip?: string;
}

/**
 * The operation log: one shared writer that every module calls for create, update, delete, login
 * and other sensitive actions (who, what, when, from where, result).
 */
export interface AuditLog {
  write(entry: AuditEntry, request?: FastifyRequest): Promise<void>;
  /** Whether a module already wrote the log for this request. */
  wrote(request: FastifyRequest): boolean;
}

export const createAuditLog = (db: Db, clock: () => number = Date.now): AuditLog => {
  const written = new WeakSet<FastifyRequest>();
  return {
    wrote: (request) => written.has(request),
    async write(entry, request) {
      if (request) written.add(request);
      await db.kysely
        .insertInto('operation_logs')
        .values({
          time: nowSeconds(clock()),
          user_id: entry.user_id ?? request?.principal?.user_id ?? null,
          user_name: (entry.user_name ?? request?.principal?.user_name ?? '').slice(0, 64),
          ip: (entry.ip ?? request?.ip ?? '').slice(0, 64),
          module: entry.module,
          action: entry.action,
          target: (entry.target ?? '').slice(0, 200),
          result: entry.success ? 1 : 0,
          detail: encodeOperationLogDetail(entry.detail).slice(0, 2000),
        })
        .execute();
    },
  };
};

/** Routes whose modules write a more telling entry themselves (sign-in, own account, settings, LDAP, backup). */
const selfAudited = [
  '/api/v1/pub/',
  '/api/v1/user/',
  '/api/v1/setting/gc',
  '/api/v1/setting/ldap',
  '/api/v1/setting/maintain/',
];
const actions: Record<string, OperationLogAction> = {
  POST: 'create',
  PUT: 'update',
  PATCH: 'update',
  DELETE: 'delete',
};

/**
 * The module code the trail writes for a route (its path without parameters), or null when the
 * trail does not log the route (not a write, not under /api/v1/, or its module logs itself).
 */
export const trailModule = (method: string, url: string): string | null => {
  if (!actions[method] || !url.startsWith('/api/v1/')) return null;
  if (selfAudited.some((prefix) => url.startsWith(prefix))) return null;
  return url
    .slice('/api/v1/'.length)
    .replace(/\/:\w+/g, '')
    .slice(0, 64);
};

/**
 * The shared trail: every successful create, update and delete of every module is in the
 * operation log, whether or not the module wrote a more telling entry itself. Refused requests
 * change nothing, so they write nothing either. The entry is written before the answer is sent, so
 * an acknowledged change is always in the log (and a reader right after the answer finds it).
 */
export const registerAuditTrail = (app: FastifyInstance, audit: AuditLog) => {
  app.addHook('onSend', async (request, reply) => {
    const action = actions[request.method];
    const module = trailModule(request.method, request.routeOptions.url ?? '');
    if (!action || module === null || reply.statusCode >= 400 || !request.principal || audit.wrote(request)) return;
    const params = (request.params ?? {}) as Record<string, unknown>;
    const body = (request.body ?? {}) as Record<string, unknown>;
    // The record's id where the route has one (a device's log finds its devices' and items' entries
    // by it: device-view/repository.ts), else the name the request gives.
    const target = params.id ?? params.code ?? (typeof body.name === 'string' ? body.name : '');
    // Every code the trail can write is named (server/test/operation-log-names.int.test.ts).
    await audit
      .write({ module: module as OperationLogModule, action, target: String(target), success: true }, request)
      .catch((err) => {
        request.log.error({ err }, 'operation log write failed');
      });
  });
};
