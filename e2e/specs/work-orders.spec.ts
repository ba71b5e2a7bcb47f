import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminHeaders, encrypt, resetAdminLanguage } from '../fixtures/product.ts';
import { type APIRequestContext, expect, type Page, test } from '../fixtures/test.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
test.afterEach(async ({ request }) => resetAdminLanguage(request));
// The smallest valid PNG: 1×1, one grey pixel.
const png = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010800000000376ef9240000000a49444154789c6360000000020001e221bc330000000049454e44ae426082',
  'hex',
);

test('a new order reaches the handler’s bell by push; received, photographed, submitted, passed and counted', async ({
  page,
  request,
}) => {
  mkdirSync(shots, { recursive: true });
  const headers = await adminHeaders(request);
  await page.addInitScript(
    (value) => sessionStorage.setItem('token', value),
    headers.authorization.replace('Bearer ', ''),
  );
  // The push channel is signed in (its `ready` frame) before the order is created elsewhere.
  const pushReady = new Promise<void>((resolve) =>
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        if (String(f.payload).includes('"type":"ready"')) resolve();
      }),
    ),
  );
  await page.goto('/work_order');
  await pushReady;
  const bell = page.getByTestId('work-order-bell');
  await expect(bell).toBeVisible();
  await expect(page.getByRole('tab', { name: '待我处理' })).toBeVisible();

  // Created elsewhere (self-dispatch through the API): the bell counts it by push, well before its 30 s poll.
  const res = await request.post('/api/v1/work_order', {
    headers,
    data: { description: '机房 A 空调漏水', priority: 4, handler_id: 1, reviewer_id: 1, deadline_hours: 4 },
  });
  expect(res.status(), await res.text()).toBe(200);
  await expect(bell.locator('.ant-badge-count')).toHaveText('1', { timeout: 2000 });

  await bell.click();
  await page.getByTestId('work-order-bell-list').getByText('机房 A 空调漏水').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('待接收')).toBeVisible();
  await dialog.getByRole('button', { name: /^接 ?收$/ }).click();
  await expect(dialog.getByTestId('work-order-detail').getByText('已接收')).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
  await expect(dialog.locator('img[alt="photo.png"]')).toBeVisible();
  await dialog.getByRole('button', { name: /^提 ?交$/ }).click();
  const submit = page.getByRole('dialog', { name: '提交' });
  await submit.getByLabel('处理方法').fill('更换冷凝水泵');
  await submit.getByRole('button', { name: /OK|确/ }).click();
  await expect(dialog.getByTestId('work-order-detail').getByText('待审核')).toBeVisible();
  await dialog.getByRole('button', { name: /^通 ?过$/ }).click();
  await page.getByRole('dialog', { name: '通过' }).getByRole('button', { name: /OK|确/ }).click();
  await expect(dialog.getByTestId('work-order-detail').getByText('已通过')).toBeVisible();
  await expect(bell.locator('.ant-badge-count')).toHaveCount(0);
  await page.waitForTimeout(400); // the dialog's opening animation
  await page.screenshot({ path: path.join(shots, 'work-order-detail-zh_cn.png') });

  await page.goto('/workorder_statistics');
  await expect(page.getByTestId('work-order-stats-passed')).toContainText('1');
  await page.screenshot({ path: path.join(shots, 'work-order-statistics-zh_cn.png'), fullPage: true });
  await page.getByTestId('work-order-stats-days').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'work-order-statistics-days-zh_cn.png') });

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto('/work_order?index=0');
  await expect(page.getByRole('tab', { name: 'To handle' })).toBeVisible();
  await expect(page.getByText('Passed')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'work-order-list-en_us.png'), fullPage: true });
});

const api = async (request: APIRequestContext, method: 'get' | 'post' | 'put', url: string, data?: unknown) => {
  const res = await request[method](`/api/v1/${url}`, {
    headers: await adminHeaders(request),
    ...(data ? { data } : {}),
  });
  const body = await res.json();
  if (body.code !== 0) throw new Error(`${method} ${url}: ${JSON.stringify(body)}`);
  return body.data;
};
/** Resolves with the first push frame that holds every one of these texts. */
const frame = (page: Page, ...texts: string[]) =>
  new Promise<void>((resolve) =>
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const s = String(f.payload);
        if (texts.every((x) => s.includes(x))) resolve();
      }),
    ),
  );

test('a dispatch rule turns an alarm into an order in the handler’s bell; the alarm and the order link to each other', async ({
  page,
  request,
}) => {
  const headers = await adminHeaders(request);
  await page.addInitScript(
    (value) => sessionStorage.setItem('token', value),
    headers.authorization.replace('Bearer ', ''),
  );
  const me = (await api(request, 'get', 'work_order/users')).find((u: { id: number }) => u.id === 1).name;
  const pushReady = frame(page, '"type":"ready"');
  const alarmRaised = frame(page, '"type":"alarm"', '"event":"raise"', '送风温度');
  await page.goto('/work_order');
  await pushReady;

  // The rule, made on the page: level 1 and 2 alarms of every site go to me, closing as fixed waits for recovery.
  await page.getByTestId('dispatch-rules-open').click();
  await page.getByRole('button', { name: '新建规则' }).click();
  const form = page.getByRole('dialog', { name: '新建规则' });
  await form.getByLabel('规则名称').fill('空调告警派单');
  await form.getByRole('combobox', { name: '处理人' }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(me).click();
  // One list at a time: the first one's closing animation would take the next click.
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await form.getByRole('combobox', { name: '审核人' }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(me).click();
  await form.getByRole('switch', { name: /须告警先恢复/ }).click();
  await form.getByRole('button', { name: /OK|确/ }).click();
  await expect(form).toBeHidden();
  const rules = page.getByTestId('dispatch-rules');
  await expect(rules.locator('tr', { hasText: '空调告警派单' })).toContainText('全部站点');
  await page.screenshot({ path: path.join(shots, 'work-order-rules-zh_cn.png') });
  await page.locator('.ant-drawer-close').click();
  await expect(rules).toBeHidden();

  const before = (await api(request, 'get', 'work_order/not_received')).count as number;
  const site = await api(request, 'post', 'setting/device_groups', { name: '派单机房', weight: 1 });
  const device = await api(request, 'post', 'setting/devices', {
    name: 'AC-派单',
    device_group_id: site.id,
    driver: 'simulator',
    code: 'temp_hum',
    check_interval: 1,
  });
  await api(request, 'post', 'setting/items', {
    device_id: device.id,
    name: '送风温度',
    value_type: 1,
    unit: '℃',
    threshold_min: 10,
    threshold_max: 30,
    overrun_point: 0,
    recovery_point: 1,
    alarm_level: 1,
    source: { kind: 'simulator', model: 'analog', base: 40, spread: 0, noise: 0 },
  });
  await alarmRaised;
  // The order is made and pushed to its handler: the bell counts it within 2 s of the alarm.
  const bell = page.getByTestId('work-order-bell');
  await expect(bell.locator('.ant-badge-count')).toHaveText(String(before + 1), { timeout: 2000 });

  await bell.click();
  await page.getByTestId('work-order-bell-list').getByText('AC-派单 / 送风温度').click();
  const dialog = page.getByRole('dialog');
  const detail = dialog.getByTestId('work-order-detail');
  await expect(detail).toContainText('自动派单');
  const number = ((await dialog.locator('.ant-modal-title').textContent()) ?? '').match(/WO\d{6}/)![0];
  await page.waitForTimeout(400); // the dialog's opening animation
  await page.screenshot({ path: path.join(shots, 'work-order-auto-zh_cn.png') });

  // The order opens its alarm; the alarm's row names the order and opens it again.
  await detail.getByTestId('work-order-alarm').click();
  await expect(page).toHaveURL(/\/alarm\?status_id=\d+/);
  const alarmUrl = new URL(page.url());
  await expect(page.getByTestId('alarm-one')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '送风温度' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('alarm-work-order')).toHaveText(number);
  await page.screenshot({ path: path.join(shots, 'alarm-work-order-zh_cn.png') });
  await row.getByTestId('alarm-work-order').click();
  await expect(page).toHaveURL(/\/work_order\?index=3&id=\d+/);
  await expect(page.getByRole('dialog').locator('.ant-modal-title')).toContainText(number);

  // Handled: closing as "fixed" waits for the alarm's recovery (the rule says so); "other" goes through.
  const again = page.getByRole('dialog').filter({ has: page.getByTestId('work-order-detail') });
  await again.getByRole('button', { name: /^接 ?收$/ }).click();
  await expect(again.getByTestId('work-order-detail')).toContainText('已接收');
  await again.getByRole('button', { name: /^提 ?交$/ }).click();
  const submit = page.getByRole('dialog', { name: '提交' });
  await submit.getByLabel('处理方法').fill('清洗冷凝器，温度待观察');
  await submit.getByRole('button', { name: /OK|确/ }).click();
  await expect(page.getByText('关联告警尚未恢复，不能以"已修复"关闭工单')).toBeVisible();
  await expect(again.getByTestId('work-order-detail')).toContainText('已接收');
  await submit.getByText('其他', { exact: true }).click();
  await submit.getByRole('button', { name: /OK|确/ }).click();
  await expect(again.getByTestId('work-order-detail')).toContainText('待审核');
  await again.getByRole('button', { name: /^通 ?过$/ }).click();
  await page.getByRole('dialog', { name: '通过' }).getByRole('button', { name: /OK|确/ }).click();
  await expect(again.getByTestId('work-order-detail')).toContainText('已通过');

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto(alarmUrl.pathname + alarmUrl.search);
  await expect(page.getByRole('columnheader', { name: 'Work order' })).toBeVisible();
  await expect(page.getByTestId('alarm-work-order')).toHaveText(number);
  await page.screenshot({ path: path.join(shots, 'alarm-work-order-en_us.png') });
  await page.goto('/work_order?index=3');
  await page.getByTestId('dispatch-rules-open').click();
  await expect(page.getByTestId('dispatch-rules')).toContainText('Every site');
  await page.waitForTimeout(400); // the drawer's opening animation
  await page.screenshot({ path: path.join(shots, 'work-order-rules-en_us.png') });

  // The statistics by day (work_order_main_page/time) count today's two orders.
  await page.goto('/workorder_statistics');
  const days = page.getByTestId('work-order-stats-days');
  await days.scrollIntoViewIfNeeded();
  await expect(days).toContainText('Per day');
  await expect(days.locator('canvas')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'work-order-statistics-days-en_us.png') });
});

test('one order is returned by its handler, another is transferred to a colleague', async ({ page, request }) => {
  const headers = await adminHeaders(request);
  await page.addInitScript(
    (value) => sessionStorage.setItem('token', value),
    headers.authorization.replace('Bearer ', ''),
  );
  const { public_key } = await api(request, 'get', 'pub/login/params');
  await api(request, 'post', 'setting/users', {
    user_name: 'wo-colleague',
    alias: '转派同事',
    password: encrypt(public_key, 'Wo-Colleague-First-1'),
    role_ids: [1],
    user_group_ids: [1],
  });
  const order = (description: string) =>
    api(request, 'post', 'work_order', { description, priority: 2, handler_id: 1, reviewer_id: 1, deadline_hours: 8 });
  const returned = await order('UPS 电池巡检');
  const moved = await order('门禁读卡器更换');

  // Returned (refused) by its handler with a reason: back with the creator, who may edit and resend it.
  await page.goto(`/work_order?index=0&id=${returned.id}`);
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('work-order-detail') });
  await dialog.getByRole('button', { name: /^退 ?回$/ }).click();
  const refuse = page.getByRole('dialog', { name: '退回' });
  await refuse.getByLabel('备注').fill('不属于本班组');
  await refuse.getByRole('button', { name: /OK|确/ }).click();
  await expect(dialog.getByTestId('work-order-detail')).toContainText('已退回');
  await expect(dialog.getByTestId('work-order-detail')).toContainText('不属于本班组');
  await expect(dialog.getByRole('button', { name: /^编 ?辑$/ })).toBeVisible();
  await page.waitForTimeout(400); // the dialog's opening animation
  await page.screenshot({ path: path.join(shots, 'work-order-returned-zh_cn.png') });
  await dialog.locator('.ant-modal-close').click();

  // Transferred: the colleague is the handler now and must receive it; I may no longer act on it.
  await page.goto(`/work_order?index=1&id=${moved.id}`);
  await dialog.getByRole('button', { name: /^转 ?派$/ }).click();
  const transfer = page.getByRole('dialog', { name: '转派' });
  await transfer.getByRole('combobox', { name: '新处理人' }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('转派同事').click();
  await transfer.getByLabel('备注').fill('交给门禁专员');
  await transfer.getByRole('button', { name: /OK|确/ }).click();
  await expect(dialog.getByTestId('work-order-detail')).toContainText('转派同事');
  await expect(dialog.getByTestId('work-order-detail')).toContainText('待接收');
  await expect(dialog.getByRole('button', { name: /^接 ?收$/ })).toHaveCount(0);
  await expect(dialog.locator('.ant-timeline')).toContainText('转派: 交给门禁专员');
  await dialog.locator('.ant-modal-close').click();
  const list = page.locator('.ant-table');
  await expect(list.locator('tr', { hasText: '门禁读卡器更换' })).toContainText('转派同事');
  await expect(list.locator('tr', { hasText: 'UPS 电池巡检' })).toContainText('已退回');
  await expect(dialog).toBeHidden();
  await page.screenshot({ path: path.join(shots, 'work-order-transferred-zh_cn.png'), fullPage: true });

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto('/work_order?index=1');
  await expect(page.locator('tr', { hasText: 'UPS 电池巡检' })).toContainText('Returned');
  await page.screenshot({ path: path.join(shots, 'work-order-transferred-en_us.png'), fullPage: true });
});
