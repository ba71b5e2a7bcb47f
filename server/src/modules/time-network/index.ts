import { timeNetworkRoutes as r } from '@sitewatch/contract/time-network';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addRoute } from '../../http/route.ts';
import type { AuthService } from '../auth/index.ts';
import type { AuditLog } from '../logs/index.ts';
import type { NetworkAuthor, NetworkService } from './network.ts';
import type { ServicesControl } from './services.ts';
import type { TimeService } from './time.ts';

/** The menu ids of the pages (docs/menus.md): /setting_time and /setting_IP (002 §2.1). */
export const timeMenu = 416;
export const networkMenu = 417;

const portOf = (addresses: readonly (string | { port: number })[]): number | null => {
  for (const a of addresses) if (typeof a !== 'string' && a.port > 0) return a.port;
  return null;
};

/** The address of this box the caller reached (the socket's local address), and the console's ports. */
const authorFor = (request: FastifyRequest, httpsPort: () => number | null): NetworkAuthor => ({
  consoleAddress: request.socket?.localAddress ?? '127.0.0.1',
  ports: {
    // The app's own listener (plain HTTP); none under inject.
    http: portOf(request.server.addresses()),
    https: httpsPort(),
  },
});

/**
 * The routes of 002 §7.1 `setting/network`, `setting/time`, `setting/time/syncd`,
 * `setting/service/{name}` (docs/time-network.md). Network changes need the verification password;
 * every change is written to the operation log.
 */
export const registerTimeNetwork = (
  app: FastifyInstance,
  deps: {
    time: TimeService;
    network: NetworkService;
    services: ServicesControl;
    auth: Pick<AuthService, 'verifyOwnPassword'>;
    audit: AuditLog;
    /** The HTTPS port the https area asks the listener for, or null when HTTPS is off. */
    httpsPort: () => number | null;
  },
) => {
  const authorOf = (request: FastifyRequest) => authorFor(request, deps.httpsPort);
  const timeView = { menu: timeMenu, func: 'view' } as const;
  const timeEdit = { menu: timeMenu, func: 'edit' } as const;
  const netView = { menu: networkMenu, func: 'view' } as const;
  const netEdit = { menu: networkMenu, func: 'edit' } as const;
  const verify = (request: FastifyRequest, password: string) =>
    deps.auth.verifyOwnPassword(request.principal!, password, { ip: request.ip });

  addRoute(app, r.time, () => deps.time.state(), { permission: timeView });
  addRoute(app, r.syncd, () => deps.time.ntp(), { permission: timeView });
  addRoute(
    app,
    r.setTime,
    async ({ body, request }) => {
      const state = await deps.time.set(body);
      const target = [body.timezone, body.time].filter(Boolean).join(' ');
      await deps.audit.write({ module: 'setting/time', action: 'update', target, success: true }, request);
      return state;
    },
    { permission: timeEdit },
  );
  addRoute(
    app,
    r.setSyncd,
    async ({ body, request }) => {
      const state = await deps.time.setNtp(body);
      await deps.audit.write(
        {
          module: 'setting/time/syncd',
          action: body.enabled ? 'enable' : 'disable',
          target: body.servers.join(' ').slice(0, 200),
          success: true,
        },
        request,
      );
      return state;
    },
    { permission: timeEdit },
  );

  addRoute(app, r.network, ({ request }) => deps.network.state(authorOf(request)), { permission: netView });
  addRoute(
    app,
    r.ip,
    async ({ body, request }) => {
      await verify(request, body.verify_password);
      const state = await deps.network.setIp(body, authorOf(request));
      await deps.audit.write(
        {
          module: 'setting/network/ip',
          action: 'update',
          target: `${body.interface} ${body.ip}/${body.mask} ${body.gateway}`.trim(),
          success: true,
        },
        request,
      );
      return state;
    },
    { permission: netEdit },
  );
  addRoute(
    app,
    r.dns,
    async ({ body, request }) => {
      await verify(request, body.verify_password);
      const state = await deps.network.setDns(body.dns, authorOf(request));
      await deps.audit.write(
        { module: 'setting/network/dns', action: 'update', target: body.dns.join(' '), success: true },
        request,
      );
      return state;
    },
    { permission: netEdit },
  );
  addRoute(
    app,
    r.keep,
    async ({ request }) => {
      const state = await deps.network.keep(authorOf(request));
      await deps.audit.write({ module: 'setting/network/keep', action: 'keep', success: true }, request);
      return state;
    },
    { permission: netEdit },
  );

  addRoute(app, r.services, () => deps.services.list(), { permission: timeView });
  addRoute(
    app,
    r.service,
    async ({ params, body, request }) => {
      const state = await deps.services.act(params.name, body.action);
      await deps.audit.write(
        { module: 'setting/service', action: body.action, target: params.name, success: true },
        request,
      );
      return state;
    },
    { permission: timeEdit },
  );
};
