import path from 'node:path';
import { makePair } from '../../server/test/helpers/https-certs.ts';
import { adminPassword, resetAdminLanguage, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, type Page, test } from '../fixtures/test.ts';
import { Shell } from '../pages/shell.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
const pem = (name: string, text: string) => ({ name, mimeType: 'application/x-pem-file', buffer: Buffer.from(text) });

test.afterEach(async ({ request }) => resetAdminLanguage(request));

/** Chooses the two files and installs them with the administrator's password. */
const install = async (page: Page, cert: string, key: string) => {
  const files = page.locator('input[type=file]');
  await files.nth(0).setInputFiles(pem('console-cert.pem', cert));
  await files.nth(1).setInputFiles(pem('console-key.pem', key));
  await page.getByLabel(/^(验证密码|Verification password)$/).fill(adminPassword);
  await page.getByRole('button', { name: /^(安\s*装|Install)$/ }).click();
};

test('the administrator uploads a certificate and its key on the HTTPS page; a mismatched key is refused', async ({
  page,
  request,
}) => {
  const good = makePair('console.sitewatch.test');
  const other = makePair('other.sitewatch.test');
  await signInAsAdmin(page, request);
  await page.goto('/setting_port');
  await expect(page.getByText('本机HTTPS')).toBeVisible();
  await expect(page.getByText('尚未安装证书')).toBeVisible();

  // A key of another certificate: the server's message, and still no certificate.
  await install(page, good.cert, other.key);
  await expect(page.getByText('证书与私钥不匹配！')).toBeVisible();
  await expect(page.getByText('尚未安装证书')).toBeVisible();

  await install(page, good.cert, good.key);
  await expect(page.getByText('CN=console.sitewatch.test').first()).toBeVisible();
  await expect(page.getByText('上传', { exact: true })).toBeVisible();
  await expect(page.getByText(/\d+ 天/)).toBeVisible();
  await expectNoRawKeys(page, 'the HTTPS page (zh_cn)');
  await page.getByText('本机HTTPS').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'https-zh_cn.png'), fullPage: true });

  // The root certificate download: the top of the installed chain (here the certificate itself).
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载根证书' }).click();
  expect((await download).suggestedFilename()).toBe('root-cert.pem');

  await new Shell(page).language('English');
  await expect(page.getByText('HTTPS of this console')).toBeVisible();
  await expect(page.getByText('Uploaded', { exact: true })).toBeVisible();
  await expectNoRawKeys(page, 'the HTTPS page (en_us)');
  await page.screenshot({ path: path.join(shots, 'https-en_us.png'), fullPage: true });
});
