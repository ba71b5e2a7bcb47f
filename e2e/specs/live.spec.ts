import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { adminHeaders, adminPassword, loginToConsole } from '../fixtures/product.ts';

test.describe.configure({ mode: 'serial' });

/**
 * Live values by push (docs/architecture.md, "The spine"): the station page and the data list show a
 * new value within a second of its sample, and the browser sends no polling request meanwhile.
 */
const stage = { site: 0, device: 0, item: 0 };

const api = async (request: APIRequestContext, method: 'post' | 'put' | 'delete', url: string, data?: object) => {
  const res = await request[method](`/api/v1/${url}`, {
    headers: await adminHeaders(request),
    ...(data ? { data } : {}),
  });
  const body = await res.json();
  expect(body.code, JSON.stringify(body)).toBe(0);
  return body.data;
};

test.beforeEach(async ({ request }) => {
  stage.site = (await api(request, 'post', 'setting/device_groups', { name: '实时机房', weight: 1 })).id;
  stage.device = (
    await api(request, 'post', 'setting/devices', {
      name: 'TH-LIVE',
      device_group_id: stage.site,
      driver: 'simulator',
      code: 'temp_hum',
      check_interval: 1,
    })
  ).id;
  stage.item = (
    await api(request, 'post', 'setting/items', {
      device_id: stage.device,
      name: '实时温度',
      unit: '℃',
      value_type: 1,
      threshold_min: -100,
      threshold_max: 100,
      overrun_point: 0,
      recovery_point: 0,
      source: { kind: 'simulator', model: 'analog', base: 20, spread: 0, noise: 0, decimals: 1 },
    })
  ).id;
});

test.afterEach(async ({ request }) => {
  if (stage.item) await api(request, 'delete', `setting/items/${stage.item}`);
  if (stage.device) await api(request, 'delete', `setting/devices/${stage.device}`);
  if (stage.site) await api(request, 'delete', `setting/device_groups/${stage.site}`);
  stage.site = stage.device = stage.item = 0;
});

/** Requests the page sends to `path` from now on. */
const watchRequests = (page: Page, path: string) => {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith(path)) seen.push(r.url());
  });
  return seen;
};

/** Writes a value to the simulated item (its next read, within a second, returns it). */
const setValue = (request: APIRequestContext, value: number) =>
  api(request, 'put', 'device_groups/device/item', { item_id: stage.item, value });

test('the station page and the data list show a new value within a second of its sample, with no polling', async ({
  page,
  request,
}) => {
  await loginToConsole(page, 'admin', adminPassword);
  await page.goto(`/station?device_group_id=${stage.site}`);
  const card = page.locator('[data-testid^="device-"]', { hasText: 'TH-LIVE' });
  await expect(card.getByText(/^20(\.0)? ℃$/)).toBeVisible({ timeout: 10_000 });

  const stationPolls = watchRequests(page, '/device_groups/device/data');
  await setValue(request, 33.5);
  // The device is read every second and the push follows within a second of the read.
  const written = Date.now();
  await expect(card.getByText('33.5 ℃')).toBeVisible({ timeout: 2_500 });
  expect(Date.now() - written).toBeLessThan(2_500);
  // Past the 5 s fallback interval: still no request, the channel is up.
  await page.waitForTimeout(6_000);
  expect(stationPolls).toEqual([]);

  await page.goto('/data_list');
  await page.getByLabel('监控项名称').fill('实时温度');
  await page.getByLabel('监控项名称').press('Enter');
  await expect(page.getByText('共 1 条')).toBeVisible();
  const value = page.getByTestId('data-value').first();
  await expect(value).toHaveText('33.5 ℃', { timeout: 5_000 });
  const listPolls = watchRequests(page, '/data_list');
  await setValue(request, 44.5);
  const again = Date.now();
  await expect(value).toHaveText('44.5 ℃', { timeout: 2_500 });
  expect(Date.now() - again).toBeLessThan(2_500);
  await page.waitForTimeout(6_000);
  expect(listPolls).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('data-list-live.png') });
});
