import path from 'node:path';
import { startVsftpd, type Vsftpd } from '../../server/test/helpers/vsftpd.ts';
import { adminPassword, resetAdminLanguage, setGlobalConfig, signInAsAdmin, withDb } from '../fixtures/product.ts';
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
  await expect(page.getByText('恢复已完成：系统已使用备份中的配置，所有用户均已登出，请重新登录。')).toBeVisible();
  await expect(page.getByText('未登录或登录已失效，请重新登录！')).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, 'backup-restored-login-zh_cn.png') });
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

  // The install key, sealed with a passphrase, downloads behind the verification password.
  await page.getByRole('button', { name: 'Export install key' }).click();
  const keyDialog = page.getByRole('dialog', { name: 'Export install key' });
  await keyDialog.getByLabel('Passphrase', { exact: true }).fill('carry this key');
  await keyDialog.getByLabel('Repeat the passphrase').fill('carry this key too');
  await keyDialog.getByRole('button', { name: 'OK' }).click();
  await expect(keyDialog).toContainText('The two passphrases differ!');
  await expect(keyDialog).toContainText('The password cannot be empty!');
  await keyDialog.getByLabel('Repeat the passphrase').fill('carry this key');
  await keyDialog.getByLabel('Verification password').fill(adminPassword);
  await expectNoRawKeys(page, 'the install key export (en_us)');
  await page.screenshot({ path: path.join(shots, 'backup-key-export-en_us.png') });
  const keyDownload = page.waitForEvent('download');
  await keyDialog.getByRole('button', { name: 'OK' }).click();
  expect((await keyDownload).suggestedFilename()).toBe('sitewatch-secret-key.json');
  await expect(page.getByText('Key file exported.')).toBeVisible();
  await new Shell(page).language('简体中文');
  await page.getByRole('tab', { name: '自动备份' }).click();
  await expect(page.getByLabel('执行次数')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'backup-schedule-zh_cn.png') });
});

/** Debian's vsftpd on a free loopback port, for the FTP journey. */
let ftpd: Vsftpd;
test.beforeAll(async () => {
  ftpd = await startVsftpd();
});
test.afterAll(async () => {
  await ftpd?.stop();
});

test('the administrator sets the FTP server, tests it, copies a package and reads the records', async ({
  page,
  request,
}) => {
  await setGlobalConfig(request, 'OUTBOUND', { allow: ['127.0.0.0/8'], deny: [] });
  try {
    await signInAsAdmin(page, request);
    await page.goto('/setting_backup?tabActive=2');
    await page.getByRole('button', { name: '立即备份配置' }).click();
    const made = page.getByText(/^已生成备份：backup_\d{14}\.tar$/);
    const filename = ((await made.textContent()) ?? '').replace('已生成备份：', '');
    await page.getByRole('tab', { name: 'FTP 同步' }).click();
    await expect(page).toHaveURL(/tabActive=3/);

    // Remote address and path are required, the port is 21 unless given (002 §5.3, §9).
    const form = page.locator('form#backup_ftp');
    await expect(form.getByLabel('端口')).toHaveValue('21');
    await form.getByLabel('远程路径').fill('');
    await page.getByRole('button', { name: /^保\s*存$/ }).click();
    await expect(form).toContainText('请输入远程地址！');
    await expect(form).toContainText('请输入远程路径（以 / 开头）！');
    await form.getByLabel('端口').fill('70000');
    await expect(form).toContainText('请输入端口（1-65535）！');
    // The latest-backup notice of the package made above is closed: it covers the page's corner.
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: filename })
      .locator('.ant-notification-notice-close')
      .click();
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
    await page.screenshot({ path: path.join(shots, 'backup-ftp-form-zh_cn.png') });

    await form.getByLabel('远程地址').fill('127.0.0.1');
    await form.getByLabel('端口').fill(String(ftpd.port));
    await form.getByLabel('远程路径').fill('/backups/e2e');
    await page.getByRole('button', { name: '保存并测试连接' }).click();
    await expect(page.getByText('连接成功：远程目录中有 0 项。')).toBeVisible();

    // One package copied by hand: recorded, and in the remote folder as the server lists it.
    await page.getByLabel('选择要同步的备份文件').click();
    await page.locator('.ant-select-item-option').filter({ hasText: filename }).click();
    await page.getByRole('button', { name: '立即同步' }).click();
    await expect(page.getByText('已复制到 FTP 服务器。')).toBeVisible();
    const records = page.locator('.ant-card').filter({ hasText: '同步记录' }).last();
    await expect(records.getByRole('row', { name: new RegExp(filename) })).toContainText('成功');
    await page.getByRole('button', { name: '读取远程目录' }).click();
    const remote = page.locator('.ant-card').filter({ hasText: '远程目录' }).last();
    await expect(remote.getByRole('row', { name: new RegExp(filename) })).toBeVisible();
    await expectNoRawKeys(page, 'the FTP sync (zh_cn)');
    await page.screenshot({ path: path.join(shots, 'backup-ftp-zh_cn.png') });

    // A server that does not answer: the test says why, and a failed copy is recorded with it.
    await form.getByLabel('端口').fill('1');
    await page.getByRole('button', { name: '保存并测试连接' }).click();
    await expect(page.getByText('连接失败')).toBeVisible();
    await page.getByRole('button', { name: '立即同步' }).click();
    await expect(page.getByText('复制到 FTP 服务器失败，原因见同步记录。')).toBeVisible();
    await expect(records.getByRole('row').nth(1)).toContainText('失败');

    await new Shell(page).language('English');
    await expect(page.getByRole('tab', { name: 'FTP sync', selected: true })).toBeVisible();
    await form.getByLabel('Port').fill(String(ftpd.port));
    await page.getByRole('button', { name: 'Save and test connection' }).click();
    await expect(page.getByText('Connected. Entries in the remote folder: 1.')).toBeVisible();
    await page.getByRole('button', { name: 'Read remote folder' }).click();
    const remoteEn = page.locator('.ant-card').filter({ hasText: 'Remote folder' }).last();
    await expect(remoteEn.getByRole('row', { name: new RegExp(filename) })).toBeVisible();
    await expectNoRawKeys(page, 'the FTP sync (en_us)');
    await page.screenshot({ path: path.join(shots, 'backup-ftp-en_us.png') });
  } finally {
    await setGlobalConfig(request, 'OUTBOUND', { allow: [], deny: [] });
  }
});
