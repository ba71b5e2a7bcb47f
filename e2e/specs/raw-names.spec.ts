import { resetAdminLanguage, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { addTemperature, adminApi, createStage, removeStage, type Stage } from '../fixtures/stage.ts';
import { expect, type Page, test } from '../fixtures/test.ts';
import { ResourceList } from '../pages/resource-list.ts';
import { Shell } from '../pages/shell.ts';

/**
 * Issue 38, item 5: every page a person works in shows names, in Chinese and in English, never an
 * i18n key or a code (e2e/fixtures/raw-keys.ts). The journey makes what the pages list (a site, a
 * device with an alarm, a time period, a contact), so each page is checked with rows in it, and its
 * writes put module, action and detail codes into the operation log.
 */
// Each language walks 13 pages and three editors: about 30 s alone, past a minute at a load of 10.
test.describe.configure({ mode: 'serial', timeout: 120_000 });
test.afterEach(async ({ request }) => resetAdminLanguage(request));

let stage: Stage | null = null;
let period = 0;
let contact = 0;

test.beforeAll(async ({ request }) => {
  stage = await createStage(request, '名称机房', 'TH-名称');
  await addTemperature(request, stage, '名称温度', 45);
  period = (
    await adminApi(request, 'post', 'setting/time_periods', {
      name: '工作时间',
      ranges: [{ weekdays: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' }],
    })
  ).id;
  contact = (await adminApi(request, 'post', 'setting/contacts', { name: '值班员甲', time_period_id: period })).id;
});

test.afterAll(async ({ request }) => {
  if (contact) await adminApi(request, 'delete', `setting/contacts/${contact}`);
  if (period) await adminApi(request, 'delete', `setting/time_periods/${period}`);
  await removeStage(request, stage);
});

/** A page has answered: no spinner, and its table, card or empty state is there. */
const shown = async (page: Page) => {
  await expect(page.locator('.ant-table, .ant-card, .ant-empty').first()).toBeVisible();
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
};

/** Opens a list, waits for a row, checks the list, then opens the row's editor and checks it. */
const checkListAndEditor = async (page: Page, url: string, row: string, where: string) => {
  const list = await new ResourceList(page, url).goto();
  await expect(list.row(row)).toBeVisible({ timeout: 20_000 });
  await shown(page);
  await expectNoRawKeys(page, where);
  const dialog = await list.edit(row);
  await expect(dialog.root).toBeVisible();
  await shown(page);
  await expectNoRawKeys(page, `${where}, its editor`);
  await page.screenshot({ path: test.info().outputPath(`${where.replace(/\W+/g, '-')}-editor.png`) });
  await dialog.close();
  await expect(dialog.root).toBeHidden();
};

const checkPages = async (page: Page, language: string) => {
  await checkListAndEditor(page, '/setting_items', '名称温度', `the item list (${language})`);
  await checkListAndEditor(page, '/setting_device_mange', 'TH-名称', `the device list (${language})`);
  await checkListAndEditor(page, '/setting_contacts', '值班员甲', `the contact list (${language})`);

  await page.goto('/alarm');
  await expect(page.getByRole('row', { name: /名称温度/ }).first()).toBeVisible({ timeout: 30_000 });
  await shown(page);
  await expectNoRawKeys(page, `the alarm list (${language})`);

  await page.goto('/system_log_user');
  await expect(page.getByRole('row', { name: /admin/ }).first()).toBeVisible();
  await shown(page);
  await expectNoRawKeys(page, `the operation log (${language})`);
  await page.screenshot({ path: test.info().outputPath(`operation-log-${language}.png`) });

  for (const [url, name] of [
    ['/work_order', 'work orders'],
    ['/setting_energy', 'energy meters'],
    ['/energy_manage/energy_static', 'energy statistics'],
    ['/polling_record', 'inspection records'],
    ['/duty_manage/duty_arrange', 'the duty roster'],
    ['/duty_manage/change_shifts', 'the handover'],
  ] as const) {
    await page.goto(url);
    await shown(page);
    await expectNoRawKeys(page, `${name} (${language})`);
  }
};

test('the working pages show names, not keys or codes, in Chinese', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/setting_items');
  await checkPages(page, 'zh_cn');
});

test('the working pages show names, not keys or codes, in English', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/setting_items');
  await new Shell(page).language('English');
  await checkPages(page, 'en_us');
});
