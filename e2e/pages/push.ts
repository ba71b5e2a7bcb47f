import type { Page } from '@playwright/test';

/**
 * Resolves with the first push frame the page receives from now on (on a channel opened after this
 * call) that holds every one of these texts: a journey waits for what the server said, not for time.
 */
export const pushFrame = (page: Page, ...texts: string[]) =>
  new Promise<void>((resolve) =>
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const s = String(f.payload);
        if (texts.every((x) => s.includes(x))) resolve();
      }),
    ),
  );

/** The page's push channel signed in (its `ready` frame): what is pushed from then on reaches it. */
export const pushReady = (page: Page) => pushFrame(page, '"type":"ready"');
