import { adminHeaders } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';

test.describe.configure({ mode: 'serial' });

let headers: Record<string, string> = {};
test.beforeEach(async ({ request, page }) => {
  headers = await adminHeaders(request);
  await page.addInitScript(
    (value) => sessionStorage.setItem('token', value),
    headers.authorization!.replace('Bearer ', ''),
  );
});

/**
 * Issue 13, Build 3: the item form takes an MQTT topic filter with wildcards, a command payload
 * template and a maximum age; a wildcard out of place is refused beside the field; an MQTT item
 * saved without a maximum age gets the 300 s default.
 */
test('MQTT item form: topic filter, command payload template and maximum age', async ({ page, request }) => {
  const api = async (method: 'get' | 'post', url: string, data?: object) => {
    const res = await request[method](`/api/v1/${url}`, { headers, ...(data ? { data } : {}) });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data;
  };
  const site = await api('post', 'setting/device_groups', { name: 'MQTT 测试机房', weight: 1 });
  const device = await api('post', 'setting/devices', {
    name: 'GW-MQTT',
    device_group_id: site.id,
    driver: 'mqtt',
    code: 'temp_hum',
    ip: '127.0.0.1',
    port: 1883,
    enable: false,
  });

  await page.goto('/setting_items');
  await page.getByRole('combobox', { name: /设备/ }).fill('GW-MQTT');
  await page.locator('.ant-select-item-option', { hasText: 'GW-MQTT' }).click();
  await page.getByRole('button', { name: /添加监控项/ }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('监控项名称').fill('机柜温度');
  await form.getByLabel('采集方式').click();
  await page.locator('.ant-select-item-option[title="MQTT"]').click();
  await form.getByLabel('主题', { exact: true }).fill('site/{device_id}/#/temp');
  await form.getByLabel('JSON路径').fill('data.temp');
  await form.getByLabel('控制主题').fill('site/{device_id}/set');
  await form.getByLabel('命令负载').fill('{"target":{value}}');
  await form.getByLabel('最大数据时效（秒）').fill('120');
  await form.getByRole('button', { name: /确\s*定|OK/ }).click();
  // `#` not last: refused beside the topic, nothing saved.
  await expect(form.getByText('主题格式不正确：+ 只能代表一整级，# 只能作为最后一级')).toBeVisible();
  await form.getByLabel('主题', { exact: true }).fill('site/{device_id}/+/state');
  await page.screenshot({ path: test.info().outputPath('item-form-mqtt-zh_cn.png') });
  await form.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(form).toBeHidden();

  const items = await api('get', `setting/items?device_id=${device.id}`);
  const saved = items.data.find((i: { name: string }) => i.name === '机柜温度');
  expect(saved).toMatchObject({
    max_age: 120,
    source: {
      kind: 'mqtt',
      topic: 'site/{device_id}/+/state',
      json_path: 'data.temp',
      command_topic: 'site/{device_id}/set',
      command_payload: '{"target":{value}}',
    },
  });
  // Through the API without a maximum age: MQTT's default.
  const plain = await api('post', 'setting/items', {
    device_id: device.id,
    name: '湿度',
    value_type: 1,
    threshold_min: 0,
    threshold_max: 100,
    recovery_point: 0,
    overrun_point: 0,
    source: { kind: 'mqtt', topic: 'site/{device_id}/hum' },
  });
  expect(plain.max_age).toBe(300);
});
