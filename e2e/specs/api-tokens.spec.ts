import path from 'node:path';
import { adminPassword, loginToConsole } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';
import { Shell } from '../pages/shell.ts';

/**
 * A signed-in user makes a personal API token from the user menu, sees its secret once with a copy
 * button, a script calls the API with it, and revoking it in the page refuses the script at once.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');

test('make an API token, call the API with it, revoke it', async ({ page, request }) => {
  await loginToConsole(page, 'admin', adminPassword);
  await new Shell(page).userMenu('API令牌');
  await expect(page).toHaveURL(/\/setting_api_tokens/);
  // The user menu opened on hover closes when the pointer leaves it.
  await page.mouse.move(600, 600);
  await expect(page.getByRole('menuitem', { name: 'API令牌' })).toBeHidden();
  await expect(page.getByText('暂无API令牌')).toBeVisible();

  await page.getByRole('button', { name: '新建令牌' }).click();
  const dialog = page.getByRole('dialog');
  // An empty name is refused before anything is sent. (The field is clicked first: a click on the
  // dialog's button during its zoom-in was lost on a loaded machine.)
  await dialog.getByLabel('名称').click();
  await dialog.getByRole('button', { name: '新建令牌' }).click();
  await expect(dialog.getByText('令牌名称不能为空！')).toBeVisible();
  await dialog.getByLabel('名称').fill('energy export script');
  await dialog.getByLabel('有效期').fill('30');
  await dialog.getByRole('button', { name: '新建令牌' }).click();

  const secret = dialog.getByTestId('api-token-secret');
  await expect(secret).toContainText(/^swt_/);
  const token = ((await secret.textContent()) ?? '').trim();
  expect(token).toMatch(/^swt_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByRole('button', { name: /复制|Copy/ }).first()).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'api-tokens-created-default-zh_cn.png') });

  await dialog.getByRole('button', { name: '我已复制' }).click();
  const row = page.getByRole('row', { name: /energy export script/ });
  await expect(row).toBeVisible();
  // The list shows the public prefix only, never the secret.
  await expect(row).toContainText(`${token.slice(0, 16)}_…`);
  await expect(page.getByText(token)).toHaveCount(0);

  const asScript = () => request.get('/api/v1/user/current', { headers: { authorization: `Bearer ${token}` } });
  const me = await asScript();
  expect(me.status()).toBe(200);
  expect((await me.json()).data.user_name).toBe('admin');

  await page.reload();
  await expect(row).toContainText('127.0.0.1');
  await page.screenshot({ path: path.join(shots, 'api-tokens-list-default-zh_cn.png') });

  await row.getByRole('button', { name: /撤\s*销/ }).click();
  await page.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByText('暂无API令牌')).toBeVisible();
  expect((await asScript()).status()).toBe(401);
});
