import { readFileSync } from 'node:fs';
import path from 'node:path';
import { signInAsAdmin } from '../fixtures/product.ts';
import { addReading, createDevice, createSite } from '../fixtures/stage.ts';
import { expect, type Page, test } from '../fixtures/test.ts';

test.describe.configure({ mode: 'serial' });

const shots = path.resolve(import.meta.dirname, '../screenshots');

// The journey's own UPS: three input voltages read every second, steady inside their limits.
const phases = ['A相输入电压', 'B相输入电压', 'C相输入电压'];
test.beforeAll(async ({ request }) => {
  const device = await createDevice(request, await createSite(request, '北京总部机房'), 'UPS-01', { code: 'ups' });
  for (const name of phases) await addReading(request, device, name, { base: 221, unit: 'V', min: 198, max: 242 });
});
test.beforeEach(async ({ request, page }) => {
  await signInAsAdmin(page, request);
});

const openUps = async (page: Page) => {
  await page.goto('/station');
  const ups = page.locator('[data-testid^="device-"]', { hasText: 'UPS-01' }).first();
  await expect(ups).toBeVisible();
  await ups.getByRole('button', { name: /设备详情|Device details/ }).click();
  await expect(page).toHaveURL(/device=\d+&tab=overview/);
  return page.getByTestId('device-view');
};

test('a device from /station: overview, live details with a setpoint write, its log, the 7-day curve with zoom and exports', async ({
  page,
}) => {
  const view = await openUps(page);

  // Overview: identity, communication state, counts.
  const overview = view.getByTestId('device-overview');
  await expect(overview.getByText('北京总部机房').first()).toBeVisible();
  await expect(overview.getByText('UPS-01')).toBeVisible();
  await expect(overview.getByText('模拟器')).toBeVisible();
  await expect(overview.getByTestId('device-state')).toHaveText(/正常|异常|未知|未就绪/);
  await expect(overview.getByText('监控项统计')).toBeVisible();
  await expect(overview.getByTestId('count-total')).toContainText(String(phases.length));

  // Details: live values with units; a setpoint write through the driver.
  await view.getByRole('tab', { name: '详情' }).click();
  await expect(page).toHaveURL(/tab=details/);
  const rows = view.getByTestId('device-items').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(phases.length);
  await expect(rows.first().getByText(/^\d+(\.\d+)? V$/)).toBeVisible({ timeout: 30_000 });
  const itemName = (await rows.first().locator('td').first().textContent()) ?? '';
  await rows
    .first()
    .getByRole('button', { name: /设\s*定/ })
    .click();
  const dialog = page.getByRole('dialog', { name: /下发设定值/ });
  await dialog.getByRole('spinbutton').fill('231.5');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByText('设定值已下发')).toBeVisible();
  await expect(rows.first().getByText('231.5 V')).toBeVisible({ timeout: 20_000 });

  // Log: the write is there with who and the value; kinds filter it.
  await view.getByRole('tab', { name: '日志' }).click();
  const log = view.getByTestId('device-log');
  const write = log.locator('tbody tr.ant-table-row', { hasText: '设定值下发' }).first();
  await expect(write).toBeVisible();
  await expect(write).toContainText(itemName);
  await expect(write).toContainText('231.5');
  // Who, by their alias (issue 38): the administrator is "Administrator", its login "admin".
  await expect(write).toContainText('Administrator');
  await expect(log.locator('tbody tr.ant-table-row', { hasText: '状态变化' }).first()).toBeVisible();
  await view.getByRole('checkbox', { name: '操作' }).uncheck();
  await expect(log.locator('tbody tr.ant-table-row', { hasText: '设定值下发' })).toHaveCount(0);
  await expect(log.locator('tbody tr.ant-table-row', { hasText: '状态变化' }).first()).toBeVisible();

  // Curve: the last 7 days by default, with points from the series store.
  await view.getByRole('tab', { name: '曲线' }).click();
  const curve = view.getByTestId('device-curve');
  await expect(view.getByTestId('curve-range')).toContainText('最近7天');
  await expect
    .poll(async () => Number(await curve.getAttribute('data-points')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  // A click while the last choice's list is still closing would toggle the new one shut (seen on a
  // loaded machine): each choice starts with no list open.
  const chooseRange = async (title: string) => {
    await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
    await view.getByTestId('curve-range').click();
    await page.locator(`.ant-select-item-option[title="${title}"]`).click();
  };
  const started = Date.now();
  await chooseRange('最近24小时');
  await expect(curve).toHaveAttribute('data-loading', 'false');
  await chooseRange('最近7天');
  await expect(curve).toHaveAttribute('data-loading', 'false');
  const points = Number(await curve.getAttribute('data-points'));
  expect(points).toBeGreaterThan(0);
  test.info().annotations.push({
    type: 'curve',
    description: `7-day curve: ${points} points, ${Date.now() - started} ms for two range changes`,
  });

  // Zoom with the mouse wheel (inside zoom) changes the window.
  const canvas = view.getByTestId('curve-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -300);
  await expect(canvas).not.toHaveAttribute('data-zoom', '0-100');

  // Exports: a PNG of the chart and an xlsx built by the server.
  const png = page.waitForEvent('download');
  await view.getByRole('button', { name: '导出图片' }).click();
  const pngFile = await (await png).path();
  expect(readFileSync(pngFile).subarray(1, 4).toString()).toBe('PNG');
  const xlsx = page.waitForEvent('download');
  await view.getByRole('button', { name: '导出Excel' }).click();
  const xlsxDownload = await xlsx;
  expect(xlsxDownload.suggestedFilename()).toMatch(/^UPS-01-\d+\.xlsx$/);
  expect(
    readFileSync(await xlsxDownload.path())
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');

  // Closing returns to the station's cards.
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/device=/);
});

for (const [theme, language, match] of [
  ['default', 'zh_cn', '曲线'],
  ['blackBlue', 'en_us', 'Curve'],
] as const) {
  for (const [width, height] of [
    [1366, 768],
    [1920, 1080],
  ] as const) {
    test(`device curve screenshot: ${theme} ${language} ${width}×${height}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await page.addInitScript(
        (prefs) => {
          localStorage.setItem('theme', prefs.theme);
          localStorage.setItem('language', prefs.language);
        },
        { theme, language },
      );
      const view = await openUps(page);
      await view.getByRole('tab', { name: match }).click();
      const curve = view.getByTestId('device-curve');
      await expect
        .poll(async () => Number(await curve.getAttribute('data-points')), { timeout: 20_000 })
        .toBeGreaterThan(0);
      await expect(curve).toHaveAttribute('data-loading', 'false');
      await page.screenshot({ path: path.join(shots, `device-curve-${theme}-${language}-${width}x${height}.png`) });
      if (width === 1366) {
        await view.getByRole('tab', { name: language === 'zh_cn' ? '概览' : 'Overview' }).click();
        await expect(view.getByTestId('device-overview')).toBeVisible();
        await page.screenshot({
          path: path.join(shots, `device-overview-${theme}-${language}-${width}x${height}.png`),
        });
        await view.getByRole('tab', { name: language === 'zh_cn' ? '日志' : 'Log' }).click();
        await expect(view.getByTestId('device-log').locator('tbody tr.ant-table-row').first()).toBeVisible();
        await page.screenshot({ path: path.join(shots, `device-log-${theme}-${language}-${width}x${height}.png`) });
        await view.getByRole('tab', { name: language === 'zh_cn' ? '详情' : 'Details' }).click();
        await expect(view.getByTestId('device-items').locator('tbody tr.ant-table-row').first()).toBeVisible();
        await page.screenshot({ path: path.join(shots, `device-details-${theme}-${language}-${width}x${height}.png`) });
      }
    });
  }
}
