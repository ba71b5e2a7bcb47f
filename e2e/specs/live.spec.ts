import { adminPassword, loginToConsole } from '../fixtures/product.ts';
import { addTemperature, adminApi, createStage, removeStage, type Stage } from '../fixtures/stage.ts';
import { type APIRequestContext, expect, type Page, test } from '../fixtures/test.ts';

test.describe.configure({ mode: 'serial' });

/**
 * Live values by push (docs/architecture.md, "The spine"): the station page and the data list show a
 * new value within a second of its sample, and the browser sends no polling request meanwhile.
 */
let stage: Stage | null = null;
let item = 0;

test.beforeEach(async ({ request }) => {
  stage = await createStage(request, '实时机房', 'TH-LIVE');
  // Wide thresholds: this journey watches values, not alarms.
  item = await addTemperature(request, stage, '实时温度', 20, { min: -100, max: 100 });
});

test.afterEach(async ({ request }) => {
  await removeStage(request, stage);
  stage = null;
});

/**
 * Requests the page sends to `path` from now on, but for the one read of catch-up that follows each
 * `ready` of the push channel (web/src/api/live.ts): a channel signed in only after the page's first
 * read (a slow machine) makes that read, and it is no polling.
 */
const watchPolls = (page: Page, path: string, channel: { readyAt: number[] }) => {
  const seen: { url: string; at: number }[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith(path)) seen.push({ url: r.url(), at: Date.now() });
  });
  return () => seen.filter((r) => !channel.readyAt.some((t) => r.at >= t && r.at - t < 2_000)).map((r) => r.url);
};

/** When the page's push channel said `ready`, from now on (every reload opens a new channel). */
const watchChannel = (page: Page) => {
  const channel = { readyAt: [] as number[] };
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      if (String(f.payload).includes('"type":"ready"')) channel.readyAt.push(Date.now());
    }),
  );
  return channel;
};

/** Writes a value to the simulated item (its next read, within a second, returns it). */
const setValue = (request: APIRequestContext, value: number) =>
  adminApi(request, 'put', 'device_groups/device/item', { item_id: item, value });

test('the station page and the data list show a new value within a second of its sample, with no polling', async ({
  page,
  request,
}) => {
  const channel = watchChannel(page);
  // The page's clock goes on as usual; the journey runs it past the fallback interval at once.
  await page.clock.install();
  await loginToConsole(page, 'admin', adminPassword);
  await page.goto(`/station?device_group_id=${stage!.site}`);
  const card = page.locator('[data-testid^="device-"]', { hasText: 'TH-LIVE' });
  await expect(card.getByText(/^20(\.0)? ℃$/)).toBeVisible({ timeout: 10_000 });

  const stationPolls = watchPolls(page, '/device_groups/device/data', channel);
  await setValue(request, 33.5);
  // The device is read every second and the push follows within a second of the read.
  const written = Date.now();
  await expect(card.getByText('33.5 ℃')).toBeVisible({ timeout: 2_500 });
  expect(Date.now() - written).toBeLessThan(2_500);
  // Past the 5 s fallback interval: still no request, the channel is up.
  await page.clock.runFor(6_000);
  expect(stationPolls()).toEqual([]);

  await page.goto('/data_list');
  await page.getByLabel('监控项名称').fill('实时温度');
  await page.getByLabel('监控项名称').press('Enter');
  await expect(page.getByText('共 1 条')).toBeVisible();
  const value = page.getByTestId('data-value').first();
  await expect(value).toHaveText('33.5 ℃', { timeout: 5_000 });
  const listPolls = watchPolls(page, '/data_list', channel);
  await setValue(request, 44.5);
  const again = Date.now();
  await expect(value).toHaveText('44.5 ℃', { timeout: 2_500 });
  expect(Date.now() - again).toBeLessThan(2_500);
  await page.clock.runFor(6_000);
  expect(listPolls()).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('data-list-live.png') });
});
