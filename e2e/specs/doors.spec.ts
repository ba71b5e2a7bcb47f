import path from 'node:path';
import { realTimers } from '../../server/src/clock/timers.ts';
import { localTime } from '../../server/src/modules/door-access/time.ts';
import { startWgSimulator, type WgSimulator } from '../../server/src/modules/door-access/wg/simulator.ts';
import { adminPassword, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, test } from '../fixtures/test.ts';
import { Alarms } from '../pages/alarms.ts';
import { Shell } from '../pages/shell.ts';

/**
 * Door access (issue 34; docs/door-access.md) against a WG simulator on loopback speaking the real
 * UDP frames: a controller added on /door_devices, a card with permission to one door, a swipe on
 * the simulator in the log within 2 s (the product listens for pushed events on a loopback port),
 * a remote open with the verification password. Screenshots in zh_cn and en_us.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');
const SERIAL = 423187757;

let sim: WgSimulator;
type Page = Parameters<Parameters<typeof test>[2]>[0]['page'];
type Request = Parameters<Parameters<typeof test>[2]>[0]['request'];

/**
 * The pages built after the first session (docs/door-access.md): a card and the controller edited,
 * the log searched by person and result and exported as xlsx, the log door by door, a door's
 * permitted cards changed (and pushed to the simulator), one controller's page.
 */
const editAndSearch = async (page: Page, request: Request, headers: Record<string, string>, site: number) => {
  const other = await request.post('/api/v1/access_control/card', {
    headers,
    data: {
      number: 0x10203,
      format: 'wiegand26',
      device_group_id: site,
      holder: '李娜',
      job_number: 'B-200',
      valid_from: '2026-01-01',
      valid_to: '2030-12-31',
    },
  });
  expect((await other.json()).code).toBe(0);

  await page.goto('/door_cards');
  const zhang = page.locator('tbody tr').filter({ hasText: '张伟' });
  await zhang.getByRole('button', { name: /^编\s*辑$/ }).click();
  const editCard = page.getByRole('dialog', { name: '编辑门禁卡' });
  await editCard.getByLabel('部门').fill('运维二部');
  await editCard.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(editCard).toBeHidden();
  await expect(zhang).toContainText('运维二部');

  await page.goto('/door_devices');
  await page
    .locator('tbody tr')
    .filter({ hasText: '机房A门禁' })
    .getByRole('button', { name: /^编\s*辑$/ })
    .click();
  const editCtrl = page.getByRole('dialog', { name: '编辑控制器' });
  await editCtrl.getByLabel('名称').fill('机房A门禁主控');
  await editCtrl.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(editCtrl).toBeHidden();
  await expect(page.locator('tbody tr').first()).toContainText('机房A门禁主控');
  // An edited controller's link is made again at its next pass (docs/door-access.md, "Left"):
  // until then the events it pushes wait for the periodic pass, so the operator syncs it now.
  await page.locator('tbody tr').first().getByRole('button', { name: '立即同步' }).click();
  await expect(page.getByText(/读取 \d+ 条记录/)).toBeVisible();

  // 李娜 has no permission yet: refused at door 1, in the log once pushed and read.
  await page.goto('/door_logs');
  sim.swipe(0x10203, 1);
  await expect(page.locator('tbody tr').filter({ hasText: '李娜' })).toContainText('无权限');
  await page.goto('/door_log_custom');
  await expect(page.locator('tbody tr').filter({ hasText: '李娜' })).toBeVisible();
  await page.getByLabel('人员或卡号').fill('张伟');
  await page.getByLabel('结果', { exact: true }).click();
  await page.getByTitle('允许通过').click();
  await page.getByRole('button', { name: /^查\s*询$/ }).click();
  const rows = page.locator('[data-testid="door-log"] tbody tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('张伟');
  await expect(rows.first()).toContainText('允许通过');
  await expectNoRawKeys(page, '/door_log_custom (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'door-log-custom-zh_cn.png') });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: /^导\s*出$/ }).click();
  const file = test.info().outputPath('door-log.xlsx');
  await (await download).saveAs(file);
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const sheet = book.worksheets[0]!;
  expect(sheet.rowCount).toBe(2);
  expect((sheet.getRow(2).values as unknown[]).slice(2, 10)).toEqual([
    '机房A门禁主控',
    '1号门',
    '刷卡',
    '是',
    '允许通过',
    '张伟',
    'A-017',
    '124:2603',
  ]);

  await page.goto('/doors_logs');
  await expect(page.locator('tbody tr').filter({ hasText: '李娜' })).toBeVisible();
  await expectNoRawKeys(page, '/doors_logs (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'doors-logs-zh_cn.png') });

  await page.goto('/door_permission');
  await expect(page.locator('tbody tr').first()).toContainText('张伟');
  await page.getByRole('button', { name: '修改授权卡' }).click();
  const grant = page.getByRole('dialog', { name: /的授权卡/ });
  await grant.getByText(/李娜/).click();
  await grant.getByRole('button', { name: /(^|\s)授\s*权$/ }).click();
  await grant.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(grant).toBeHidden();
  await expect(page.locator('tbody tr').filter({ hasText: '李娜' })).toBeVisible();
  await expectNoRawKeys(page, '/door_permission (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'door-permission-zh_cn.png') });
  const controllers = (await (await request.get('/api/v1/access_control/device', { headers })).json()).data.list;
  await request.post('/api/v1/access_control/log_sync', { headers, data: { controller_id: controllers[0].id } });
  expect(sim.cards.get(0x10203)?.doors).toEqual({ 1: true });

  await page.goto(`/door_device?id=${controllers[0].id}`);
  await expect(page.getByText(String(SERIAL))).toBeVisible();
  await expect(page.locator('[data-testid="door-log"] tbody tr').first()).toBeVisible();
  await expectNoRawKeys(page, '/door_device (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'door-device-zh_cn.png') });
};
// This file's product opens its listener on this port (its environment alone: other files' products bind none).
const listenerPort = 40_000 + (process.pid % 20_000);
test.use({ productEnv: { SITEWATCH_DOOR_LISTENER: `127.0.0.1:${listenerPort}` } });

test.beforeAll(async () => {
  sim = await startWgSimulator({ serial: SERIAL, timers: realTimers, now: () => localTime(Date.now()) });
});
test.afterAll(async () => {
  await sim?.close();
});

test('an administrator adds a controller and a card, a swipe reaches the log, a door opens remotely', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const headers = await signInAsAdmin(page, request);
  const site = (
    await (await request.post('/api/v1/setting/device_groups', { headers, data: { name: '机房A', weight: 1 } })).json()
  ).data.id as number;

  await page.goto('/door_devices');
  await page.getByRole('button', { name: '添加控制器' }).click();
  const dialog = page.getByRole('dialog', { name: '添加控制器' });
  await dialog.getByLabel('名称').fill('机房A门禁');
  await dialog.getByLabel('站点').click();
  await page.getByTitle('机房A').last().click();
  await dialog.getByLabel('序列号').fill(String(SERIAL));
  await dialog.getByLabel('地址').fill('127.0.0.1');
  await dialog.getByLabel('端口').fill(String(sim.port));
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator('tbody tr').filter({ hasText: '机房A门禁' });
  await expect(row).toContainText(String(SERIAL));

  const controllers = (await (await request.get('/api/v1/access_control/device', { headers })).json()).data.list;
  const door = controllers[0].doors[0].id as number;
  const card = await request.post('/api/v1/access_control/card', {
    headers,
    data: {
      number: 0x7c0a2b,
      format: 'wiegand26',
      device_group_id: site,
      holder: '张伟',
      department: '运维部',
      job_number: 'A-017',
      valid_from: '2026-01-01',
      valid_to: '2030-12-31',
      doors: [{ door_id: door }],
    },
  });
  expect((await card.json()).code).toBe(0);
  await row.getByRole('button', { name: '立即同步' }).click();
  await expect(row).toContainText('在线');
  expect(sim.cards.get(0x7c0a2b)?.doors).toEqual({ 1: true });
  await page.screenshot({ path: path.join(shots, 'door-devices-zh_cn.png') });

  await page.goto('/door_cards');
  await expect(page.locator('tbody tr').first()).toContainText('124:2603');
  await page.screenshot({ path: path.join(shots, 'door-cards-zh_cn.png') });

  // A swipe on the simulator: pushed to the product's listener, read by index, shown. The issue's
  // 2 s is a target on a quiet machine: the time is recorded (an annotation of the test), not
  // asserted, since a CI machine with both cores busy measures itself (docs/testing.md).
  await page.goto('/door_logs');
  const swiped = Date.now();
  sim.swipe(0x7c0a2b, 1);
  await expect(page.locator('tbody tr').first()).toContainText('张伟');
  test.info().annotations.push({ type: 'swipe shown after ms', description: String(Date.now() - swiped) });
  await expect(page.locator('tbody tr').first()).toContainText('允许通过');
  sim.forceOpen(1);
  await expect(page.locator('tbody tr').first()).toContainText('强行开门');
  // The forced door is an alarm of the site: its pop-up names the controller, the door and why.
  const alarms = new Alarms(page);
  const notice = alarms.notice('机房A门禁');
  await expect(notice.or(page.getByTestId('alarm-notices-open'))).toBeVisible();
  if (await page.getByTestId('alarm-notices-open').isVisible()) await page.getByTestId('alarm-notices-open').click();
  await expect(notice).toBeVisible();
  await expect(notice.getByTestId('alarm-notice-info')).toHaveText('强行开门');
  await page.screenshot({ path: path.join(shots, 'door-forced-alarm-zh_cn.png') });
  await expectNoRawKeys(page, '/door_logs (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'door-logs-zh_cn.png') });

  await page.goto('/door_remote_control');
  const before = sim.lastIndex();
  await page
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^开\s*门$/ })
    .click();
  const ask = page.getByRole('dialog', { name: '开门' });
  await ask.getByPlaceholder('验证密码').fill(adminPassword);
  await page.screenshot({ path: path.join(shots, 'door-remote-zh_cn.png') });
  await ask.getByRole('button', { name: /确\s*定/ }).click();
  await expect(ask).toBeHidden();
  expect(sim.lastIndex()).toBe(before + 1);

  await editAndSearch(page, request, headers, site);

  const shell = new Shell(page);
  await shell.language('English');
  for (const [url, name] of [
    ['/door_devices', 'door-devices'],
    ['/door_cards', 'door-cards'],
    ['/door_logs', 'door-logs'],
    ['/door_remote_control', 'door-remote'],
    ['/doors_logs', 'doors-logs'],
    ['/door_log_custom', 'door-log-custom'],
    ['/door_permission', 'door-permission'],
    ['/door_device', 'door-device'],
  ] as const) {
    await page.goto(url);
    await expect(page.locator('tbody tr').first()).toBeVisible();
    await expectNoRawKeys(page, `${url} (en_us)`);
    await page.screenshot({ path: path.join(shots, `${name}-en_us.png`) });
  }
});
