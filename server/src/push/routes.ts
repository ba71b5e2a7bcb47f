import websocket from '@fastify/websocket';
import { nowSeconds } from '@sitewatch/contract';
import { type PushServerMessage, pushClientMessage, pushPath } from '@sitewatch/contract/push';
import type { FastifyInstance } from 'fastify';
import { realTimers, type Timers } from '../clock/timers.ts';
import type { Authenticator } from '../http/auth.ts';
import type { PushClient, PushHub } from './hub.ts';

/** A socket that has not sent a valid `auth` message within this time is closed. */
const authTimeoutMs = 10_000;
const maxMessageBytes = 4096;
/**
 * How often every socket's session is re-checked. A revoked session's sockets must close within a
 * second; a 1 s sweep only met that when the query and the close were instant (a loaded CI machine
 * took 1.5 s), so the sweep runs four times a second. It is one indexed read of the open sockets'
 * sessions, and none at all while no socket is open.
 */
const sessionCheckMs = 250;

/**
 * The push channel at /api/v1/ws. A browser cannot set an Authorization header on a WebSocket,
 * and a token in the URL would end up in logs, so the first message carries the bearer token.
 */
export const registerPushChannel = async (
  app: FastifyInstance,
  hub: PushHub,
  authenticator: Authenticator,
  time: { timers?: Timers; clock?: () => number } = {},
) => {
  const { timers = realTimers, clock = Date.now } = time;
  await app.register(websocket, {
    options: { maxPayload: maxMessageBytes },
    // A frame over the size limit or another protocol error (ws codes WS_ERR_*) is the client's
    // fault, already answered with 1009/1002: noted at debug, not logged with a stack each time.
    errorHandler: (error, socket, request) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_')) request.log.debug({ code }, 'push socket closed');
      else request.log.error(error);
      socket.terminate();
    },
  });
  // Revocation (logout, disable, lock, block, password change, another terminal, idle) reaches open
  // sockets: once a second, one batched read-only query re-checks the sessions of all sockets.
  const check = authenticator.liveSessions?.bind(authenticator);
  if (check) {
    let running = false;
    const sweep = async () => {
      const clients = hub.clients();
      if (running || clients.length === 0) return;
      running = true;
      try {
        const live = await check([...new Set(clients.map((c) => c.principal.session_id))]);
        for (const c of clients) {
          if (live.has(c.principal.session_id)) continue;
          c.send(JSON.stringify({ type: 'error', code: -2, message: 'not logged in' } satisfies PushServerMessage));
          c.close?.(4401, 'not logged in');
        }
      } catch (err) {
        app.log.warn({ err }, 'push session check failed');
      } finally {
        running = false;
      }
    };
    const timer = timers.setInterval(sweep, sessionCheckMs);
    timer.unref();
    app.addHook('onClose', async () => timers.clearInterval(timer));
  }
  app.get(pushPath, { websocket: true, schema: { hide: true }, config: { auth: false } }, (socket, request) => {
    const send = (message: PushServerMessage) => socket.send(JSON.stringify(message));
    let remove: (() => void) | null = null;
    let client: PushClient | null = null;
    const timer = timers.setTimeout(() => socket.close(4401, 'auth timeout'), authTimeoutMs);
    socket.on('message', async (raw: Buffer) => {
      let parsed: ReturnType<typeof pushClientMessage.safeParse>;
      try {
        parsed = pushClientMessage.safeParse(JSON.parse(raw.toString('utf8')));
      } catch {
        return send({ type: 'error', code: 40001, message: 'invalid json' });
      }
      if (!parsed.success) return send({ type: 'error', code: 40000, message: 'invalid message' });
      const message = parsed.data;
      if (message.type === 'ping') return send({ type: 'pong', server_time: nowSeconds(clock()) });
      if (message.type === 'watch') {
        if (client) client.watch = message.site_ids;
        return;
      }
      const result = await authenticator.authenticate(message.token, request).catch(() => null);
      const principal = result && 'principal' in result ? result.principal : null;
      if (!principal) {
        send({ type: 'error', code: -2, message: 'not logged in' });
        return socket.close(4401, 'not logged in');
      }
      timers.clearTimeout(timer);
      remove?.();
      client = { principal, send: (text) => socket.send(text), close: (code, reason) => socket.close(code, reason) };
      remove = hub.add(client);
      send({ type: 'ready', user_id: principal.user_id });
    });
    socket.on('close', () => {
      timers.clearTimeout(timer);
      remove?.();
    });
  });
};
