import type { PushServerMessage } from '@sitewatch/contract/push';
import type { Principal } from '../http/auth.ts';

/** The sending side of one connected browser. */
export interface PushClient {
  principal: Principal;
  send(text: string): void;
  /** Sites whose live values the browser shows now (its `watch` message): null every granted site; absent none. */
  watch?: number[] | null | undefined;
  /** Ends the connection (its session was revoked). */
  close?(code: number, reason: string): void;
}

/**
 * The push hub: connected browsers by user, and one `publish` that every engine calls.
 * A message is serialised once and sent to each client its filter lets through.
 */
export interface PushHub {
  add(client: PushClient): () => void;
  publish(message: PushServerMessage, allow?: (principal: Principal) => boolean): number;
  size(): number;
  /** The clients that watch live values now. */
  watching(): PushClient[];
  /** Every connected client (the session sweep walks them). */
  clients(): PushClient[];
  closeAll(): void;
}

export const createPushHub = (): PushHub => {
  const clients = new Set<PushClient>();
  return {
    add(client) {
      clients.add(client);
      return () => clients.delete(client);
    },
    publish(message, allow) {
      const text = JSON.stringify(message);
      let sent = 0;
      for (const client of clients) {
        if (allow && !allow(client.principal)) continue;
        client.send(text);
        sent += 1;
      }
      return sent;
    },
    size: () => clients.size,
    watching: () => [...clients].filter((c) => c.watch !== undefined),
    clients: () => [...clients],
    closeAll: () => clients.clear(),
  };
};
