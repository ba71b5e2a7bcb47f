import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createUser, resetAdminLanguage, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { addReading, adminApi, createDevice, createSite } from '../fixtures/stage.ts';
import { expect, test } from '../fixtures/test.ts';
import { openList } from '../pages/pickers.ts';
import { pushFrame, pushReady } from '../pages/push.ts';
import { WorkOrderDialog, WorkOrders } from '../pages/work-orders.ts';

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
  const headers = await signInAsAdmin(page, request);
  const orders = new WorkOrders(page);
  // The push channel is signed in (its `ready` frame) before the order is created elsewhere.
  const ready = pushReady(page);
  await page.goto('/work_order');
  await ready;
  await expect(orders.bell).toBeVisible();
  await expect(page.getByRole('tab', { name: '待我处理' })).toBeVisible();

  // Created elsewhere (self-dispatch through the API): the bell counts it by push, well before its
  // 30 s poll (the bound leaves a loaded machine 10 s and still tells a push from a poll).
  const res = await request.post('/api/v1/work_order', {
    headers,
    data: { description: '机房 A 空调漏水', priority: 4, handler_id: 1, reviewer_id: 1, deadline_hours: 4 },
  });
  expect(res.status(), await res.text()).toBe(200);
  await expect(orders.count).toHaveText('1', { timeout: 10_000 });

  const order = await orders.fromBell('机房 A 空调漏水');
  await expect(order.detail.getByText('待接收')).toBeVisible();
  await order.receive();
  await order.root.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
  await expect(order.root.locator('img[alt="photo.png"]')).toBeVisible();
  await order.submit('更换冷凝水泵');
  await expect(order.detail).toContainText('待审核');
  await order.pass();
  await expect(orders.count).toHaveCount(0);
  await expectNoRawKeys(page, 'a work order (zh_cn)');
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
  await expectNoRawKeys(page, 'the work orders (en_us)');
  await page.screenshot({ path: path.join(shots, 'work-order-list-en_us.png'), fullPage: true });
});

test('a dispatch rule turns an alarm into an order in the handler’s bell; the alarm and the order link to each other', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  const orders = new WorkOrders(page);
  const me = (await adminApi(request, 'get', 'work_order/users')).find((u: { id: number }) => u.id === 1).name;
  const ready = pushReady(page);
  const alarmRaised = pushFrame(page, '"type":"alarm"', '"event":"raise"', '送风温度');
  await page.goto('/work_order');
  await ready;

  // The rule, made on the page: level 1 and 2 alarms of every site go to me, closing as fixed waits for recovery.
  await page.getByTestId('dispatch-rules-open').click();
  await page.getByRole('button', { name: '新建规则' }).click();
  const form = page.getByRole('dialog', { name: '新建规则' });
  await form.getByLabel('规则名称').fill('空调告警派单');
  await form.getByRole('combobox', { name: '处理人' }).click();
  await openList(page).getByTitle(me).click();
  // One list at a time: the first one closes before the next opens.
  await expect(openList(page)).toHaveCount(0);
  await form.getByRole('combobox', { name: '审核人' }).click();
  await openList(page).getByTitle(me).click();
  await form.getByRole('switch', { name: /须告警先恢复/ }).click();
  await form.getByRole('button', { name: /OK|确/ }).click();
  await expect(form).toBeHidden();
  const rules = page.getByTestId('dispatch-rules');
  await expect(rules.locator('tr', { hasText: '空调告警派单' })).toContainText('全部站点');
  // A new rule leaves the priority to the alarm level (one table: a 紧急 alarm is a 紧急 order).
  await expect(rules.locator('tr', { hasText: '空调告警派单' })).toContainText('按告警等级');
  await page.screenshot({ path: path.join(shots, 'work-order-rules-zh_cn.png') });
  await page.locator('.ant-drawer-close').click();
  await expect(rules).toBeHidden();

  const before = (await adminApi(request, 'get', 'work_order/not_received')).count as number;
  const device = await createDevice(request, await createSite(request, '派单机房'), 'AC-派单');
  await addReading(request, device, '送风温度', { base: 40, item: { alarm_level: 1 } });
  await alarmRaised;
  // The order is made and pushed to its handler: the bell counts it long before its 30 s poll.
  await expect(orders.count).toHaveText(String(before + 1), { timeout: 10_000 });

  const order = await orders.fromBell('AC-派单 / 送风温度');
  await expect(order.detail).toContainText('自动派单');
  // The level-1 alarm (紧急) made an urgent order, and its level is shown by name, not "等级 1".
  await expect(order.detail.getByRole('row').filter({ hasText: '优先级' })).toContainText('紧急');
  await expect(order.detail.locator('[data-level="1"]')).toHaveText('紧急');
  await expect(order.detail).not.toContainText('等级 1');
  const number = await order.number();
  await page.screenshot({ path: path.join(shots, 'work-order-auto-zh_cn.png') });

  // The order opens its alarm; the alarm's row names the order and opens it again.
  await order.detail.getByTestId('work-order-alarm').click();
  await expect(page).toHaveURL(/\/alarm\?status_id=\d+/);
  const alarmUrl = new URL(page.url());
  await expect(page.getByTestId('alarm-one')).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '送风温度' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('alarm-work-order')).toHaveText(number);
  await expectNoRawKeys(page, 'an alarm’s work order (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'alarm-work-order-zh_cn.png') });
  await row.getByTestId('alarm-work-order').click();
  await expect(page).toHaveURL(/\/work_order\?index=3&id=\d+/);
  const again = new WorkOrderDialog(page);
  await expect(again.root.locator('.ant-modal-title')).toContainText(number);

  // Handled: closing as "fixed" waits for the alarm's recovery (the rule says so); "other" goes through.
  await again.receive();
  await again.submit('清洗冷凝器，温度待观察');
  await expect(page.getByText('关联告警尚未恢复，不能以"已修复"关闭工单')).toBeVisible();
  await expect(again.detail).toContainText('已接收');
  const submit = again.submitDialog();
  await submit.getByText('其他', { exact: true }).click();
  await submit.getByRole('button', { name: /OK|确/ }).click();
  await expect(again.detail).toContainText('待审核');
  await again.pass();
  // People are named by alias in the timeline, not by login name.
  await expect(again.root.locator('.ant-timeline')).toContainText(me);

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto(alarmUrl.pathname + alarmUrl.search);
  // The order is linked in the actions column, fixed on the right and on screen at 1366 px (issue 38).
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeInViewport();
  await expect(page.getByTestId('alarm-work-order')).toHaveText(number);
  await expect(page.getByTestId('alarm-work-order')).toBeInViewport();
  await expectNoRawKeys(page, 'an alarm’s work order (en_us)');
  await page.screenshot({ path: path.join(shots, 'alarm-work-order-en_us.png') });
  await page.goto('/work_order?index=3');
  await page.getByTestId('dispatch-rules-open').click();
  await expect(page.getByTestId('dispatch-rules')).toContainText('Every site');
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
  await signInAsAdmin(page, request);
  const orders = new WorkOrders(page);
  await createUser(request, { user_name: 'wo-colleague', alias: '转派同事' }, 'Wo-Colleague-Second-2');
  const order = (description: string) =>
    adminApi(request, 'post', 'work_order', {
      description,
      priority: 2,
      handler_id: 1,
      reviewer_id: 1,
      deadline_hours: 8,
    });
  const returned = await order('UPS 电池巡检');
  const moved = await order('门禁读卡器更换');

  // Returned (refused) by its handler with a reason: back with the creator, who may edit and resend it.
  const first = await orders.open(0, returned.id);
  await first.giveBack('不属于本班组');
  await expect(first.detail).toContainText('不属于本班组');
  await expect(first.action('编辑')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'work-order-returned-zh_cn.png') });
  await first.close();

  // Transferred: the colleague is the handler now and must receive it; I may no longer act on it.
  const second = await orders.open(1, moved.id);
  await second.transfer('转派同事', '交给门禁专员');
  await expect(second.detail).toContainText('待接收');
  await expect(second.action('接收')).toHaveCount(0);
  await expect(second.root.locator('.ant-timeline')).toContainText('转派: 交给门禁专员');
  await second.close();
  await expect(orders.row('门禁读卡器更换')).toContainText('转派同事');
  await expect(orders.row('UPS 电池巡检')).toContainText('已退回');
  await page.screenshot({ path: path.join(shots, 'work-order-transferred-zh_cn.png'), fullPage: true });

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto('/work_order?index=1');
  await expect(orders.row('UPS 电池巡检')).toContainText('Returned');
  await expectNoRawKeys(page, 'a transferred work order (en_us)');
  await page.screenshot({ path: path.join(shots, 'work-order-transferred-en_us.png'), fullPage: true });
});

test('转工单: an alarm row opens the new-order form prefilled from the alarm, linked to it, priority from its level', async ({
  page,
  request,
}) => {
  mkdirSync(shots, { recursive: true });
  await signInAsAdmin(page, request);
  const me = (await adminApi(request, 'get', 'work_order/users')).find((u: { id: number }) => u.id === 1).name;
  const ready = pushReady(page);
  const alarmRaised = pushFrame(page, '"type":"alarm"', '"event":"raise"', '回风温度');
  await page.goto('/alarm');
  await ready;
  // Level 3 (重要): no dispatch rule of the other journeys takes it, so the alarm has no order yet.
  const device = await createDevice(request, await createSite(request, '转单机房'), 'AC-转单');
  await addReading(request, device, '回风温度', { base: 40, item: { alarm_level: 3 } });
  await alarmRaised;
  const row = page.getByRole('row').filter({ hasText: '回风温度' });
  await expect(row.getByTestId('alarm-to-work-order')).toHaveText(/转\s?工\s?单/);
  await page.screenshot({ path: path.join(shots, 'alarm-to-work-order-zh_cn.png') });
  await row.getByTestId('alarm-to-work-order').click();

  await expect(page).toHaveURL(/\/work_order\?index=1&from_alarm=\d+/);
  const form = page.getByRole('dialog', { name: '新建工单' });
  await expect(form.getByLabel('问题描述')).toHaveValue(/^转单机房 \/ AC-转单 \/ 回风温度: \S/);
  // 重要 → 高 by the one table (docs/work-orders.md).
  await expect(form.getByTestId('work-order-priority')).toContainText('高');
  await expect(form.getByTestId('work-order-form-alarm').locator('[data-level="3"]')).toHaveText('重要');
  await page.screenshot({ path: path.join(shots, 'work-order-from-alarm-zh_cn.png') });
  await form.getByRole('combobox', { name: '处理人' }).click();
  await openList(page).getByTitle(me).click();
  await expect(openList(page)).toHaveCount(0);
  await form.getByRole('combobox', { name: '审核人' }).click();
  await openList(page).getByTitle(me).click();
  await form.getByRole('button', { name: /OK|确/ }).click();
  await expect(form).toBeHidden();
  await expect(page).not.toHaveURL(/from_alarm/);

  // Linked as dispatch links it: the alarm's row names the order, and offers no second one.
  await page.goto('/alarm');
  await expect(row.getByTestId('alarm-work-order')).toHaveText(/^WO\d+$/);
  await expect(row.getByTestId('alarm-to-work-order')).toHaveCount(0);
  await row.getByTestId('alarm-work-order').click();
  const order = new WorkOrderDialog(page);
  await expect(order.detail.getByRole('row').filter({ hasText: '优先级' })).toContainText('高');
  await expect(order.detail.getByTestId('work-order-alarm')).toBeVisible();
  await expect(order.detail.locator('[data-level="3"]')).toHaveText('重要');
  await expect(order.root.locator('.ant-timeline')).toContainText(me);
  await page.screenshot({ path: path.join(shots, 'work-order-from-alarm-detail-zh_cn.png') });

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto('/alarm');
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeInViewport();
  await expect(row.getByTestId('alarm-work-order')).toBeInViewport();
  await page.screenshot({ path: path.join(shots, 'alarm-to-work-order-en_us.png') });
});
