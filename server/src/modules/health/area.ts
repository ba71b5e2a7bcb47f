import { defineArea } from '../../area.ts';
import { registerHealth } from './index.ts';

/** Liveness and readiness (README, "Operational endpoints"): no tables, no grants. */
export const area = defineArea({
  name: 'health',
  create: ({ kernel }) => ({ routes: (app) => registerHealth(app, { db: kernel.db }) }),
});
