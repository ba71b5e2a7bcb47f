import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminHeaders, adminPassword, loginInBrowser, withDb } from '../fixtures/product.ts';
import { addReading, createDevice, createSite } from '../fixtures/stage.ts';
import { type APIRequestContext, expect, type Page, test } from '../fixtures/test.ts';

/** Screenshots of the dashboard for people to look at (not committed). */
const shots = path.resolve(import.meta.dirname, '../screenshots');

let headers: Record<string, string> | null = null;
const api = async (request: APIRequestContext, method: 'get' | 'post' | 'put', url: string, data?: unknown) => {
  headers ??= await adminHeaders(request);
  const res = await request[method](`/api/v1/${url}`, { headers, ...(data ? { data } : {}) });
  const body = await res.json();
  if (body.code !== 0) throw new Error(`${method} ${url}: ${JSON.stringify(body)}`);
  return body.data;
};

const counter = async (page: Page, name: string) => Number(await page.getByTestId(`home-count-${name}`).textContent());
const sites = ['北京总部机房', '上海数据中心', '广州配电室'];

/** A simulated reading at `base` ℃ (over 30 raises an alarm at once), told at every repetition. */
const hot = (base: number) => ({ base, item: { notification_interval: 0 } });

test.describe.configure({ mode: 'serial' });

let deviceId = 0;
test.beforeAll(async ({ request }) => {
  // The dashboard's estate: three sites; in the first, a temperature and humidity sensor (the
  // curve's) and a device with five items over their maximum (five alarms for the ranking and
  // the scroller).
  const first = await createSite(request, sites[0]!, 3);
  await createSite(request, sites[1]!, 2);
  await createSite(request, sites[2]!, 1);
  await createDevice(request, first, 'TH-01', { template_id: 1 });
  deviceId = await createDevice(request, first, 'HOME-E2E');
  for (let n = 1; n <= 5; n++) await addReading(request, deviceId, `首页测点${n}`, hot(40 + n));
});

test('/ lands on the dashboard; counters, curve, ranking, system status and the moving alarm list show real data', async ({
  page,
  request,
}) => {
  // The journeys' browser asks for reduced motion (playwright.config.ts); this one watches the list
  // move, on a clock it can run ahead (page.clock: time goes on as usual until it is run).
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.clock.install();
  await loginInBrowser(page, 'admin', adminPassword);
  await expect(page).toHaveURL(/\/home\?fullShow=yes$/, { timeout: 15_000 });
  await expect(page.getByTestId('home-ready')).toBeVisible({ timeout: 40_000 });
  await expect(page.getByTestId('home-title')).toHaveText('Sitewatch 动环监控');

  // Counters equal what the API says (and the API what the database says).
  const stats = await api(request, 'get', 'overview/statistics');
  const db = withDb((d) => ({
    sites: (d.prepare('select count(*) n from device_groups').get() as { n: number }).n,
    devices: (d.prepare('select count(*) n from devices').get() as { n: number }).n,
    items: (d.prepare('select count(*) n from items').get() as { n: number }).n,
  }));
  expect([stats.device_groups, stats.devices, stats.items]).toEqual([db.sites, db.devices, db.items]);
  expect(await counter(page, 'device_groups')).toBe(db.sites);
  expect(await counter(page, 'devices')).toBe(db.devices);
  expect(await counter(page, 'items')).toBe(db.items);
  expect(db.devices).toBe(2);
  // Normal and abnormal move with the simulator: the page and the API agree within a refresh.
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(page.getByTestId('home-ready')).toBeVisible({ timeout: 40_000 });
        const now = await api(request, 'get', 'overview/statistics');
        return [await counter(page, 'item_normal'), await counter(page, 'item_abnormal')].join('/') ===
          [now.item_normal, now.item_abnormal].join('/')
          ? 'equal'
          : 'differ';
      },
      { timeout: 60_000 },
    )
    .toBe('equal');
  expect(await counter(page, 'item_normal')).toBeGreaterThan(0);

  // The temperature and humidity curve has points.
  await expect
    .poll(async () => Number(await page.getByTestId('home-curve').getAttribute('data-points')), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);

  // The ranking lists items with their counts as the API answers them; bars are relative to 1.1 × max.
  await expect(page.getByTestId('home-ranking-row').first()).toBeVisible({ timeout: 20_000 });
  const ranking = await api(request, 'get', 'overview/alarm_count?limit=5&page=1');
  expect(ranking.data.length).toBeGreaterThan(0);
  await expect(page.getByTestId('home-ranking-row')).toHaveCount(ranking.data.length);
  const widths = await page
    .getByTestId('home-ranking-bar')
    .evaluateAll((bars) => bars.map((b) => Number.parseFloat((b as HTMLElement).style.width)));
  expect(widths[0]).toBeCloseTo(100 / 1.1, 1);

  // System status: real figures and the services running in the product.
  const sys = await api(request, 'get', 'get_system_info');
  await expect(page.getByTestId('home-cpu')).toHaveText(/^\d+\.\d{2}%$/);
  await expect(page.getByTestId('home-memory')).toContainText(sys.memory.total);
  for (const s of ['alert', 'system', 'collection', 'notification']) {
    await expect(page.getByTestId(`home-service-${s}`)).toHaveAttribute('data-state', 'running');
  }
  await expect(page.getByTestId('home-signal')).toHaveText('无数据');
  await expect(page.getByTestId('home-inspection')).toHaveText('暂无数据');

  // Alarm counts by level equal the open alarms by level.
  await expect
    .poll(
      async () => {
        const levels = await api(request, 'get', 'overview/alarm_level_count');
        const shown = [];
        for (const l of levels.data) shown.push(Number(await page.getByTestId(`home-level-${l.level}`).textContent()));
        return JSON.stringify(shown) === JSON.stringify(levels.data.map((l: { count: number }) => l.count));
      },
      { timeout: 70_000 },
    )
    .toBe(true);

  // The recent alarm list (ten rows) moves by itself and stops under the pointer.
  const recent = await api(request, 'get', 'review?limit=10&page=1&scope=all');
  expect(recent.data.length).toBeGreaterThanOrEqual(5);
  await expect(page.getByTestId('home-alarm-row')).toHaveCount(recent.data.length);
  const track = page.getByTestId('home-alarm-track');
  const offset = async () => Number((await track.getAttribute('data-offset')) ?? 0);
  await expect.poll(offset, { timeout: 10_000 }).toBeGreaterThan(0);
  const first = await track.evaluate((el) => getComputedStyle(el).transform);
  await expect
    .poll(async () => track.evaluate((el) => getComputedStyle(el).transform), { timeout: 10_000 })
    .not.toBe(first);
  await page.getByTestId('home-alarm-scroller').hover();
  const held = await offset();
  // Longer than a row's wait (2 s): a list that did not stop would have moved.
  await page.clock.runFor(3000);
  expect(await offset()).toBe(held);
});

test('a new alarm reaches the list, the counters and the level counts without a reload', async ({ page, request }) => {
  await loginInBrowser(page, 'admin', adminPassword);
  await expect(page.getByTestId('home-ready')).toBeVisible({ timeout: 40_000 });
  const itemsBefore = await counter(page, 'items');
  // The ranking restarts, so the new alarm is not lost among the first journey's five.
  await api(request, 'put', 'overview/alarm_count_clear');
  // Adding an item does not push anything; the alarm it raises does.
  await addReading(request, deviceId, '首页新告警', hot(45));
  await expect(page.getByTestId('home-alarm-scroller')).toContainText('首页新告警', { timeout: 15_000 });
  await expect.poll(() => counter(page, 'items'), { timeout: 15_000 }).toBe(itemsBefore + 1);
  // The level counts are those of the open alarms, the new one included.
  await expect
    .poll(
      async () => {
        const levels = await api(request, 'get', 'overview/alarm_level_count');
        const shown = [];
        for (const l of [1, 2, 3, 4, 5]) shown.push(Number(await page.getByTestId(`home-level-${l}`).textContent()));
        return JSON.stringify(shown) === JSON.stringify(levels.data.map((l: { count: number }) => l.count));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await expect(page.getByTestId('home-ranking')).toContainText('首页新告警', { timeout: 15_000 });
});

test('the inspect button, the console link and logout behave as 000 §2.6 says', async ({ page }) => {
  await loginInBrowser(page, 'admin', adminPassword);
  await expect(page.getByTestId('home-ready')).toBeVisible({ timeout: 40_000 });
  // The inspection module is enabled for the administrator: the button opens its page.
  await page.getByTestId('home-inspect').click();
  await expect(page).toHaveURL(/\/polling_main/);
  await page.goBack();
  await expect(page.getByTestId('home-ready')).toBeVisible({ timeout: 40_000 });
  // Logout asks first; cancelling says so.
  await page.getByTestId('home-logout').click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('是否退出当前账号');
  // A click during the dialog's zoom-in can be lost (two journey workers): clicked until it closes.
  await expect(async () => {
    if (await page.locator('.ant-modal-confirm-title').isVisible())
      await page.getByRole('button', { name: /取\s*消/ }).click({ timeout: 2_000 });
    await expect(page.locator('.ant-modal-confirm-title')).toBeHidden({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText('已取消！')).toBeVisible();
  // The console opens the first page with menu and tabs.
  await page.getByTestId('home-console').click();
  await expect(page).not.toHaveURL(/fullShow/);
  await expect(page.getByTestId('alarm-bell')).toBeVisible();
});

test('/overview lists every granted site; a site opens its station page', async ({ page, request }) => {
  await loginInBrowser(page, 'admin', adminPassword);
  await expect(page.getByTestId('home-ready')).toBeVisible({ timeout: 40_000 });
  await page.goto('/overview');
  const cards = page.getByTestId('overview-site');
  const answer = await api(request, 'get', 'overview/sites');
  await expect(cards).toHaveCount(answer.total);
  for (const name of sites) await expect(cards.filter({ hasText: name })).toHaveCount(1);
  // No tab strip on /overview (000 §2.4).
  await expect(page.locator('.ant-tabs-nav')).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, 'overview-default-zh_cn-1366x768.png') });
  await cards.filter({ hasText: sites[1] }).click();
  await expect(page).toHaveURL(/\/station\?device_group_id=\d+/);
});

for (const [themeName, language] of [
  ['default', 'zh_cn'],
  ['blackBlue', 'en_us'],
] as const) {
  for (const [width, height] of [
    [1920, 1080],
    [1366, 768],
  ] as const) {
    test(`screenshot: ${themeName} ${language} ${width}×${height}`, async ({ page }) => {
      mkdirSync(shots, { recursive: true });
      await page.setViewportSize({ width, height });
      await page.addInitScript(
        (prefs) => {
          localStorage.setItem('theme', prefs.theme);
          localStorage.setItem('language', prefs.language);
        },
        { theme: themeName, language },
      );
      await loginInBrowser(page, 'admin', adminPassword);
      await expect(page.getByTestId('home-ready')).toBeVisible({ timeout: 40_000 });
      await expect(page.locator('html')).toHaveAttribute('data-theme', themeName);
      // Nothing of the page is cut off or scrolls at this size.
      const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(shots, `home-${themeName}-${language}-${width}x${height}.png`) });
    });
  }
}
