import { firewallRoutes as r } from '@sitewatch/contract/firewall';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addRoute } from '../../http/route.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { Author, FirewallService } from './service.ts';

/** The firewall page /firewall (menu 406): view reads, edit changes. */
export const firewallMenu = 406;
const view = { menu: firewallMenu, func: 'view' } as const;
const edit = { menu: firewallMenu, func: 'edit' } as const;

/** The caller's address and the port they reached the console on (Host's port when the socket has none). */
export const authorOf = (request: FastifyRequest): Author => {
  const hostPort = Number(/:(\d+)$/.exec(String(request.headers.host ?? ''))?.[1]);
  return { address: request.ip, port: request.socket?.localPort || hostPort || 80 };
};

/**
 * The firewall routes (002 §7.2 `setting/maintain/firewall/*`; docs/firewall.md). Changes need the
 * verification password (002 §5.3) and are written to the operation log with what they did.
 */
export const registerFirewall = (
  app: FastifyInstance,
  deps: { service: FirewallService; auth: Pick<AuthService, 'verifyOwnPassword'>; audit: AuditLog },
) => {
  const { service } = deps;
  const verify = (request: FastifyRequest, password: string) =>
    deps.auth.verifyOwnPassword(request.principal!, password, { ip: request.ip });

  addRoute(app, r.ports, ({ request }) => service.state(request.ip), { permission: view });
  addRoute(app, r.openPorts, () => service.openPorts(), { permission: view });

  addRoute(
    app,
    r.save,
    async ({ body, request }) => {
      await verify(request, body.verify_password);
      const state = await service.save(
        {
          rules: body.rules.map(({ id: _id, ...rule }) => rule),
          ids: body.rules.map((rule) => rule.id),
          confirm: body.confirm,
          confirm_lockout: body.confirm_lockout,
        },
        authorOf(request),
      );
      await deps.audit.write(
        {
          module: 'setting/maintain/firewall/ports',
          action: 'update',
          target: `${state.rules.length}`,
          success: true,
          detail: { code: 'rows', params: { count: state.rules.length } },
        },
        request,
      );
      return state;
    },
    { permission: edit },
  );

  addRoute(
    app,
    r.status,
    async ({ params, body, request }) => {
      await verify(request, body.verify_password);
      const enabled = params.Disabled === '0';
      const state = await service.setEnabled(enabled, body.confirm, body.confirm_lockout, authorOf(request));
      await deps.audit.write(
        { module: 'setting/maintain/firewall/status', action: enabled ? 'enable' : 'disable', success: true },
        request,
      );
      return state;
    },
    { permission: edit },
  );

  addRoute(
    app,
    r.keep,
    async ({ request }) => {
      const state = await service.keep(authorOf(request));
      await deps.audit.write({ module: 'setting/maintain/firewall/keep', action: 'keep', success: true }, request);
      return state;
    },
    { permission: edit },
  );
};
