import { adminHeaders } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, test } from '../fixtures/test.ts';
import { LoginPage } from '../pages/login.ts';
import { ResourceList } from '../pages/resource-list.ts';

test.describe.configure({ mode: 'serial' });
// This journey is about the demo estate a first start makes (three sites, 66 devices).
test.use({ startFrom: 'demo' });

test('the station page shows the demo estate with live values, and sites refuse deletion while they have devices', async ({
  page,
  request,
}) => {
  await adminHeaders(request);
  await new LoginPage(page).toConsole();

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

  const sites = await new ResourceList(page, '/setting_device_groups').goto();
  const dialog = await sites.add(/添加站点/);
  await dialog.ok();
  await dialog.expectRefused('站点名称不能为空');
  await dialog.fill({ 站点名称: '测试机房' });
  await dialog.ok();
  await expect(sites.cell('测试机房')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('sites-zh_cn.png') });

  await sites.remove('北京总部机房');
  await expect(page.getByText('该站点下有关联设备，无法删除！')).toBeVisible();

  const devices = await new ResourceList(page, '/setting_device_mange').goto();
  await expect(devices.cell('UPS-01')).toBeVisible();
  await expectNoRawKeys(page, 'the device list');
  await page.screenshot({ path: test.info().outputPath('devices-zh_cn.png') });

  const items = await new ResourceList(page, '/setting_items').goto();
  await expect(items.cell('A相输入电压')).toBeVisible();
  await expectNoRawKeys(page, 'the item list');
  await page.screenshot({ path: test.info().outputPath('items-zh_cn.png') });
  // Edit one item: the form shows how it is read and saves through the contract's rules.
  const itemDialog = await items.edit('A相输入电压');
  await expect(itemDialog.field('基准值')).toHaveValue('221');
  await itemDialog.fill({ 阈值最大值: '100', 阈值最小值: '200' });
  await itemDialog.ok();
  await itemDialog.expectRefused('最大值不能小于最小值');
  await expectNoRawKeys(page, 'the item editor');
  await page.screenshot({ path: test.info().outputPath('item-dialog-zh_cn.png') });
  await itemDialog.fill({ 阈值最小值: '90' });
  // The level is chosen by its name.
  await itemDialog.field('告警级别').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '重要' }).click();
  await itemDialog.save();
  await expect(items.row('A相输入电压').getByRole('cell', { name: '90 ~ 100' })).toBeVisible();
  await expect(items.row('A相输入电压').locator('[data-level="3"]')).toHaveText('重要');
});
