import { type PushServerMessage, pushPath, pushServerMessage, pushTiming } from '@sitewatch/contract/push';

type Listener = (message: PushServerMessage) => void;
type StateListener = (ready: boolean) => void;

export interface PushEnv {
  createSocket: (url: string) => WebSocket;
  url: () => string;
  token: () => string | null;
  setInterval: typeof setInterval;
  clearInterval: typeof clearInterval;
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
}

/**
 * The push channel client (000 §8, §9): authenticates with the bearer token in its first
 * message, pings every 30 s, reconnects 2 s after a close or 1 s after an error, checks the
 * connection every 5 s, and gives up after 100 tries in a row.
 */
export const createPushClient = (env: PushEnv) => {
  const listeners = new Set<Listener>();
  const stateListeners = new Set<StateListener>();
  /** Authenticated and open: live values arrive by push, so pages need not poll. */
  let ready = false;
  /** The sites whose live values this browser shows (sent after every authentication). */
  let watching: number[] | null | undefined;
  let socket: WebSocket | null = null;
  let tries = 0;
  let stopped = true;
  let ping: ReturnType<typeof setInterval> | undefined;
  let check: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const setReady = (next: boolean) => {
    if (ready === next) return;
    ready = next;
    for (const listener of stateListeners) listener(ready);
  };
  const sendWatch = () => {
    if (ready && watching !== undefined && socket?.readyState === 1)
      socket.send(JSON.stringify({ type: 'watch', site_ids: watching }));
  };

  const schedule = (delayMs: number) => {
    if (stopped || retry !== undefined) return;
    retry = env.setTimeout(() => {
      retry = undefined;
      open();
    }, delayMs);
  };

  const open = () => {
    if (stopped || tries >= pushTiming.maxTries) return;
    const token = env.token();
    if (!token) return;
    tries += 1;
    const ws = env.createSocket(env.url());
    socket = ws;
    let failed = false;
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token }));
    ws.onmessage = (event) => {
      let parsed: ReturnType<typeof pushServerMessage.safeParse>;
      try {
        parsed = pushServerMessage.safeParse(JSON.parse(String(event.data)));
      } catch {
        return;
      }
      if (!parsed.success) return;
      if (parsed.data.type === 'ready') {
        tries = 0;
        setReady(true);
        sendWatch();
      }
      for (const listener of listeners) listener(parsed.data);
    };
    ws.onerror = () => {
      failed = true;
      if (socket === ws) socket = null;
      setReady(false);
      schedule(pushTiming.reconnectAfterErrorMs);
    };
    ws.onclose = () => {
      if (socket === ws) socket = null;
      setReady(false);
      if (!failed) schedule(pushTiming.reconnectAfterCloseMs);
    };
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      tries = 0;
      open();
      ping = env.setInterval(() => {
        if (socket?.readyState === 1) socket.send(JSON.stringify({ type: 'ping' }));
      }, pushTiming.pingMs);
      check = env.setInterval(() => {
        if (!socket) schedule(0);
      }, pushTiming.checkMs);
    },
    stop() {
      stopped = true;
      env.clearInterval(ping);
      env.clearInterval(check);
      if (retry !== undefined) env.clearTimeout(retry);
      retry = undefined;
      socket?.close();
      socket = null;
      setReady(false);
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Hears when the channel becomes ready (authenticated) and when it drops. */
    onState(listener: StateListener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    ready: () => ready,
    /** Which sites' live values to receive: null every granted site, undefined none. */
    watch(siteIds: number[] | null | undefined) {
      watching = siteIds;
      if (siteIds === undefined) {
        if (ready && socket?.readyState === 1) socket.send(JSON.stringify({ type: 'watch', site_ids: [] }));
      } else sendWatch();
    },
    tries: () => tries,
  };
};

export const pushUrl = (loc: Location = window.location) =>
  `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${pushPath}`;
