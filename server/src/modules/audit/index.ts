import { nowSeconds } from '@sitewatch/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';

export interface AuditEntry {
  module: string;
  action: string;
  target?: string;
  success: boolean;
  detail?: string;
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
}

export const createAuditLog = (db: Db, clock: () => number = Date.now): AuditLog => ({
  async write(entry, request) {
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
        detail: (entry.detail ?? '').slice(0, 2000),
      })
      .execute();
  },
});
