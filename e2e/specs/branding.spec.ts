import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makePng } from '../../server/test/helpers/logo-images.ts';
import {
  adminHeaders,
  adminPassword,
  dataDir,
  loginInBrowser,
  loginToConsole,
  logoutInBrowser,
  resetAdminLanguage,
} from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, type Page, test } from '../fixtures/test.ts';

/**
 * Rebranding (000 §1, §2.1, §2.4, §2.6; 002 §2.3, §5.3): an administrator sets the system name,
 * the company, the support block and the filing line on /setting_sys_edition and uploads the login
 * and main logos; the login page, the shell's top bar and /home show them, in Chinese and English.
 * A text file renamed to .png is refused with 002 §5.3's message.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');
const files = path.join(tmpdir(), `sitewatch-e2e-branding-${process.pid}`);
const loginLogo = `${files}-login.png`;
const mainLogo = `${files}-main.png`;
const renamed = `${files}-renamed.png`;
writeFileSync(loginLogo, makePng(290, 76, [196, 30, 58]));
writeFileSync(mainLogo, makePng(160, 60, [22, 119, 255]));
writeFileSync(renamed, 'this is a text file, renamed to look like a picture\n');

const sysName = '星河机房智能监控平台';

/** The picture has loaded and has the uploaded size (not the product's square icon). */
const expectLogo = async (page: Page, kind: 'login' | 'main', width: number) => {
  const logo = page.getByTestId(`brand-logo-${kind}`);
  await expect(logo).toBeVisible();
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(width);
};

test('rebranding: system name, logos, support block and filing line on login, shell and /home', async ({
  page,
  request,
}) => {
  await loginToConsole(page, 'admin', adminPassword);
  await page.goto('/setting_sys_edition');
  await page.getByLabel('系统名称', { exact: true }).fill(sysName);
  await page.getByLabel('公司名称').fill('星河数据服务有限公司');
  await page.getByLabel('技术支持信息').fill('服务热线：400-800-1234\n邮箱：support@xinghe.example');
  await page.getByLabel('备案文字（如：沪ICP备）').fill('沪ICP备');
  await page.getByLabel('备案号', { exact: true }).fill('20261128号-1');
  await page.getByRole('switch', { name: '显示技术支持' }).click();
  await page.getByRole('switch', { name: '显示备案信息' }).click();
  await page.getByTestId('branding-save').click();
  await expect(page.getByText('保存成功！')).toBeVisible();

  // A text file with a picture's name is refused by its content (002 §5.3), and nothing changes.
  await page.getByTestId('logo-card-login').locator('input[type=file]').setInputFiles(renamed);
  await expect(page.getByText('上传文件只能是 jpg、png、jpeg 格式！')).toBeVisible();
  await expect(page.getByTestId('brand-logo-login')).toHaveCount(0);

  await page.getByTestId('logo-card-login').locator('input[type=file]').setInputFiles(loginLogo);
  await expectLogo(page, 'login', 290);
  await page.getByTestId('logo-card-main').locator('input[type=file]').setInputFiles(mainLogo);
  // The top bar and the card both show the main logo now.
  await expect(page.getByTestId('brand-logo-main')).toHaveCount(2);
  await expect(page.getByTestId('shell-sys-name')).toHaveText(sysName);
  await expectNoRawKeys(page, '/setting_sys_edition (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'branding-settings-zh_cn.png') });

  // The shell, on another page.
  await page.goto('/software_version');
  await expect(page.getByTestId('shell-sys-name')).toHaveText(sysName);
  await expectLogo(page, 'main', 160);
  await page.screenshot({ path: path.join(shots, 'branding-shell-zh_cn.png') });
  // /software_version carries the changelog of the build.
  await page.getByTestId('software-changelog').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('software-changelog')).toContainText('0.1.0');
  await page.screenshot({ path: path.join(shots, 'software-version-changelog-zh_cn.png') });

  // /home.
  await page.goto('/home?fullShow=yes');
  await expect(page.getByTestId('home-title')).toHaveText(sysName);
  await expectLogo(page, 'main', 160);
  await page.screenshot({ path: path.join(shots, 'branding-home-zh_cn.png') });

  // The login page: logo, name, support block, company and filing line.
  await page.goto('/software_version');
  await logoutInBrowser(page);
  await expect(page.getByTestId('login-sys-name')).toHaveText(sysName);
  await expectLogo(page, 'login', 290);
  await expect(page.getByTestId('login-support')).toContainText('服务热线：400-800-1234');
  await expect(page.getByTestId('login-filing')).toHaveText('星河数据服务有限公司  沪ICP备 20261128号-1');
  await expect(page.getByRole('link', { name: '技术支持' })).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'branding-login-zh_cn.png') });

  // English: the same branding around English texts.
  await page.getByLabel('语言').click();
  await page.getByTitle('English').click();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.getByTestId('login-sys-name')).toHaveText(sysName);
  await expect(page.getByRole('link', { name: 'Support' })).toBeVisible();
  await expectNoRawKeys(page, 'the login page (en_us)');
  await page.screenshot({ path: path.join(shots, 'branding-login-en_us.png') });
  // The administrator's own language is kept on the server and taken at sign-in (000 §4.11).
  await request.post('/api/v1/menus/language', { headers: await adminHeaders(request), data: { language: 'en_us' } });
  await loginInBrowser(page, 'admin', adminPassword);
  await page.waitForURL(/\/home\?fullShow=yes/);
  await expect(page.getByTestId('home-title')).toHaveText(sysName);
  await expectLogo(page, 'main', 160);
  await page.screenshot({ path: path.join(shots, 'branding-home-en_us.png') });
  await page.goto('/setting_sys_edition');
  await expect(page.getByTestId('shell-sys-name')).toHaveText(sysName);
  await expect(page.getByRole('textbox', { name: 'System name' })).toHaveValue(sysName);
  await expectNoRawKeys(page, '/setting_sys_edition (en_us)');
  await page.screenshot({ path: path.join(shots, 'branding-settings-en_us.png') });
  await resetAdminLanguage(request);
});

test('a locked-out administrator recovers with the code printed on the box', async ({ page }) => {
  // What the person at the box runs (docs/recovery.md), on this product's data dir.
  const printed = execFileSync('npx', ['tsx', 'tools/recovery/recovery-code.ts', '--data-dir', dataDir()], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    encoding: 'utf8',
  });
  const code = /Recovery code: (\S+)/.exec(printed)?.[1] ?? '';
  expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  await page.goto('/login');
  await page.getByRole('link', { name: '管理员恢复' }).click();
  const dialog = page.getByRole('dialog', { name: '管理员恢复' });
  await dialog.getByLabel('恢复码').fill('AAAA-BBBB-CCCC');
  await dialog.getByRole('button', { name: '下一步' }).click();
  await expect(dialog.getByTestId('recovery-error')).toHaveText('恢复码不正确！');
  await dialog.getByLabel('恢复码').fill(code);
  await dialog.getByRole('button', { name: '下一步' }).click();
  await expect(dialog.getByText('恢复码正确：为 admin 设置新密码')).toBeVisible();
  await expectNoRawKeys(page, 'the recovery dialog (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'recovery-dialog-zh_cn.png') });
  // The journeys' password again, so the file's other calls still sign in.
  await dialog.getByLabel('新密码', { exact: true }).fill(adminPassword);
  await dialog.getByLabel('确认新密码').fill(adminPassword);
  await dialog.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('管理员密码已重置，请使用新密码登录！')).toBeVisible();
  await expect(dialog).toBeHidden();
  await loginInBrowser(page, 'admin', adminPassword);
  await page.waitForURL(/\/home\?fullShow=yes/);
});
