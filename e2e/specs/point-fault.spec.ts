import { float32NaN, pymodbusPeer } from '../../server/test/helpers/pymodbus.ts';
import { adminHeaders, adminPassword, loginToConsole } from '../fixtures/product.ts';
import { type APIRequestContext, expect, test } from '../fixtures/test.ts';
import { Alarms } from '../pages/alarms.ts';

let headers: Record<string, string> | null = null;
const api = async (request: APIRequestContext, method: 'get' | 'post' | 'put', url: string, data?: unknown) => {
  headers ??= await adminHeaders(request);
  const res = await request[method](`/api/v1/${url}`, { headers, ...(data ? { data } : {}) });
  const body = await res.json();
  if (body.code !== 0) throw new Error(`${method} ${url}: ${JSON.stringify(body)}`);
  return body.data;
};

// The demo estate raises alarms of its own as it runs: they are confirmed first, so the panel shows
// this journey's alarm.
test.beforeEach(async ({ request }) => {
  headers ??= await adminHeaders(request);
  await request.put('/api/v1/warning_operation', { headers, data: { remarks: 'e2e: clear the stage' } });
});

/**
 * Issue 28, Build 1: a temperature sensor behind a Modbus gateway (pymodbus) starts answering NaN.
 * Its point-fault alarm is in the pop-up after its repetitions (2 polls a second apart), with the
 * reason, and the station page shows the item unknown and in alarm; a good value recovers it.
 */
test('a sensor that starts answering NaN shows its point-fault alarm in the pop-up within its repetitions', async ({
  page,
  request,
}) => {
  const peer = await pymodbusPeer({
    holding: [
      { address: 0, type: 'float32', value: 230 },
      { address: 2, type: 'float32', value: 22.5 },
    ],
  });
  try {
    const site = await api(request, 'post', 'setting/device_groups', { name: '测点故障机房', weight: 1 });
    const device = await api(request, 'post', 'setting/devices', {
      name: 'GW-NAN',
      device_group_id: site.id,
      driver: 'modbus-tcp',
      code: 'temp_hum',
      ip: '127.0.0.1',
      port: peer.port,
      check_interval: 1,
    });
    const item = (name: string, register: number, over: object = {}) =>
      api(request, 'post', 'setting/items', {
        device_id: device.id,
        name,
        value_type: 1,
        threshold_min: -100,
        threshold_max: 1000,
        overrun_point: 0,
        recovery_point: 0,
        source: { kind: 'modbus', function: 3, register, data_type: 'float32', scale: 1 },
        ...over,
      });
    await item('网关电压', 0);
    const sensor = await item('机柜温度传感器', 2, { unit: '℃', repetitions: 2 });

    await loginToConsole(page, 'admin', adminPassword);
    const alarms = new Alarms(page);
    await expect(alarms.bell).toBeVisible({ timeout: 30_000 });
    // The station page shows the sensor's value first.
    await page.goto(`/station?device_group_id=${site.id}`);
    const row = page.getByTestId(`item-${sensor.id}`);
    await expect(row).toContainText('22.5', { timeout: 15_000 });

    await peer.set('holding', { address: 2, registers: float32NaN });
    const failed = Date.now();
    const notice = alarms.notice('机柜温度传感器');
    // Two polls a second apart, then the push: well within its repetitions and a poll's slack.
    await expect(notice).toBeVisible({ timeout: 15_000 });
    expect(Date.now() - failed).toBeLessThan(8_000);
    await expect(notice).toContainText('测点故障');
    await expect(notice.getByTestId('alarm-notice-info')).toHaveText('value is not a number (NaN)');
    // On the station page the item is unknown and marked in alarm, the reason on its tag.
    await expect(row).toContainText('未知');
    await expect(page.getByTestId(`item-alarm-${sensor.id}`)).toBeVisible();
    await expect(row.getByText('未知')).toHaveAttribute('title', 'value is not a number (NaN)');
    await page.screenshot({ path: test.info().outputPath('point-fault-notice.png') });

    // A good value again: the alarm recovers by itself.
    await peer.set('holding', { address: 2, type: 'float32', value: 23 });
    await expect(row).toContainText('23', { timeout: 15_000 });
    await expect(notice).toContainText('已恢复', { timeout: 15_000 });
    await expect(page.getByTestId(`item-alarm-${sensor.id}`)).toHaveCount(0);
  } finally {
    peer.stop();
  }
});
