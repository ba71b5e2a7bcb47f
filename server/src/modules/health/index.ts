import { healthRoutes } from '@sitewatch/contract/health';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { AppError } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';

export const registerHealth = (app: FastifyInstance, deps: { db: Db }) => {
  const uptime_s = () => Math.round(process.uptime());
  addRoute(app, healthRoutes.healthz, () => ({ status: 'ok' as const, uptime_s: uptime_s() }), { auth: false });
  addRoute(
    app,
    healthRoutes.readyz,
    async () => {
      try {
        await deps.db.ping();
      } catch {
        throw new AppError('unavailable');
      }
      return { status: 'ok' as const, uptime_s: uptime_s(), database: deps.db.dialect };
    },
    { auth: false },
  );
};
