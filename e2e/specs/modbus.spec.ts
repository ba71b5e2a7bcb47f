import { signInAsAdmin } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';
import { ResourceList } from '../pages/resource-list.ts';

test.describe.configure({ mode: 'serial' });

let headers: Record<string, string> = {};
test.beforeEach(async ({ request, page }) => {
  headers = await signInAsAdmin(page, request);
});

/**
 * Issue 13, Build 2: the device form's Modbus settings, the item form's byte order, register
 * numbering and display decimals, and a value shown with its decimals on the item list and the
 * data list ("230.100006 V" → "230.10 V").
 */
test('Modbus settings in the device and item forms, and values shown with display decimals', async ({
  page,
  request,
}) => {
  const api = async (method: 'get' | 'post' | 'put', url: string, data?: object) => {
    const res = await request[method](`/api/v1/${url}`, { headers, ...(data ? { data } : {}) });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data;
  };
  const site = await api('post', 'setting/device_groups', { name: 'Modbus 测试机房', weight: 1 });
  // A 1-based meter: its items' register field says so.
  await api('post', 'setting/devices', {
    name: 'PM-MB1',
    device_group_id: site.id,
    driver: 'modbus-tcp',
    code: 'power_meter',
    ip: '127.0.0.1',
    port: 1502,
    enable: false,
    options: { modbus_address_base: 1, modbus_merge_gap: 4 },
  });
  // A simulated meter reading exactly 230.100006 V, shown with 2 decimals.
  const sim = await api('post', 'setting/devices', {
    name: 'PM-DEC',
    device_group_id: site.id,
    driver: 'simulator',
    code: 'power_meter',
    check_interval: 1,
  });
  await api('post', 'setting/items', {
    device_id: sim.id,
    name: '相电压 DEC',
    unit: 'V',
    decimals: 2,
    value_type: 1,
    threshold_min: 0,
    threshold_max: 400,
    recovery_point: 0,
    overrun_point: 0,
    source: { kind: 'simulator', model: 'analog', base: 230.100006, spread: 0, noise: 0, decimals: 6 },
  });

  const devices = await new ResourceList(page, '/setting_device_mange').goto();
  await devices.search('设备名称', 'PM-MB1');
  const deviceForm = await devices.edit('PM-MB1');
  await expect(deviceForm.root.getByText('合并读取相邻点')).toBeVisible();
  await expect(deviceForm.field('合并空隙（寄存器）')).toHaveValue('4');
  await expect(deviceForm.field('单次最多读取（寄存器）')).toHaveValue('64');
  await expect(deviceForm.root.getByText('从 1 开始（如多数手册）')).toBeVisible();
  await deviceForm.root.getByText('合并读取相邻点').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('device-form-modbus-zh_cn.png') });
  await deviceForm.close();

  const items = await new ResourceList(page, '/setting_items').goto();
  await items.pick(/设备/, 'PM-MB1');
  const itemForm = await items.add(/添加监控项|Add item/);
  await expect(itemForm.root.getByText('显示小数位')).toBeVisible();
  await itemForm.choose('采集方式', 'Modbus');
  await expect(itemForm.root.getByText('寄存器地址（从 1 开始）')).toBeVisible();
  await itemForm.field('字节序').click();
  for (const order of ['ABCD（大端）', 'CDAB（字交换）', 'BADC（字节交换）', 'DCBA（小端）']) {
    await expect(page.locator(`.ant-select-item-option[title="${order}"]`)).toBeVisible();
  }
  await page.locator('.ant-select-item-option[title="CDAB（字交换）"]').click();
  await page.screenshot({ path: test.info().outputPath('item-form-modbus-zh_cn.png') });
  // The form checks with the item request's contract: a maximum below the minimum is refused
  // beside its field and nothing is sent.
  await expect(itemForm.field('设备', { exact: true })).toHaveCount(1);
  await itemForm.fill({ 监控项名称: '越界测点', 阈值最小值: '10', 阈值最大值: '5' });
  await itemForm.ok();
  await itemForm.expectRefused('最大值不能小于最小值');
  await itemForm.close();

  // The item list and the data list show the value with its 2 decimals.
  await items.goto();
  await items.search('监控项名称', '相电压 DEC');
  const row = items.row('相电压 DEC');
  await expect(row.getByText('230.10 V')).toBeVisible({ timeout: 30_000 });
  await page.goto('/data_list');
  await expect(page.getByRole('row', { name: /相电压 DEC/ }).getByText('230.10 V')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('data-list-decimals-zh_cn.png') });
});
