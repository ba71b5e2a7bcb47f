import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { resetAdminLanguage, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { addReading, addTemperature, adminApi, createSite, createStage } from '../fixtures/stage.ts';
import { expect, type Page, test } from '../fixtures/test.ts';
import { chooseSite } from '../pages/pickers.ts';
import { FormDialog } from '../pages/resource-list.ts';
import { Shell } from '../pages/shell.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
test.afterEach(async ({ request }) => resetAdminLanguage(request));

/** Picks an option of a select inside the dialog by the field's label. */
const pick = async (page: Page, dialog: FormDialog, label: string | RegExp, option: string) => {
  await dialog.field(label).first().click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
};

test('an action with a typed preset is made and dry-run, a linkage rule and a timed task run it; pages in both languages', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  mkdirSync(shots, { recursive: true });
  const stage = await createStage(request, '自动化机房', '精密空调');
  await addTemperature(request, stage, '回风温度', 24);
  await addReading(request, stage.device, '空调开关', { base: 0, unit: '', min: -1, max: 2 });
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInAsAdmin(page, request);

  // /setting_action: an air conditioner's "power on", written to the item (the value comes from the preset).
  await page.goto('/setting_action');
  await page.getByRole('button', { name: '添加动作' }).click();
  const dialog = new FormDialog(page);
  await dialog.field('名称').fill('高温开空调');
  await chooseSite(page, dialog.field('站点'), '自动化机房');
  await pick(page, dialog, '动作类型', '空调');
  await pick(page, dialog, /^命令$/, '开机');
  await pick(page, dialog, '监控项', '精密空调 / 空调开关');
  await expect(dialog.field('写入值')).toHaveValue('1');
  await dialog.save();
  const row = page.getByRole('row', { name: /高温开空调/ });
  await expect(row).toContainText('开机: 精密空调 / 空调开关 ← 1');

  // A dry run reaches nothing and says what would happen.
  await row.getByRole('button', { name: '试运行' }).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('试运行结果（未向设备写入）');
  await expect(page.getByText(/将写入 精密空调 \/ 空调开关 ← 1/)).toBeVisible();
  await page.getByRole('button', { name: /确\s*定|知道了|OK/ }).click();
  await row.getByRole('button', { name: '执行记录' }).click();
  await expect(page.getByRole('dialog').getByText('手动')).toBeVisible();
  await page.keyboard.press('Escape');
  await expectNoRawKeys(page, 'the actions page');
  await page.screenshot({ path: path.join(shots, 'automation-actions-zh_cn-1366x768.png') });

  // An empty action is refused with the spec's words, and nothing is added.
  await page.getByRole('button', { name: '添加动作' }).click();
  await dialog.field('名称').fill('空动作');
  await chooseSite(page, dialog.field('站点'), '自动化机房');
  await dialog.root.getByRole('button', { name: '删除' }).click();
  await dialog.ok();
  await expect(page.getByText('动作不能为空')).toBeVisible();
  await dialog.close();
  await expect(page.getByRole('row', { name: /空动作/ })).toHaveCount(0);

  // /linkage: when the return air is above 28 ℃, run it; off and on again with update_state.
  await page.goto('/linkage');
  await page.getByRole('button', { name: '添加联动' }).click();
  await dialog.field('名称').fill('回风高温联动');
  await chooseSite(page, dialog.field('站点'), '自动化机房');
  await pick(page, dialog, '监控项', '精密空调 / 回风温度');
  await pick(page, dialog, /^条件$/, '大于');
  await dialog.field(/^值$/).fill('28');
  await pick(page, dialog, '执行动作', '高温开空调');
  await dialog.save();
  const rule = page.getByRole('row', { name: /回风高温联动/ });
  await expect(rule).toContainText('全部满足: 精密空调 / 回风温度 大于 28');
  await expect(rule).toContainText('未触发');
  const toggle = rule.getByRole('switch', { name: '启用' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expectNoRawKeys(page, 'the linkage page');
  await page.screenshot({ path: path.join(shots, 'automation-linkage-zh_cn-1366x768.png') });

  // /timed_tasks: a cron expression; a bad one is refused.
  await page.goto('/timed_tasks');
  await page.getByRole('button', { name: '添加定时任务' }).click();
  await dialog.field('名称').fill('夜间开空调');
  await chooseSite(page, dialog.field('站点'), '自动化机房');
  await pick(page, dialog, '执行动作', '高温开空调');
  await dialog.field('重复').click();
  await page.keyboard.type('Cron');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="Cron表达式"]').click();
  await dialog.field('Cron表达式').fill('every night');
  await dialog.ok();
  await expect(page.getByText('Cron表达式不正确')).toBeVisible();
  await dialog.field('Cron表达式').fill('0 3 * * *');
  await dialog.save();
  const task = page.getByRole('row', { name: /夜间开空调/ });
  await expect(task).toContainText('0 3 * * *');
  await expect(task).toContainText('已启用');
  await expectNoRawKeys(page, 'the timed tasks page');
  await page.screenshot({ path: path.join(shots, 'automation-tasks-zh_cn-1366x768.png') });
  await page.getByRole('tab', { name: '执行日志' }).click();
  await expect(page.getByRole('tabpanel', { name: '执行日志' })).toBeVisible();

  // The same pages in English.
  await new Shell(page).language('English');
  for (const [url, heading, shot] of [
    ['/setting_action', 'Add action', 'actions'],
    ['/linkage', 'Add rule', 'linkage'],
    ['/timed_tasks', 'Add timed task', 'tasks'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('button', { name: heading })).toBeVisible();
    // The rows are there, their action named (the actions list has answered).
    await expect(page.getByRole('row', { name: /高温开空调/ }).first()).toBeVisible();
    await expectNoRawKeys(page, 'the automation pages in English');
    await page.screenshot({ path: path.join(shots, `automation-${shot}-en_us-1366x768.png`) });
  }
  const rules = await adminApi(request, 'get', 'setting/auto');
  expect(rules.data.find((r: { name: string }) => r.name === '回风高温联动')?.enable).toBe(false);
});

test('an action sends a work order: its kind, priority and people picked by name, run from the page', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInAsAdmin(page, request);
  await createSite(request, '工单机房');
  await page.goto('/setting_action');
  await page.getByRole('button', { name: '添加动作' }).click();
  const dialog = new FormDialog(page);
  await dialog.field('名称').fill('派发巡检');
  await chooseSite(page, dialog.field('站点'), '工单机房');
  await pick(page, dialog, '命令类型', '派发工单');
  await dialog.field('问题描述').fill('巡检UPS电池');
  await pick(page, dialog, '优先级', '高');
  await pick(page, dialog, '处理人', 'Administrator');
  await pick(page, dialog, '审核人', 'Administrator');
  await dialog.field('处理时限(小时)').fill('4');
  await page.screenshot({ path: path.join(shots, 'automation-work-order-zh_cn-1366x768.png') });
  await dialog.save();
  const row = page.getByRole('row', { name: /派发巡检/ });
  await expect(row).toContainText('→ Administrator: 巡检UPS电池');
  await row.getByRole('button', { name: '执行', exact: true }).click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('确定立即执行动作“派发巡检”吗？');
  await page.getByRole('button', { name: /确\s*定/ }).click();
  const result = page.locator('.ant-modal-confirm').filter({ hasText: '执行结果' });
  await expect(result).toContainText('→ Administrator: 巡检UPS电池');
  await result.getByRole('button', { name: /确\s*定|知道了|OK/ }).click();
  await page.goto('/work_order');
  await expect(page.getByRole('row', { name: /巡检UPS电池/ })).toBeVisible();
});
