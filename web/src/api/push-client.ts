import { createPushClient, pushUrl } from './push.ts';
import { readToken } from './tokens.ts';

/** The app's one push channel client; the shell starts it while a user is signed in. */
export const pushClient = createPushClient({
  createSocket: (url) => new WebSocket(url),
  url: () => pushUrl(),
  token: readToken,
  // The global timers, looked up at call time (tests install fake ones).
  setInterval: ((...args: Parameters<typeof setInterval>) => globalThis.setInterval(...args)) as typeof setInterval,
  clearInterval: ((id) => globalThis.clearInterval(id)) as typeof clearInterval,
  setTimeout: ((...args: Parameters<typeof setTimeout>) => globalThis.setTimeout(...args)) as typeof setTimeout,
  clearTimeout: ((id) => globalThis.clearTimeout(id)) as typeof clearTimeout,
});
