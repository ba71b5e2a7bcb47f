import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeVendorKeys, signCode } from '../../server/src/modules/licence/code.ts';
import { adminPassword, loginToConsole, resetAdminLanguage } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, test } from '../fixtures/test.ts';

/**
 * The licence (000 §2.2, §2.4, §4.6): a trial shows its reminder in the top bar and its pop-up once
 * a day; the product dialog shows the serial number with its QR code; a code signed by the vendor
 * (here a key pair of this file, whose public key the product is started with) activates it.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');
const vendor = makeVendorKeys();
const keyFile = path.join(tmpdir(), `sitewatch-e2e-licence-${process.pid}.pem`);
writeFileSync(keyFile, vendor.publicKey);
// The product of this file starts after this line (the fixture spawns it with this environment).
test.use({ productEnv: { SITEWATCH_LICENCE_PUBLIC_KEY: keyFile } });

const code = (sn: string, over: Record<string, unknown> = {}) =>
  signCode(
    { sn, edition: 'standard', expires: 0, devices: 50, items: 500, categories: { ups: 2 }, issued: 0, ...over },
    vendor.privateKey,
  );

test('trial reminder and pop-up once a day, the product dialog, activation with a vendor code', async ({
  page,
  request,
}) => {
  const sn = (await (await request.get('/api/v1/pub/license')).json()).data.sn as string;
  // Every journey's browser sets the pop-up to never (fixtures/test.ts); this one wants it.
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('e2e.trialPopup')) {
      sessionStorage.setItem('e2e.trialPopup', '1');
      localStorage.removeItem('licence.popupFrequency');
    }
  });
  await loginToConsole(page, 'admin', adminPassword);
  const reminder = page.getByTestId('licence-reminder');
  await expect(reminder).toHaveText('试用期剩余30天');
  // The trial pop-up, the first time today.
  const popup = page.getByRole('dialog', { name: '试用提醒' });
  await expect(popup).toContainText('产品试用期剩余30天');
  await page.screenshot({ path: path.join(shots, 'licence-popup-zh_cn.png') });
  await popup.getByRole('button', { name: '查看产品信息' }).click();
  const dialog = page.getByRole('dialog', { name: '产品信息' });
  await expect(dialog.getByTestId('licence-sn')).toHaveText(sn);
  await expect(dialog.getByText('试用总天数')).toBeVisible();
  await expect(dialog.getByRole('cell', { name: 'UPS' }).first()).toBeVisible();
  await expectNoRawKeys(page, 'the product dialog (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'licence-dialog-trial-zh_cn.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Not again today: the reminder shows, the pop-up does not.
  await page.reload();
  await expect(reminder).toBeVisible();
  await expect(page.getByRole('dialog', { name: '试用提醒' })).toHaveCount(0);

  // English: the reminder and the dialog.
  await page.getByLabel('语言').click();
  await page.getByTitle('English').click();
  await expect(reminder).toHaveText('Trial: 30 days left');
  await reminder.click();
  const english = page.getByRole('dialog', { name: 'Product information' });
  await expect(english.getByText('Total trial days')).toBeVisible();
  await expectNoRawKeys(page, 'the product dialog (en_us)');
  await page.screenshot({ path: path.join(shots, 'licence-dialog-trial-en_us.png') });
  await english.getByRole('tab', { name: 'Activation' }).click();
  await expect(english.getByText('Activation guide')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'licence-activation-en_us.png') });
  await resetAdminLanguage(request);
  await page.evaluate(() => localStorage.setItem('language', 'zh_cn'));

  // #type=active opens the activation tab.
  await page.goto('/software_version#type=active');
  const activation = page.getByRole('dialog', { name: '产品信息' });
  await expect(activation.getByText('激活指引')).toBeVisible();
  await activation.getByRole('button', { name: /激\s*活/ }).click();
  await expect(page.getByText('请输入产品激活码！')).toBeVisible();
  await activation.getByLabel('激活码').fill(code('SW-AAAA-BBBB-CCCC-DDDD'));
  await activation.getByRole('button', { name: /激\s*活/ }).click();
  await expect(page.getByText(`该激活码不属于本机（本机序列号：${sn}）！`)).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'licence-activation-refused-zh_cn.png') });
  await activation.getByLabel('激活码').fill(code(sn));
  await activation.getByRole('button', { name: /激\s*活/ }).click();
  await expect(page.getByText('激活成功！')).toBeVisible();
  await expect(activation.getByText('已激活', { exact: true })).toBeVisible();
  await expect(activation.getByText('授权设备数', { exact: true })).toBeVisible();
  await expect(reminder).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, 'licence-dialog-activated-zh_cn.png') });
  await page.keyboard.press('Escape');
  await expect(activation).toBeHidden();

  // The software version page names the licence.
  await expect(page.getByText('软件版本').first()).toBeVisible();
  await expect(page.getByText(sn, { exact: true })).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'software-version-zh_cn.png') });
});

test('the login page opens the activation dialog on #type=active, and from its link', async ({ page }) => {
  await page.goto('/login#type=active');
  const dialog = page.getByRole('dialog', { name: '产品信息' });
  await expect(dialog.getByText('激活指引')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('link', { name: '产品信息' }).click();
  await expect(dialog.getByText('激活指引')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'licence-login-activation-zh_cn.png') });
});
