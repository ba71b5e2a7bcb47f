import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { resetAdminLanguage, signInAsAdmin, withDb } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { adminApi, createSite } from '../fixtures/stage.ts';
import { expect, test } from '../fixtures/test.ts';
import { Energy } from '../pages/energy.ts';
import { choose, chooseSite, openList } from '../pages/pickers.ts';
import { FormDialog } from '../pages/resource-list.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
test.afterEach(async ({ request }) => resetAdminLanguage(request));

/**
 * Three counters of one distribution board with three days of hourly readings in the series store's
 * roll-ups (as a product that has polled them would hold): incoming 30 kWh/h, IT 20 kWh/h with three
 * hours missing (a gap, spread and marked estimated), cooling 7 kWh/h. The device is not polled, so
 * nothing else reaches these items.
 */
const stageBoard = async (request: Parameters<typeof adminApi>[0], name = '能耗机房') => {
  const site = await createSite(request, name);
  const device = (
    await adminApi(request, 'post', 'setting/devices', {
      name: '配电柜电表',
      device_group_id: site,
      driver: 'simulator',
      code: 'power_meter',
      check_interval: 60,
      enable: false,
    })
  ).id as number;
  const counter = async (name: string) =>
    (
      await adminApi(request, 'post', 'setting/items', {
        device_id: device,
        name,
        unit: 'kWh',
        telemetry_only: true,
        source: { kind: 'simulator', model: 'counter', base: 1 },
      })
    ).id as number;
  const items = {
    total: await counter('总进线电能'),
    it: await counter('IT 电能'),
    cooling: await counter('空调电能'),
  };
  const hour = Math.floor(Date.now() / 3_600_000) * 3600;
  withDb((db) => {
    const put = db.prepare('insert into samples_1h (item_id, ts, min, max, sum, count) values (?, ?, ?, ?, ?, 1)');
    for (let k = 0; k < 72; k++) {
      const ts = hour - (72 - k) * 3600;
      const rows: Array<[number, number]> = [
        [items.total, 10_000 + 30 * k],
        [items.cooling, 2_000 + 7 * k],
      ];
      if (k < 30 || k > 32) rows.push([items.it, 5_000 + 20 * k]);
      for (const [item, v] of rows) put.run(item, ts, v, v, v);
    }
  }, false);
  return { site, device, items };
};

test('meters and a stair + time-share tariff configured, a site’s cost and PUE seen, devices ranked, exported', async ({
  page,
  request,
}) => {
  // One whole path through nine pages in two languages.
  test.setTimeout(150_000);
  mkdirSync(shots, { recursive: true });
  await stageBoard(request);
  // A second room with the same board, whose incoming meter gets the same name later (issue 38).
  const spare = await stageBoard(request, '备用机房');
  await signInAsAdmin(page, request);
  const energy = new Energy(page);

  // Meters: each counter with its site and category; the IT one measures at the UPS output.
  await page.goto('/setting_energy');
  const meter = (name: string, item: string, category: string, at?: string) =>
    energy.addMeter({ name, site: '能耗机房', device: '配电柜电表', item: `${item} (kWh)`, category, at });
  await meter('A1 总进线', '总进线电能', '总进线');
  await meter('A1 IT 负载', 'IT 电能', 'IT 负载', 'UPS 输出');
  await meter('A1 精密空调', '空调电能', '制冷');
  await expect(page.getByRole('row', { name: /A1 IT 负载/ }).getByText('PUE 类别 1')).toBeVisible();

  // A stair + time-share tariff: tiers added on top of the valley and peak prices, summer apart.
  await page.goto('/energy_manage/param_config');
  await page.getByRole('tab', { name: '阶梯分时电价' }).click();
  await page.getByRole('button', { name: '添加电价' }).click();
  const dialog = new FormDialog(page);
  const form = dialog.root;
  await dialog.field('电价名称').fill('峰谷阶梯');
  await form.getByLabel('结束值').first().fill('1000');
  await form.getByLabel('电价', { exact: true }).first().fill('0');
  await form.getByRole('button', { name: '添加梯度' }).click();
  await expect(form.getByLabel('开始值').nth(1)).toHaveValue('1000');
  await form.getByLabel('电价', { exact: true }).nth(1).fill('0.1');
  // An end below its start is refused with the spec's words beside the field; empty is open-ended.
  await form.getByLabel('结束值').nth(1).fill('500');
  await dialog.ok();
  await dialog.expectRefused('电量的结束值不能小于开始值！');
  await form.getByLabel('结束值').nth(1).fill('');
  await form.getByLabel('结束时间').first().fill('08:00');
  await choose(page, form.getByLabel('时段').first(), '谷');
  await form.getByLabel('电价', { exact: true }).nth(2).fill('0.3');
  await form.getByRole('button', { name: '添加时段' }).click();
  await expect(form.getByLabel('开始时间').nth(1)).toHaveValue('08:00');
  await form.getByLabel('结束时间').nth(1).fill('24:00');
  await choose(page, form.getByLabel('时段').nth(1), '峰');
  await form.getByLabel('电价', { exact: true }).nth(3).fill('1');
  // Summer months: every row becomes a summer row and a non-summer copy.
  await choose(page, form.getByLabel('夏季月份'), '7月');
  await openList(page).locator('.ant-select-item-option[title="8月"]').click();
  await page.keyboard.press('Escape');
  await expect(form.getByTestId('slot-row')).toHaveCount(4);
  await expectNoRawKeys(page, 'the tariffs (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'energy-tariff-zh_cn.png') });
  await dialog.save();
  await expect(page.getByRole('row', { name: /峰谷阶梯/ })).toBeVisible();

  // In force at the site from 2020 on.
  const inForce = page.getByTestId('tariff-in-force');
  await chooseSite(page, inForce.getByLabel('站点', { exact: true }).first(), '能耗机房');
  await choose(page, inForce.getByLabel('电价', { exact: true }), '峰谷阶梯 (阶梯分时电价)');
  await inForce.getByLabel('生效时间').click();
  await inForce.getByLabel('生效时间').fill('2020-01-01');
  await inForce.getByLabel('生效时间').press('Enter');
  await inForce.getByRole('button', { name: /应\s*用/ }).click();
  await expect(inForce.getByRole('row', { name: /峰谷阶梯/ }).getByText('当前执行')).toBeVisible();

  // The site's cost over the last seven days: the server's fen, shown to the fen.
  await page.goto('/energy_manage/cost_static');
  await energy.range('最近7天');
  const costAnswer = page.waitForResponse(
    (r) => r.url().includes('energy_analysis/cost_statistics') && r.url().includes('device_group_id'),
  );
  await energy.site('能耗机房');
  const rows = (await (await costAnswer).json()).data as Array<{ category: string; cost_cents: number }>;
  const cents = rows.find((r) => r.category === 'total')!.cost_cents;
  expect(cents).toBeGreaterThan(0);
  const text = `${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;
  await expect(page.getByTestId('cost-total')).toContainText(text);
  const incomingRow = page.getByTestId('cost-table').getByRole('row', { name: /A1 总进线/ });
  await expect(incomingRow).toContainText(text);
  // Meters of several sites can share a name (issue 38): each row says its site.
  await expect(incomingRow.getByRole('cell', { name: '能耗机房' })).toBeVisible();
  await expectNoRawKeys(page, 'the cost (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'energy-cost-zh_cn.png'), fullPage: true });
  // The same as the server's xlsx workbook.
  const download = page.waitForEvent('download');
  await page.getByTestId('energy-export-cost').click();
  const workbook = await download;
  expect(workbook.suggestedFilename()).toMatch(/^cost-\d{14}\.xlsx$/);
  expect((await readFile(await workbook.path())).subarray(0, 2).toString()).toBe('PK');

  // PUE: 30 / 20 kWh an hour, at the UPS output (category 1), with the IT gap marked estimated.
  await energy.show('/energy_manage/energy_analysis', '能耗机房');
  const ranking = page.getByTestId('ranking-table');
  await expect(ranking.getByRole('row').nth(1)).toContainText('A1 总进线');
  await expect(ranking.getByRole('row').nth(2)).toContainText('A1 IT 负载');
  await expect(ranking.getByRole('row').nth(3)).toContainText('A1 精密空调');
  await expect(ranking.getByRole('row').nth(1).getByRole('cell', { name: '能耗机房' })).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'energy-ranking-zh_cn-1366x768.png') });
  await page.getByRole('tab', { name: 'PUE 分析' }).click();
  await expect(page.getByTestId('pue-value')).toHaveText('1.50');
  await expect(page.getByTestId('pue-category')).toHaveText('PUE 类别 1');
  await page.screenshot({ path: path.join(shots, 'energy-pue-zh_cn.png'), fullPage: true });

  // The consumption page says which counter rule fired: the IT meter's gap.
  await energy.show('/energy_manage/energy_static', '能耗机房');
  await expect(page.getByRole('row', { name: /A1 IT 负载/ }).getByText(/中断 × 1/)).toBeVisible();

  // Consumption per time-share period under the tariff in force: valley nights, peak days.
  await energy.show('/energy_manage/time_share_static', '能耗机房');
  for (const period of ['valley', 'peak'])
    await expect(page.getByTestId(`time-share-${period}`).locator('.ant-statistic-content-value')).toHaveText(/[1-9]/);
  await expect(page.getByTestId('time-share-sharp').locator('.ant-statistic-content-value')).toHaveText('0');
  await expectNoRawKeys(page, 'the time shares (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'energy-time-share-zh_cn.png'), fullPage: true });

  // The site at a glance, from the monitoring menu.
  await energy.show('/energy_survey', '能耗机房');
  await expect(page.getByTestId('overview-pue').locator('.ant-statistic-content-value')).toHaveText('1.50');
  await expect(page.getByTestId('overview-cost').locator('.ant-statistic-content-value')).toHaveText(text);
  await expectNoRawKeys(page, 'the energy overview (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'energy-overview-zh_cn.png'), fullPage: true });
  // Every site's month beside the last, with its tariff in force; its bill is the cost page's for the
  // same month: the incoming meter's alone (issue 38: the meters beneath it were added to it).
  await page.goto('/energy_manage/cost_static');
  await energy.range('本月');
  const monthAnswer = page.waitForResponse(
    (r) => r.url().includes('energy_analysis/cost_statistics') && r.url().includes('device_group_id'),
  );
  await energy.site('能耗机房');
  const monthRows = (await (await monthAnswer).json()).data as Array<{ in_site_total: boolean; cost_cents: number }>;
  const monthCents = monthRows.filter((r) => r.in_site_total).reduce((s, r) => s + r.cost_cents, 0);
  const monthText = `${Math.floor(monthCents / 100).toLocaleString('en-US')}.${String(monthCents % 100).padStart(2, '0')}`;
  await expect(page.getByTestId('cost-total')).toContainText(monthText);
  await page.goto('/electric_statistics');
  const statistics = page.getByRole('row', { name: /能耗机房/ });
  await expect(statistics).toContainText('峰谷阶梯');
  await expect(statistics).toContainText(monthText);
  await page.screenshot({ path: path.join(shots, 'electric-statistics-zh_cn-1366x768.png') });

  // Under all sites, two rooms' incoming meters of the same name are told apart by their site.
  await adminApi(request, 'post', 'setting/energy', {
    name: 'A1 总进线',
    item_id: spare.items.total,
    kind: 'counter',
    category: 'total',
    device_group_id: spare.site,
  });
  await page.goto('/energy_manage/energy_analysis');
  await energy.range('最近7天');
  const incoming = page.getByTestId('ranking-table').getByRole('row', { name: /A1 总进线/ });
  await expect(incoming).toHaveCount(2);
  await expect(incoming.getByRole('cell', { name: '能耗机房' })).toBeVisible();
  await expect(incoming.getByRole('cell', { name: '备用机房' })).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'energy-ranking-all-sites-zh_cn-1366x768.png') });

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await energy.show('/energy_manage/energy_analysis', '能耗机房', 'Last 7 days');
  await expect(ranking.getByRole('row').nth(1).getByRole('cell', { name: '能耗机房' })).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'energy-ranking-en_us-1366x768.png') });
  await page.getByRole('tab', { name: 'PUE analysis' }).click();
  await expect(page.getByTestId('pue-category')).toHaveText('PUE category 1');
  await page.screenshot({ path: path.join(shots, 'energy-pue-en_us.png'), fullPage: true });
  await energy.show('/energy_manage/cost_static', '能耗机房', 'Last 7 days');
  await expect(page.getByTestId('cost-total')).toContainText(text);
  await expectNoRawKeys(page, 'the cost (en_us)');
  await page.screenshot({ path: path.join(shots, 'energy-cost-en_us.png'), fullPage: true });
  await page.goto('/setting_energy');
  await expect(page.getByRole('row', { name: /A1 IT 负载/ }).getByText('PUE category 1 · UPS output')).toBeVisible();
  await expectNoRawKeys(page, 'the meters (en_us)');
  await page.screenshot({ path: path.join(shots, 'energy-meters-en_us.png'), fullPage: true });
});
