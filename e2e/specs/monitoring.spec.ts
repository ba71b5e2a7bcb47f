import { adminHeaders, adminPassword, loginToConsole } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';

test.describe.configure({ mode: 'serial' });

test('the station page shows the demo estate with live values, and sites refuse deletion while they have devices', async ({
  page,
  request,
}) => {
  await adminHeaders(request);
  await loginToConsole(page, 'admin', adminPassword);

  await page.goto('/station');
  await expect(page.getByRole('tree').getByText(/北京总部机房/)).toBeVisible();
  const ups = page.locator('[data-testid^="device-"]', { hasText: 'UPS-01' });
  await expect(ups).toBeVisible();
  // Live values arrive within a check interval (10 s) and the 5 s refresh.
  await expect(ups.getByText(/^\d+(\.\d+)? V$/).first()).toBeVisible({ timeout: 30_000 });
  await expect(ups.getByText('正常').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('station-zh_cn.png') });
  await ups.getByRole('button', { name: 'A相输入电压' }).click();
  await expect(page.getByRole('dialog').getByText('最近24小时')).toBeVisible();
  await page.keyboard.press('Escape');

  await page
    .getByRole('tree')
    .getByText(/上海数据中心/)
    .click();
  await expect(page.locator('[data-testid^="device-"]', { hasText: 'AC-01' })).toBeVisible();

  await page.goto('/setting_device_groups');
  await page.getByRole('button', { name: /添加站点/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog.getByText('站点名称不能为空')).toBeVisible();
  await dialog.getByLabel('站点名称').fill('测试机房');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByRole('cell', { name: '测试机房' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('sites-zh_cn.png') });

  const row = page.getByRole('row', { name: /北京总部机房/ });
  await row.getByRole('button', { name: /删\s*除/ }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s*定|OK/ })
    .click();
  await expect(page.getByText('该站点下有关联设备，无法删除！')).toBeVisible();

  await page.goto('/setting_device_mange');
  await expect(page.getByRole('cell', { name: 'UPS-01' }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('devices-zh_cn.png') });

  await page.goto('/setting_items');
  await expect(page.getByRole('cell', { name: 'A相输入电压' }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('items-zh_cn.png') });
  // Edit one item: the form shows how it is read and saves through the contract's rules.
  await page
    .getByRole('row', { name: /A相输入电压/ })
    .first()
    .getByRole('button', { name: /编\s*辑/ })
    .click();
  const itemDialog = page.getByRole('dialog');
  await expect(itemDialog.getByLabel('基准值')).toHaveValue('221');
  await itemDialog.getByLabel('阈值最大值').fill('100');
  await itemDialog.getByLabel('阈值最小值').fill('200');
  await itemDialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(itemDialog.getByText('最大值不能小于最小值')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('item-dialog-zh_cn.png') });
  await itemDialog.getByLabel('阈值最小值').fill('90');
  // The level is chosen by its name.
  await itemDialog.getByLabel('告警级别').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '重要' }).click();
  await itemDialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(itemDialog).toBeHidden();
  await expect(
    page
      .getByRole('row', { name: /A相输入电压/ })
      .first()
      .getByRole('cell', { name: '90 ~ 100' }),
  ).toBeVisible();
  await expect(
    page
      .getByRole('row', { name: /A相输入电压/ })
      .first()
      .locator('[data-level="3"]'),
  ).toHaveText('重要');
});
