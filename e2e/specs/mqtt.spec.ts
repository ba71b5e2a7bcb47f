import { signInAsAdmin } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';
import { ResourceList } from '../pages/resource-list.ts';

test.describe.configure({ mode: 'serial' });

let headers: Record<string, string> = {};
test.beforeEach(async ({ request, page }) => {
  headers = await signInAsAdmin(page, request);
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

  const itemList = await new ResourceList(page, '/setting_items').goto();
  await itemList.pick(/设备/, 'GW-MQTT');
  const form = await itemList.add(/添加监控项/);
  await form.fill({ 监控项名称: '机柜温度' });
  await form.choose('采集方式', 'MQTT');
  await form.field('主题', { exact: true }).fill('site/{device_id}/#/temp');
  await form.fill({
    JSON路径: 'data.temp',
    控制主题: 'site/{device_id}/set',
    命令负载: '{"target":{value}}',
    '最大数据时效（秒）': '120',
  });
  await form.ok();
  // `#` not last: refused beside the topic, nothing saved.
  await form.expectRefused('主题格式不正确：+ 只能代表一整级，# 只能作为最后一级');
  await form.field('主题', { exact: true }).fill('site/{device_id}/+/state');
  await page.screenshot({ path: test.info().outputPath('item-form-mqtt-zh_cn.png') });
  await form.save();

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
