import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { StreamHub } from './hub.ts';
import { randomToken } from './service.ts';

/** How long a live view's ticket opens its socket, ms (the page opens it at once). */
export const ticketMs = 30_000;
/** Largest number of live views held at once by the whole console (each a socket, streams shared). */
export const maxLiveViews = 64;

interface Live {
  liveId: string;
  ticket: string | null;
  ticketUntil: number;
  userId: number;
  deviceId: number;
  key: string;
  url: string;
  /** The open socket's removal from the hub, and its close. */
  detach: (() => void) | null;
  createdAt: number;
}

/**
 * Live views (001 §4, §7: GET /preview allocates a LiveID, DELETE /preview releases it) and the
 * socket /ws/live?suuid=<LiveID>&ticket=: a browser cannot send the bearer token on a WebSocket,
 * so GET /preview (an authorised call) hands a one-time ticket that opens that one live view
 * within 30 s. The suuid alone opens nothing.
 */
export const createLiveViews = (deps: { hub: StreamHub; clock: () => number }) => {
  const views = new Map<string, Live>();
  const byTicket = new Map<string, Live>();

  /** Forgets views whose ticket expired unused. */
  const sweep = () => {
    const now = deps.clock();
    for (const v of views.values())
      if (!v.detach && v.ticket && v.ticketUntil < now) {
        views.delete(v.liveId);
        byTicket.delete(v.ticket);
      }
  };

  return {
    open(userId: number, deviceId: number, key: string, url: string): Live | null {
      sweep();
      if (views.size >= maxLiveViews) return null;
      const v: Live = {
        liveId: randomToken().slice(0, 16),
        ticket: randomToken(),
        ticketUntil: deps.clock() + ticketMs,
        userId,
        deviceId,
        key,
        url,
        detach: null,
        createdAt: deps.clock(),
      };
      views.set(v.liveId, v);
      byTicket.set(v.ticket!, v);
      return v;
    },
    release(userId: number, deviceId: number, liveId: string) {
      const v = views.get(liveId);
      if (!v || v.userId !== userId || v.deviceId !== deviceId) return false;
      views.delete(liveId);
      if (v.ticket) byTicket.delete(v.ticket);
      v.detach?.();
      return true;
    },
    /** Closes every view of a device (edited or deleted). */
    dropDevice(deviceId: number) {
      for (const v of [...views.values()])
        if (v.deviceId === deviceId) {
          views.delete(v.liveId);
          if (v.ticket) byTicket.delete(v.ticket);
          v.detach?.();
        }
    },
    count: () => views.size,
    /** The socket route. */
    register(app: FastifyInstance) {
      app.get(
        '/ws/live',
        { websocket: true, schema: { hide: true }, config: { auth: false } },
        (socket: WebSocket, request) => {
          const q = request.query as { suuid?: unknown; ticket?: unknown };
          const ticket = typeof q.ticket === 'string' ? q.ticket : '';
          const v = byTicket.get(ticket);
          if (!v || v.liveId !== q.suuid || v.ticketUntil < deps.clock()) {
            socket.close(4401, 'ticket not valid');
            return;
          }
          byTicket.delete(ticket);
          v.ticket = null;
          v.detach?.();
          const remove = deps.hub.add(v.key, v.url, {
            send: (data) => socket.send(data, { binary: true }),
            buffered: () => socket.bufferedAmount,
            close: (code, reason) => socket.close(code, reason),
          });
          v.detach = () => {
            remove();
            socket.close(1000, 'released');
          };
          socket.on('close', () => {
            remove();
            // A closed socket ends the view: the page asks GET /preview again to reconnect.
            if (views.get(v.liveId) === v) views.delete(v.liveId);
          });
        },
      );
    },
  };
};

export type LiveViews = ReturnType<typeof createLiveViews>;
