import { z } from 'zod';
import { defineRoute } from './route.ts';

export const healthStatus = z.object({ status: z.enum(['ok', 'unavailable']), uptime_s: z.number() });

export const healthRoutes = {
  healthz: defineRoute({
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tags: ['health'],
    response: healthStatus,
  }),
  readyz: defineRoute({
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: the database is reachable',
    tags: ['health'],
    response: healthStatus.extend({ database: z.enum(['sqlite', 'postgres']) }),
  }),
};
