import { createDevice, createSite } from '../fixtures/stage.ts';
import { expect, test } from '../fixtures/test.ts';
import { LoginPage } from '../pages/login.ts';
import { ResourceList } from '../pages/resource-list.ts';

test.describe.configure({ mode: 'serial' });

test('device templates: the list, a new template with a telemetry-only point, and a device point table refused row by row', async ({
  page,
  request,
}) => {
  await createDevice(request, await createSite(request, '北京总部机房'), 'UPS-01', { code: 'ups' });
  await new LoginPage(page).toConsole();

  const devices = await new ResourceList(page, '/setting_device_mange').goto();
  await expect(devices.cell('UPS-01')).toBeVisible();
  await page.getByRole('button', { name: '设备模板' }).click();
  const drawer = page.locator('.ant-drawer');
  await expect(drawer.getByText('内置').first()).toBeVisible();
  await expect(drawer.getByRole('row', { name: /SNMP UPS/ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('templates-zh_cn.png') });

  // A template of one's own: a Modbus energy meter whose one point is only recorded.
  await drawer.getByRole('button', { name: '新增模板' }).click();
  const form = page.getByRole('dialog', { name: '新增模板' });
  await form.getByLabel('模板名称').fill('电能表 A');
  await form.getByRole('button', { name: '新增点位' }).click();
  const point = page.getByRole('dialog', { name: '新增点位' });
  await point.getByLabel('监控项名称').fill('正向有功电能');
  await point.getByLabel('仅记录').click();
  await expect(point.getByLabel('阈值最小值')).toHaveCount(0);
  await point.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(form.getByText('正向有功电能')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('template-form-zh_cn.png') });
  await form.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(drawer.getByRole('cell', { name: '电能表 A' })).toBeVisible();
  await drawer.locator('.ant-drawer-close').click();

  // A device's point table: a file with a bad row is refused, and the row and column are shown.
  await page
    .getByRole('row', { name: /UPS-01/ })
    .first()
    .getByRole('button', { name: /^点\s*表$/ })
    .click();
  const dialog = page.getByRole('dialog', { name: /的点表/ });
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'points.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,threshold_max\r\nA相输入电压,"12,5"\r\n'),
  });
  await expect(dialog.getByText('第 2 行“threshold_max”列：须为数字（不含千位分隔符，小数点用“.”）')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('point-table-zh_cn.png') });
});
