import { adminPassword, initialAdminPassword, loginInBrowser, loginToConsole } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';

/** The product's first start: the administrator's printed password works once, and only to change it. */
test.use({ startFrom: 'pristine' });

test('first login as admin with the printed password, forced change, then the shell', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: /登\s*录/ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('login-zh_cn.png') });
  await loginInBrowser(page, 'admin', initialAdminPassword());
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('首次登录，请修改系统分配的初始密码！')).toBeVisible();
  await expect(dialog).toHaveCSS('width', '970px');
  // Clicking outside does not close it.
  await page.mouse.click(10, 10);
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('旧密码').fill(initialAdminPassword());
  await dialog.getByLabel('新密码').fill('password');
  await dialog.getByLabel('确认密码').fill('password1');
  await page.screenshot({ path: test.info().outputPath('forced-change-zh_cn.png') });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog.getByText('两次输入密码不一致！')).toBeVisible();
  await dialog.getByLabel('新密码').fill(adminPassword);
  await dialog.getByLabel('确认密码').fill(adminPassword);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('修改成功！请重新登录！')).toBeVisible();
  await expect(dialog).toBeHidden();
  await loginToConsole(page, 'admin', adminPassword);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expect(page.getByTestId('server-clock')).toHaveText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await expect(page.locator('.ant-tabs-tab').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('shell-zh_cn.png') });
});
