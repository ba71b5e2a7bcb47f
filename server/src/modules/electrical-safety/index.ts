import { electricalSafetyMenus as menus, electricalSafetyRoutes as r } from '@sitewatch/contract/electrical-safety';
import { checkWrite, itemSource } from '@sitewatch/contract/monitoring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/kysely.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import { createSeriesStore, type SeriesStore } from '../../series/store.ts';
import type { AccessService } from '../access/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { QualityFormulas } from './figures.ts';
import {
  createElectricalSafetyRepository,
  type ElectricalSafetyRepository,
  switchLogAction,
  switchLogModule,
} from './repository.ts';
import { createElectricalSafetyService, type LiveValues } from './service.ts';

export type { QualityFormulas } from './figures.ts';

/** Password hashing of the auth area (argon2id). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/**
 * Wrong verification passwords a user may give in a window before further tries are refused (a
 * stolen session must not guess the switch password; the login throttle's spirit, kept in memory).
 */
export const passwordBudget = { failures: 5, windowSeconds: 900 };
const minPasswordLength = 6;

const parseSource = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

export interface ElectricalSafetyModuleDeps {
  db: Db;
  audit: AuditLog;
  loginKey: { decrypt(ciphertext: string): string | null };
  formulas: QualityFormulas;
  /** Devices that measure only parts of their sites (energy's site-total rule), left out of power totals. */
  partDevices?: (() => Promise<Set<number>>) | undefined;
  passwords: PasswordHasher;
  live?: (LiveValues & { write(itemId: number, value: number): Promise<void> }) | undefined;
  series?: SeriesStore | undefined;
  clock?: () => number;
  access: AccessService;
  /** The area's repository (its `reload` re-reads the cached settings); one over `db` otherwise. */
  repo?: ElectricalSafetyRepository;
}

/**
 * Electrical quality and safety (docs/electrical-safety.md). Reads need a signed-in user and show
 * the caller's sites only; the mapping needs the edit function of /energy_manage/elect_monitor, the
 * settings the edit function of /electricity_safe/switch_opt, and a switch operation its control
 * function, a granted site, switch control enabled and the verification password.
 */
export const registerElectricalSafety = (app: FastifyInstance, deps: ElectricalSafetyModuleDeps) => {
  const store = deps.series ?? createSeriesStore(deps.db);
  const clock = deps.clock ?? Date.now;
  const service = createElectricalSafetyService({
    repo: deps.repo ?? createElectricalSafetyRepository(deps.db, clock),
    formulas: deps.formulas,
    partDevices: deps.partDevices,
    live: deps.live,
    clock,
    rollups: async (itemIds, table, t1, t2) => {
      // What is still buffered is written first, so a reading just taken is in the figures.
      await deps.series?.flush();
      return store.rollups(itemIds, table, t1, t2);
    },
  });
  const sites = (request: FastifyRequest) => deps.access.sites(request);

  const failures = new Map<number, number[]>();
  const recentFailures = (userId: number) => {
    const since = clock() / 1000 - passwordBudget.windowSeconds;
    const list = (failures.get(userId) ?? []).filter((t) => t > since);
    failures.set(userId, list);
    return list;
  };
  /** Checks a verification password against the stored hash within the caller's budget. */
  const checkPassword = async (request: FastifyRequest, encrypted: string | undefined, hash: string) => {
    if (!encrypted) throw badRequest('electricalSafety.errors.passwordEmpty');
    const plain = deps.loginKey.decrypt(encrypted);
    if (plain === null) throw new AppError('decryptFailed');
    if (plain === '') throw badRequest('electricalSafety.errors.passwordEmpty');
    const userId = request.principal?.user_id ?? 0;
    if (recentFailures(userId).length >= passwordBudget.failures)
      throw new AppError('tooManyRequests', 'electricalSafety.errors.tooManyAttempts', {
        minutes: passwordBudget.windowSeconds / 60,
      });
    if (await deps.passwords.verify(hash, plain)) return;
    recentFailures(userId).push(clock() / 1000);
    return 'wrong' as const;
  };

  addRoute(app, r.meters, async ({ query, request }) => service.meters(query, await sites(request)));
  addRoute(
    app,
    r.setMeter,
    async ({ params, body, request }) => service.setMeter(params.id, body, await sites(request)),
    { permission: { menu: menus.monitor, func: 'edit' } },
  );
  addRoute(app, r.resetMeter, async ({ params, request }) => service.resetMeter(params.id, await sites(request)), {
    permission: { menu: menus.monitor, func: 'edit' },
  });
  addRoute(app, r.monitor, async ({ query, request }) => service.monitor(query, await sites(request)));
  addRoute(app, r.analysis, async ({ query, request }) => service.analysis(query, await sites(request)));
  addRoute(app, r.settings, async () => service.publicSettings());
  addRoute(
    app,
    r.saveSettings,
    async ({ body, request }) => {
      const current = await service.settings();
      let { password_hash, password_updated_at } = current;
      if (body.new_password) {
        const plain = deps.loginKey.decrypt(body.new_password);
        if (plain === null) throw new AppError('decryptFailed');
        // Replacing a password needs the one in force (an editor who does not know it cannot take over switches).
        if (current.password_hash) {
          if ((await checkPassword(request, body.old_password, current.password_hash)) === 'wrong')
            throw badRequest('electricalSafety.errors.oldPasswordWrong');
        }
        if ([...plain].length < minPasswordLength)
          throw badRequest('electricalSafety.errors.passwordTooShort', { min: minPasswordLength });
        password_hash = await deps.passwords.hash(plain);
        password_updated_at = Math.floor(clock() / 1000);
      }
      if (body.control_enabled && !password_hash) throw badRequest('electricalSafety.errors.passwordRequired');
      await service.saveSettings({
        control_enabled: body.control_enabled,
        limits: body.limits,
        password_hash,
        password_updated_at,
      });
      await deps.audit.write(
        {
          module: 'setting/power_safety_settings',
          action: 'update',
          target: '',
          success: true,
          ...(body.new_password ? { detail: { code: 'passwordChanged' } } : {}),
        },
        request,
      );
      return service.publicSettings();
    },
    { permission: { menu: menus.switchOpt, func: 'edit' } },
  );
  addRoute(app, r.distribution, async ({ query, request }) => service.distribution(query, await sites(request)));
  addRoute(
    app,
    r.switchOpt,
    async ({ body, request }) => {
      const settings = await service.settings();
      if (!settings.control_enabled) throw conflict('electricalSafety.errors.controlDisabled');
      const target = await service.switchTarget(body.item_id, await sites(request));
      if (!settings.password_hash) throw conflict('electricalSafety.errors.passwordNotSet');
      const entry = { module: switchLogModule, action: switchLogAction, target: String(body.item_id) };
      if ((await checkPassword(request, body.password, settings.password_hash)) === 'wrong') {
        // A wrong password is an attempt at a switch: logged, and nothing is sent to the device.
        await deps.audit.write(
          { ...entry, success: false, detail: { code: 'switchWrongPassword', params: { value: String(body.value) } } },
          request,
        );
        throw badRequest('electricalSafety.errors.passwordWrong');
      }
      if (!target.writable) throw conflict('electricalSafety.errors.notWritable');
      // The register type and scale bound what the device can hold, as for any setpoint.
      const source = itemSource.safeParse(parseSource(target.item.source));
      if (source.success) {
        const fits = checkWrite(source.data, body.value);
        if (!fits.ok)
          throw fits.binary
            ? badRequest('monitoring.errors.writeBinary')
            : badRequest('monitoring.errors.writeRange', { type: fits.type, min: fits.min, max: fits.max });
      }
      if (!deps.live) throw conflict('monitoring.errors.collectorOff');
      try {
        // The monitoring control path: the collector writes through the device's driver.
        await deps.live.write(target.item.id, body.value);
      } catch (err) {
        const error = conflict('monitoring.errors.writeFailed', {
          reason: err instanceof Error ? err.message.slice(0, 200) : '',
        });
        await deps.audit.write({ ...entry, success: false, detail: error.refusedWrite(body.value) }, request);
        throw error;
      }
      await deps.audit.write({ ...entry, success: true, detail: String(body.value) }, request);
      return { item_id: target.item.id, value: body.value };
    },
    { permission: { menu: menus.switchOpt, func: 'control' } },
  );
  addRoute(app, r.switchLog, async ({ query, request }) => service.switchLog(query, await sites(request)));
  addRoute(app, r.overview, async ({ request }) => service.overview(await sites(request)));
};
