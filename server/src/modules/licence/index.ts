import { sharedText } from '@sitewatch/contract';
import { licenceRoutes } from '@sitewatch/contract/licence';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { requestLanguage } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { changelog } from './changelog.ts';
import type { CountedTable, LicenceService } from './service.ts';
import { componentVersions, productVersion } from './version.ts';

export { type CountedTable, createLicenceService, type LicenceService } from './service.ts';

/** Configuration writes an expired licence refuses: every write under setting/ (docs/licence.md). */
const configurationPrefix = '/api/v1/setting/';

const categoryNames = async (db: Db) =>
  db.kysely.selectFrom('categorys').select(['code', 'name', 'name_key']).orderBy('weight', 'desc').execute();

/**
 * The guard of every write: an expired licence refuses configuration changes (collecting, alarms
 * and their handling go on); a route that adds counted rows is refused when it would pass a quota.
 * Both before the handler: nothing is written.
 */
const guardWrites = (app: FastifyInstance, licence: LicenceService, db: Db, counted: readonly CountedTable[]) => {
  const addedBy = (key: string) => counted.filter((c) => c.addedBy.includes(key));
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.routeOptions.config?.reads) return;
    const url = request.routeOptions.url ?? '';
    const adds = addedBy(`${request.method} ${url}`);
    const configures = url.startsWith(configurationPrefix);
    if (!configures && adds.length === 0) return;
    if (configures && (await licence.blocksConfiguration())) throw new AppError('forbidden', 'licence.expiredBlocks');
    if (adds.length === 0 || !(await licence.hasQuotas())) return;
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const c of adds) {
      const counter = c.adds?.[`${request.method} ${url}`];
      if (counter) {
        const params = (request.params ?? {}) as Record<string, string>;
        await checkCounted(request, c, await counter({ body, params, db }));
        continue;
      }
      const n = typeof body.count === 'number' && body.count > 0 ? body.count : 1;
      const category = c.category && typeof body[c.category] === 'string' ? (body[c.category] as string) : undefined;
      await check(request, c, n, category);
    }
  });
  /** One check, its category named in the reader's language, never by its code. */
  const check = async (request: FastifyRequest, c: CountedTable, n: number, category?: string) => {
    try {
      await licence.checkAdd(c.counts, n, category);
    } catch (error) {
      if (error instanceof AppError && category && error.values.category === category) {
        const found = (await categoryNames(db)).find((r) => r.code === category);
        const name = found?.name || (found ? sharedText(requestLanguage(request), found.name_key) : category);
        throw new AppError(error.name, error.key, { ...error.values, category: name });
      }
      throw error;
    }
  };
  /** What an area counted: the sum against the quota, then each category against its own. */
  const checkCounted = async (request: FastifyRequest, c: CountedTable, byCategory: Record<string, number>) => {
    const total = Object.values(byCategory).reduce((sum, n) => sum + n, 0);
    if (total === 0) return;
    await check(request, c, total);
    if (!c.category) return;
    for (const [category, n] of Object.entries(byCategory)) if (category && n > 0) await check(request, c, n, category);
  };
};

export const registerLicence = (
  app: FastifyInstance,
  deps: { licence: LicenceService; db: Db; counted: readonly CountedTable[] },
) => {
  const { licence, db } = deps;
  guardWrites(app, licence, db, deps.counted);
  // Public: the login page shows the product dialog and activates (000 §2.1, #type=active).
  addRoute(app, licenceRoutes.get, () => licence.info(), { auth: false });
  addRoute(app, licenceRoutes.activate, ({ body }) => licence.activate(body.code), {
    auth: false,
    messageKey: 'licence.activated',
    rateLimit: { max: 20, timeWindow: 60_000 },
  });
  addRoute(
    app,
    licenceRoutes.categories,
    async ({ request }) => {
      const language = requestLanguage(request);
      const data = await licence.categories(
        (await categoryNames(db)).map((c) => ({
          code: c.code,
          name: c.name || sharedText(language, c.name_key),
          name_key: c.name_key,
        })),
      );
      return { total: data.length, data };
    },
    { auth: false },
  );
  addRoute(
    app,
    licenceRoutes.softwareVersion,
    async () => ({
      ...productVersion(),
      components: componentVersions(),
      licence: await licence.info(),
      changelog: changelog(),
    }),
    { permission: { menu: 415 } },
  );
};
