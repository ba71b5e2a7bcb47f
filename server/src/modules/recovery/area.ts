import { defineArea } from '../../area.ts';
import { createRecoveryService, type RecoveryService, registerRecovery } from './index.ts';

declare module '../../area.ts' {
  interface Services {
    /** The administrator's recovery: codes, tickets (docs/recovery.md). */
    recovery: RecoveryService;
  }
}

/**
 * The recovery of a locked-out administrator (002 §7.4 pub/login/root_login, user/rest_password;
 * docs/recovery.md): a one-time code made on the box by `npm run recovery-code`.
 */
export const area = defineArea({
  name: 'recovery',
  needs: ['auth', 'audit'],
  provides: ['recovery'],
  create: ({ kernel, needs }) => {
    const recovery = createRecoveryService({
      dataDir: kernel.config.dataDir,
      clock: kernel.clock,
      auth: needs.auth,
      audit: needs.audit,
    });
    return { provides: { recovery }, routes: (app) => registerRecovery(app, recovery) };
  },
});
