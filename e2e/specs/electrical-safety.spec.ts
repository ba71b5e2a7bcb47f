import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { encrypt, signInAsAdmin } from '../fixtures/product.ts';
import { adminApi, createDevice, createSite } from '../fixtures/stage.ts';
import { expect, test } from '../fixtures/test.ts';
import { ElectricalSafety } from '../pages/electrical-safety.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
const switchPassword = 'Switch-Pass-61';

test('power quality of a meter analysed, and a switch opened with the verification password', async ({
  page,
  request,
}) => {
  mkdirSync(shots, { recursive: true });
  await signInAsAdmin(page, request);
  const safety = new ElectricalSafety(page);
  // A room of its own: a simulated power meter and a simulated four-way switch, read every second.
  const site = await createSite(request, '配电室');
  const meter = await createDevice(request, site, '总进线电表', { code: 'power_meter', template_id: 4 });
  const switches = await createDevice(request, site, '馈线开关柜', { code: 'switch', template_id: 8 });
  const items = (await adminApi(request, 'get', `setting/items?device_id=${switches}`)).data as Array<{
    id: number;
    item_cell_name: string;
  }>;
  const sw1 = items.find((i) => i.item_cell_name === 'SW1')!.id;
  // Switch control on, with its verification password (sent encrypted, stored hashed).
  const key = (await (await request.get('/api/v1/pub/login/params')).json()).data.public_key;
  const { limits } = await adminApi(request, 'get', 'setting/power_safety_settings');
  await adminApi(request, 'put', 'setting/power_safety_settings', {
    control_enabled: true,
    limits,
    new_password: encrypt(key, switchPassword),
  });

  // The monitor of the room's meters: the new meter's phase values and figures, judged by the limits.
  await safety.monitor('配电室');
  const row = page.getByRole('row', { name: /总进线电表/ });
  await expect(row).toBeVisible();
  // Each phase in a column of its own under its group (相电压 A B C), with a value once polled.
  await expect(safety.monitorCell(row, 'ua')).toHaveText(/^\d+\.\d$/, { timeout: 20_000 });
  await expect(safety.monitorCell(row, 'ic')).toHaveText(/^\d+\.\d$/);
  // At 1366 × 768 the whole table fits: THD, frequency and the issues are on screen, no scrolling.
  await expect.poll(() => safety.monitorOverflow()).toBeLessThanOrEqual(0);
  await expect(page.getByRole('columnheader', { name: '越限' })).toBeInViewport();
  await page.screenshot({ path: path.join(shots, 'elect-monitor-zh_cn-1366x768.png') });
  // The switch cabinet has no meter items: its mapping is opened from the device picker and shows
  // the four switches read from the cell names SW1-SW4.
  await page.getByRole('combobox', { name: '设置设备的监控项用途…' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="配电室 / 馈线开关柜"]').click();
  const mapping = page.getByRole('dialog', { name: '馈线开关柜 的监控项用途' });
  await expect(mapping).toContainText('当前按监控项单元名自动识别');
  await expect(mapping.getByRole('combobox', { name: '开关' })).toHaveCount(4);
  await page.screenshot({ path: path.join(shots, 'elect-mapping-zh_cn.png') });
  await mapping.getByRole('button', { name: /^取 ?消$/ }).click();
  await expect(mapping).toBeHidden();
  await row.getByRole('button', { name: '分析' }).click();

  // The analysis of that meter over the last 24 hours: the summary and the charts of its minute means.
  await expect(page).toHaveURL(new RegExp(`elect_analysis\\?device_id=${meter}`));
  const summary = page.getByTestId('analysis-summary');
  await expect(summary.getByRole('row', { name: /电压不平衡度/ }).first()).toContainText(/\d+\.\d{3}/, {
    timeout: 20_000,
  });
  await expect(page.getByTestId('analysis-resolution')).toContainText('按分钟平均');
  await page.screenshot({ path: path.join(shots, 'elect-analysis-zh_cn.png'), fullPage: true });

  // The distribution diagram: SW1 is closed; opening it asks for the verification password.
  await page.goto('/electricity_safe/distribution_power');
  const sw = safety.switch(sw1);
  await expect(sw).toHaveAttribute('data-state', 'on', { timeout: 20_000 });
  await page.screenshot({ path: path.join(shots, 'distribution-power-zh_cn.png'), fullPage: true });
  const dialog = await safety.openSwitch(sw1, 'Wrong-Pass-00');
  await expect(dialog).toContainText('馈线开关柜');
  await expect(page.getByText('密码错误，请重新输入！')).toBeVisible();
  await expect(sw).toHaveAttribute('data-state', 'on');
  await safety.openSwitch(sw1, switchPassword);
  await expect(page.getByText('开关操作成功')).toBeVisible();
  // The device was written: the next poll reads the switch open.
  await expect(sw).toHaveAttribute('data-state', 'off', { timeout: 15_000 });

  // The switch operation page lists both attempts: the wrong password and the opening.
  await page.goto('/electricity_safe/switch_opt');
  const log = page.getByRole('row', { name: /总进线电表|馈线开关柜/ });
  // The operator by their alias (issue 38), not the login name "admin".
  await expect(page.getByRole('row', { name: /Administrator.*馈线开关柜.*分闸.*成功/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Administrator.*馈线开关柜.*分闸.*密码错误/ })).toBeVisible();
  await expect(log.first()).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'switch-opt-zh_cn.png'), fullPage: true });
  // The settings: switch control on, a password set (never shown), the limits.
  const drawer = await safety.settings();
  await expect(drawer.getByRole('switch')).toBeChecked();
  await expect(drawer).toContainText('已设置开关操作验证密码');
  await expect(drawer.getByLabel('电压不平衡度上限')).toHaveValue('2.0');
  await page.screenshot({ path: path.join(shots, 'power-safety-settings-zh_cn.png') });
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The overview at 1366 × 768: nothing wider than the window, counters of one height with their
  // values on one line, site names whole (issue 38).
  await page.goto('/electricity_safe/overview');
  await expect(page.getByTestId('electrical-stat-meters')).toContainText(/\d/);
  expect(await safety.overviewLayout()).toMatchObject({ overflow: 0, valuesWrapped: 0, sitesWrapped: 0 });
  expect((await safety.overviewLayout()).cardHeights).toHaveLength(1);
  await page.screenshot({ path: path.join(shots, 'electrical-overview-zh_cn-1366x768.png') });

  // The same pages in English.
  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto('/energy_manage/elect_monitor');
  await expect(safety.monitorCell(page.getByRole('row', { name: /总进线电表/ }), 'ua')).toHaveText(/^\d+\.\d$/);
  await expect.poll(() => safety.monitorOverflow()).toBeLessThanOrEqual(0);
  await expect(page.getByRole('columnheader', { name: 'Beyond limits' })).toBeInViewport();
  await page.screenshot({ path: path.join(shots, 'elect-monitor-en_us-1366x768.png') });
  await page.goto(`/energy_manage/elect_analysis?device_id=${meter}`);
  await expect(page.getByTestId('analysis-resolution')).toContainText('Minute means');
  await page.screenshot({ path: path.join(shots, 'elect-analysis-en_us.png'), fullPage: true });
  await page.goto('/electricity_safe/switch_opt');
  await expect(page.getByRole('row', { name: /Administrator.*Wrong password/ })).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'switch-opt-en_us.png'), fullPage: true });
  await page.goto('/electricity_safe/overview');
  await expect(page.getByTestId('electrical-overview-page')).toContainText('Meters beyond limits');
  await expect(page.getByTestId('electrical-stat-power')).toContainText('Active power (kW)');
  expect(await safety.overviewLayout()).toMatchObject({ overflow: 0, valuesWrapped: 0, sitesWrapped: 0 });
  expect((await safety.overviewLayout()).cardHeights).toHaveLength(1);
  await page.screenshot({ path: path.join(shots, 'electrical-overview-en_us.png'), fullPage: true });
  await page.evaluate(() => localStorage.setItem('language', 'zh_cn'));
});
