import { systemRoutes as r, systemMenus } from '@sitewatch/contract/system';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { addRoute } from '../../http/route.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { SystemService } from './service.ts';
import type { Tools } from './tools.ts';

export interface SystemRouteDeps {
  service: SystemService;
  tools: Tools;
  audit: AuditLog;
  auth: AuthService;
}

/**
 * The system pages' routes (docs/system.md): the information page for whoever holds its menu, and
 * everything that touches the host or its secrets (tools, debug log, SM4 key) for administrators
 * only, audited.
 */
export const registerSystem = (app: FastifyInstance, deps: SystemRouteDeps) => {
  const { service, tools, audit } = deps;
  const admin = { permission: 'admin' as const };

  addRoute(app, r.sysInformation, () => service.information(), {
    permission: { menu: systemMenus.sysInformation },
  });

  addRoute(app, r.toolsState, () => tools.state(), admin);
  const logged = async (request: FastifyRequest, tool: 'ping' | 'traceroute' | 'port', target: string, ok: boolean) =>
    audit.write({ module: `setting/maintain/tools/${tool}`, action: 'test', target, success: ok }, request);
  // A refused run (bad address, refused by policy, tool missing) is logged too: who probed what.
  const run = async <T extends { success: boolean }>(
    request: FastifyRequest,
    tool: 'ping' | 'traceroute' | 'port',
    target: string,
    work: () => Promise<T>,
  ) => {
    try {
      const result = await work();
      await logged(request, tool, target, result.success);
      return result;
    } catch (err) {
      await logged(request, tool, target, false);
      throw err;
    }
  };
  addRoute(
    app,
    r.ping,
    ({ body, request }) => run(request, 'ping', body.host, () => tools.ping(body.host, body.count)),
    admin,
  );
  addRoute(
    app,
    r.traceroute,
    ({ body, request }) => run(request, 'traceroute', body.host, () => tools.traceroute(body.host, body.max_hops)),
    admin,
  );
  addRoute(
    app,
    r.portCheck,
    ({ body, request }) =>
      run(request, 'port', `${body.host}:${body.port}`, () => tools.portCheck(body.host, body.port, body.timeout_ms)),
    admin,
  );

  addRoute(app, r.debugLogState, () => service.debugLogState(), admin);
  addRoute(
    app,
    r.debugLog,
    async ({ query, request, reply }) => {
      const { body, encrypted, bytes } = await service.debugLog(query.mb);
      await audit.write(
        {
          module: 'setting/maintain/debug_log',
          action: 'export',
          target: '',
          success: true,
          detail: { code: encrypted ? 'debugLogEncrypted' : 'debugLog', params: { bytes } },
        },
        request,
      );
      const name = encrypted ? 'sitewatch-debug.log.sm4' : 'sitewatch-debug.log';
      await reply
        .header('content-type', encrypted ? 'application/octet-stream' : 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(body);
      return null;
    },
    admin,
  );

  addRoute(app, r.sm4, () => service.sm4(), admin);
  addRoute(
    app,
    r.saveSm4,
    async ({ body, request }) => {
      const principal = request.principal;
      if (!principal) throw new AppError('notLoggedIn');
      await deps.auth.verifyOwnPassword(principal, body.verify_password, { ip: request.ip });
      const before = await service.sm4();
      const answer = await service.saveSm4(body);
      const keyChanged = answer.fingerprint !== before.fingerprint;
      await audit.write(
        {
          module: 'setting/maintain/sm4',
          action: 'update',
          target: '',
          success: true,
          detail: {
            code: keyChanged
              ? answer.enabled
                ? 'sm4KeyEnabled'
                : 'sm4KeyDisabled'
              : answer.enabled
                ? 'sm4Enabled'
                : 'sm4Disabled',
          },
        },
        request,
      );
      return answer;
    },
    admin,
  );
};
