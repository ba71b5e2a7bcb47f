import { createReadStream } from 'node:fs';
import { ftpRoutes as f, installKeyRoutes as k, maintenanceRoutes as r } from '@sitewatch/contract/maintenance';
import type { OperationLogAction } from '@sitewatch/contract/operation-log';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addRoute } from '../../http/route.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { FtpSync } from './ftp.ts';
import type { InstallKey } from './install-key.ts';
import type { MaintenanceService } from './service.ts';
import { registerBackupUpload } from './upload.ts';

interface Deps {
  service: MaintenanceService;
  ftp: FtpSync;
  installKey: InstallKey;
  auth: Pick<AuthService, 'verifyOwnPassword'>;
  audit: AuditLog;
  /** After the schedule's settings change. */
  reschedule(): Promise<void>;
}

/** The backup routes of 002 §7.2; every one is the administrator's (docs/maintenance.md). */
export const registerMaintenance = (app: FastifyInstance, deps: Deps) => {
  const { service, audit } = deps;
  const admin = { permission: 'admin' as const };
  const log = (request: FastifyRequest, action: OperationLogAction, target: string, success = true, detail?: string) =>
    audit.write(
      {
        module: 'maintenance',
        action,
        target,
        success,
        ...(detail ? { detail: detail.slice(0, 500) } : {}),
        user_id: request.principal?.user_id ?? null,
        user_name: request.principal?.user_name ?? '',
        ip: request.ip,
      },
      request,
    );

  addRoute(
    app,
    r.list,
    async ({ query }) => {
      const data = service.list(query.kind);
      return { total: data.length, data };
    },
    admin,
  );
  addRoute(
    app,
    r.create,
    async ({ body, request }) => {
      const made = await service.create(body.kind);
      await log(request, 'backup', made.filename);
      return made;
    },
    admin,
  );
  addRoute(
    app,
    r.remove,
    async ({ body, request }) => {
      await service.remove(body.filename);
      await log(request, 'delete', body.filename);
      return null;
    },
    admin,
  );
  addRoute(
    app,
    r.restore,
    async ({ body, request }) => {
      await deps.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      try {
        const done = await service.restore(service.fileOf(body.filename));
        await log(request, 'restore', body.filename, true, JSON.stringify(done));
        return done;
      } catch (err) {
        await log(request, 'restore', body.filename, false, err instanceof Error ? err.message : String(err));
        throw err;
      }
    },
    admin,
  );
  registerBackupUpload(app, { service, audit: (request, target, ok) => log(request, 'upload', target, ok) });
  addRoute(app, r.autoSetting, () => service.autoSettings(), admin);
  addRoute(
    app,
    r.saveAutoSetting,
    async ({ body, request }) => {
      await service.saveAutoSettings(body);
      await deps.reschedule();
      await log(request, 'update', 'auto_setting');
      return null;
    },
    admin,
  );
  addRoute(app, r.latest, () => service.latest(), admin);
  addRoute(
    app,
    r.closeLatest,
    async ({ request }) => {
      await service.closeLatest();
      await log(request, 'update', 'lastest_event');
      return null;
    },
    admin,
  );
  addRoute(
    app,
    r.download,
    async ({ query, reply }) => {
      const file = service.fileOf(query.filename);
      return reply
        .header('content-type', 'application/x-tar')
        .header('content-disposition', `attachment; filename="${query.filename}"`)
        .send(createReadStream(file));
    },
    admin,
  );
  // FTP sync (002 §5.3, §7.2 `ftp`; docs/maintenance.md).
  const { ftp } = deps;
  addRoute(app, f.get, () => ftp.settings(), admin);
  addRoute(
    app,
    f.save,
    async ({ body, request }) => {
      await ftp.save(body);
      await log(request, 'update', 'ftp');
      return null;
    },
    admin,
  );
  addRoute(
    app,
    f.test,
    // A check that changes nothing: answered, not logged.
    () => ftp.test(),
    admin,
  );
  addRoute(app, f.list, () => ftp.list(), admin);
  addRoute(
    app,
    f.sync,
    async ({ body, request }) => {
      const done = await ftp.sync(service.fileOf(body.filename));
      await log(request, 'upload', body.filename, done.ok, done.detail);
      return done;
    },
    admin,
  );
  addRoute(app, f.records, async () => ({ data: await ftp.records() }), admin);
  // The install key (docs/maintenance.md "The install key"): both behind the verification password, audited.
  addRoute(
    app,
    k.export,
    async ({ body, request }) => {
      await deps.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      const file = deps.installKey.export(body.passphrase);
      await log(request, 'export', 'secret_key');
      return { filename: 'sitewatch-secret-key.json', file };
    },
    admin,
  );
  addRoute(
    app,
    k.import,
    async ({ body, request }) => {
      await deps.auth.verifyOwnPassword(request.principal!, body.verify_password, { ip: request.ip });
      try {
        const done = await deps.installKey.import(body.file, body.passphrase);
        await log(request, 'import', 'secret_key', true, JSON.stringify(done));
        return done;
      } catch (err) {
        await log(request, 'import', 'secret_key', false, err instanceof Error ? err.message : String(err));
        throw err;
      }
    },
    admin,
  );
};
