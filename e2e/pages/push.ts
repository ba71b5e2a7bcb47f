import type { Page } from '@playwright/test';

/**
 * Resolves with the first push frame the page receives from now on (on a channel opened after this
 * call) that holds every one of these texts: a journey waits for what the server said, not for time.
 * Rejects after `timeout` ms naming the texts and the last frames that held the first of them, so a
 * frame that came without a mark says so instead of running into the test's own timeout.
 */
export const pushFrame = (page: Page, ...texts: string[]) => {
  const timeout = 40_000;
  const frame = new Promise<void>((resolve, reject) => {
    const near: string[] = [];
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `no push frame holding ${texts.join(' + ')} within ${timeout} ms; frames holding ${texts[0]}: ${near.length ? near.join(' | ') : 'none'}`,
          ),
        ),
      timeout,
    );
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const s = String(f.payload);
        if (texts.every((x) => s.includes(x))) {
          clearTimeout(timer);
          resolve();
        } else if (s.includes(texts[0]!) && near.push(s.slice(0, 400)) > 3) near.shift();
      }),
    );
  });
  // A journey that fails before it awaits the frame leaves no unhandled rejection behind.
  frame.catch(() => undefined);
  return frame;
};

/** The page's push channel signed in (its `ready` frame): what is pushed from then on reaches it. */
export const pushReady = (page: Page) => pushFrame(page, '"type":"ready"');
