import path from 'node:path';
import { adminPassword, resetAdminLanguage, signInAsAdmin, withDb } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, test } from '../fixtures/test.ts';
import { Shell } from '../pages/shell.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');

test.describe.configure({ mode: 'serial' });
test.afterEach(async ({ request }) => resetAdminLanguage(request));

test('the administrator backs up, is told of it, downloads the package and restores it with the verification password', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/setting_backup?tabActive=2');
  await expect(page.getByRole('tab', { name: '备份文件', selected: true })).toBeVisible();

  // A package made now is listed, and the shell tells of the latest backup (000 §3, §7).
  await page.getByRole('button', { name: '立即备份配置' }).click();
  const row = page.getByRole('row', { name: /backup_\d{14}\.tar/ }).first();
  await expect(row).toBeVisible();
  const filename = ((await row.getByRole('cell').first().textContent()) ?? '').trim();
  expect(filename).toMatch(/^backup_\d{14}\.tar$/);
  await expect(row).toContainText('配置');
  const notice = page.locator('.ant-notification-notice').filter({ hasText: '新的备份' });
  await expect(notice).toContainText(filename);
  await expectNoRawKeys(page, 'the backup files (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'backup-files-zh_cn.png') });

  // The notice opens the packages with the latest marked; closing it is told to the server.
  await notice.getByRole('button', { name: '查看备份' }).click();
  await expect(page).toHaveURL(/backupShow=true&tabActive=2/);
  await expect(notice).toHaveCount(0);
  await expect(row).toHaveClass(/ant-table-row-selected/);
  const latest = await (
    await request.get('/api/v1/setting/maintain/mysql/lastest_event', {
      headers: { authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('token'))}` },
    })
  ).json();
  expect(latest.data).toMatchObject({ file: filename, read: true });

  // The package downloads under its name.
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: '下载' }).click();
  expect((await download).suggestedFilename()).toBe(filename);

  // The restore asks for the verification password (002 §5.3): required, then checked.
  await row.getByRole('button', { name: '恢复' }).click();
  const dialog = page.getByRole('dialog', { name: `恢复 ${filename}` });
  await dialog.getByRole('button', { name: /^恢\s*复$/ }).click();
  await expect(dialog).toContainText('密码不能为空！');
  await dialog.getByLabel('验证密码').fill('not-the-password');
  await dialog.getByRole('button', { name: /^恢\s*复$/ }).click();
  await expect(page.getByText('密码错误，请重新输入！')).toBeVisible();
  await dialog.getByLabel('验证密码').fill(adminPassword);
  await page.screenshot({ path: path.join(shots, 'backup-restore-zh_cn.png') });
  await dialog.getByRole('button', { name: /^恢\s*复$/ }).click();
  // A configuration restore ends every session: the console answers with the sign-in page, and
  // the operation log (restored too, then written) holds the restore.
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('未登录或登录已失效，请重新登录！')).toBeVisible();
  const restored = withDb((db) =>
    db.prepare(`select target, result from operation_logs where module = 'maintenance' and action = 'restore'`).all(),
  );
  expect(restored).toContainEqual({ target: filename, result: 1 });
});

test('the backup page in English: the schedule and the packages', async ({ page, request }) => {
  await signInAsAdmin(page, request);
  await page.goto('/setting_backup');
  await new Shell(page).language('English');
  await expect(page.getByRole('tab', { name: 'Automatic backup', selected: true })).toBeVisible();
  await expect(page.getByLabel('Run count')).toBeVisible();
  await expectNoRawKeys(page, 'the backup schedule (en_us)');
  await page.screenshot({ path: path.join(shots, 'backup-schedule-en_us.png') });
  await page.getByRole('tab', { name: 'Backup files' }).click();
  await expect(page.getByRole('row', { name: /backup_\d{14}\.tar/ }).first()).toBeVisible();
  await expectNoRawKeys(page, 'the backup files (en_us)');
  await page.screenshot({ path: path.join(shots, 'backup-files-en_us.png') });
  await new Shell(page).language('简体中文');
  await page.getByRole('tab', { name: '自动备份' }).click();
  await expect(page.getByLabel('执行次数')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'backup-schedule-zh_cn.png') });
});
