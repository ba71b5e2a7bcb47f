import { defineArea } from '../../area.ts';
import { type AuditLog, createAuditLog, registerAuditTrail } from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** The operation log every area writes to. */
    audit: AuditLog;
  }
}

/** The operation log and the shared trail of every successful write (docs/users.md, "Logs"). */
export const area = defineArea({
  name: 'logs',
  provides: ['audit'],
  tables: { operation_logs: { sites: 'global' } },
  create: ({ kernel }) => {
    const audit = createAuditLog(kernel.db, kernel.clock);
    return { provides: { audit }, routes: (app) => registerAuditTrail(app, audit) };
  },
});
