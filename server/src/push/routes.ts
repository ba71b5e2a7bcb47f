import websocket from '@fastify/websocket';
import { nowSeconds } from '@sitewatch/contract';
import { type PushServerMessage, pushClientMessage, pushPath } from '@sitewatch/contract/push';
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../http/auth.ts';
import type { PushClient, PushHub } from './hub.ts';

/** A socket that has not sent a valid `auth` message within this time is closed. */
const authTimeoutMs = 10_000;
const maxMessageBytes = 4096;

/**
 * The push channel at /api/v1/ws. A browser cannot set an Authorization header on a WebSocket,
 * and a token in the URL would end up in logs, so the first message carries the bearer token.
 */
export const registerPushChannel = async (app: FastifyInstance, hub: PushHub, authenticator: Authenticator) => {
  await app.register(websocket, { options: { maxPayload: maxMessageBytes } });
  app.get(pushPath, { websocket: true, schema: { hide: true }, config: { auth: false } }, (socket, request) => {
    const send = (message: PushServerMessage) => socket.send(JSON.stringify(message));
    let remove: (() => void) | null = null;
    let client: PushClient | null = null;
    const timer = setTimeout(() => socket.close(4401, 'auth timeout'), authTimeoutMs);
    socket.on('message', async (raw: Buffer) => {
      let parsed: ReturnType<typeof pushClientMessage.safeParse>;
      try {
        parsed = pushClientMessage.safeParse(JSON.parse(raw.toString('utf8')));
      } catch {
        return send({ type: 'error', code: 40001, message: 'invalid json' });
      }
      if (!parsed.success) return send({ type: 'error', code: 40000, message: 'invalid message' });
      const message = parsed.data;
      if (message.type === 'ping') return send({ type: 'pong', server_time: nowSeconds() });
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
      clearTimeout(timer);
      remove?.();
      client = { principal, send: (text) => socket.send(text) };
      remove = hub.add(client);
      send({ type: 'ready', user_id: principal.user_id });
    });
    socket.on('close', () => {
      clearTimeout(timer);
      remove?.();
    });
  });
};
