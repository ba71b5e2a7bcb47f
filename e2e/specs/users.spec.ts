import {
  adminHeaders,
  adminPassword,
  loginInBrowser,
  loginSafe,
  loginToConsole,
  setGlobalConfig,
} from '../fixtures/product.ts';
import { createSite } from '../fixtures/stage.ts';
import { expect, test } from '../fixtures/test.ts';

// The first journey walks two users' sessions through a dozen page loads: at a load average of 20
// it went past 60 s (site-map.spec.ts gives its long journeys the same).
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

// The block list and the login settings are put back after every journey, even a failed one. The
// reset signs in from Firefox, which every journey here leaves allowed.
test.afterEach(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'user-agent': firefox } });
  const headers = await adminHeaders(request);
  const blocks = await (await request.get('/api/v1/setting/account_blocks', { headers })).json();
  for (const block of blocks.data?.data ?? [])
    await request.delete(`/api/v1/setting/account_blocks/${block.id}`, { headers });
  await setGlobalConfig(request, 'LOGIN_SAFE', loginSafe());
  await request.dispose();
});

test('the administrator grants a role one site, three pages and a contact, and its user sees only those', async ({
  page,
  freshPage,
  request,
}) => {
  const headers = await adminHeaders(request);
  for (const name of ['值班甲', '值班乙']) {
    expect((await request.post('/api/v1/setting/contacts', { headers, data: { name } })).ok()).toBe(true);
  }
  for (const name of ['北京总部机房', '上海数据中心']) await createSite(request, name);
  await loginToConsole(page, 'admin', adminPassword);

  await page.goto('/authority_groups');
  await page.getByRole('button', { name: /添\s*加/ }).click();
  const roleDialog = page.getByRole('dialog');
  await roleDialog.getByLabel('权限组名称').fill('Duty viewers');
  await roleDialog
    .getByTestId('site-grants')
    .locator('.ant-tree-treenode', { hasText: '北京总部机房' })
    .locator('.ant-tree-checkbox')
    .click();
  const grants = roleDialog.getByTestId('menu-grants');
  // Every function of three pages: station monitoring, the operation log and contacts.
  for (const pageName of ['站点监控', '用户操作日志', /^联系人$/]) {
    await grants.locator('.ant-tree-treenode', { hasText: pageName }).first().locator('.ant-tree-checkbox').click();
  }
  // One contact of the two.
  await roleDialog.getByTestId('contact-grants').getByLabel('值班甲').check();
  await page.screenshot({ path: test.info().outputPath('role-dialog-zh_cn.png') });
  await roleDialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('cell', { name: 'Duty viewers' })).toBeVisible();

  await page.goto('/setting_users');
  await page.getByRole('button', { name: /添\s*加/ }).click();
  const userDialog = page.getByRole('dialog');
  await userDialog.getByLabel('用户名').fill('duty1');
  await userDialog.getByLabel(/^密码$/).fill('Duty-First-Pass-1');
  await userDialog.getByLabel('确认密码').fill('Duty-First-Pass-1');
  await userDialog.getByLabel('邮箱').fill('bad-address');
  await userDialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(userDialog.getByText('邮箱格式不正确')).toBeVisible();
  await userDialog.getByLabel('邮箱').fill('duty1@example.com');
  await userDialog.getByLabel('权限组').click();
  await page.getByTitle('Duty viewers').click();
  await page.keyboard.press('Escape');
  await userDialog.getByLabel('用户组').click();
  await page.locator('.ant-select-tree-node-content-wrapper', { hasText: 'default' }).click();
  await page.keyboard.press('Escape');
  await userDialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('cell', { name: 'duty1', exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('users-zh_cn.png') });

  // The new user changes the issued password at first login, then sees only the granted pages.
  const other = await freshPage();
  await loginInBrowser(other, 'duty1', 'Duty-First-Pass-1');
  const forced = other.getByRole('dialog');
  await forced.getByLabel('旧密码').fill('Duty-First-Pass-1');
  await forced.getByLabel('新密码').fill('Duty-Second-Pass-2');
  await forced.getByLabel('确认密码').fill('Duty-Second-Pass-2');
  await forced.getByRole('button', { name: /确\s*定/ }).click();
  await expect(other.getByText('修改成功！请重新登录！')).toBeVisible();
  await loginToConsole(other, 'duty1', 'Duty-Second-Pass-2');
  const menu = other.locator('.ant-layout-sider');
  await expect(menu.getByText('站点监控')).toBeVisible();
  await expect(menu.getByText('用户操作日志')).toBeVisible();
  await expect(menu.getByText('用户管理', { exact: true })).toHaveCount(0);
  await expect(menu.getByText('安全设置')).toHaveCount(0);
  // Only the granted site's data, not the other's.
  await other.goto('/station');
  await expect(other.getByText('北京总部机房').first()).toBeVisible();
  await expect(other.getByText('上海数据中心')).toHaveCount(0);
  await other.screenshot({ path: test.info().outputPath('restricted-shell-zh_cn.png') });
  // Only the granted contact.
  await other.goto('/setting_contacts');
  await expect(other.getByRole('cell', { name: '值班甲' })).toBeVisible();
  await expect(other.getByRole('cell', { name: '值班乙' })).toHaveCount(0);
  await other.evaluate(() => {
    window.history.pushState({}, '', '/setting_security');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(other.getByText('当前用户无权限访问此页面！')).toBeVisible();
  const token = await other.evaluate(() => sessionStorage.getItem('token'));
  expect(
    (
      await other.request.get('/api/v1/setting/gc?k=LOGIN_SAFE', { headers: { authorization: `Bearer ${token}` } })
    ).status(),
  ).toBe(403);
});

test('a blocked user cannot log in, and neither can a browser that is not allowed', async ({ page, request }) => {
  const headers = await adminHeaders(request);
  const users = await (await request.get('/api/v1/setting/users?name=duty1', { headers })).json();
  const dutyId = users.data.data[0].id as number;
  const block = await request.post('/api/v1/setting/account_blocks', {
    headers,
    data: { user_ids: [dutyId], reason: 'on leave', days: 3 },
  });
  expect((await block.json()).code).toBe(0);
  await loginInBrowser(page, 'duty1', 'Duty-Second-Pass-2');
  await expect(page.getByTestId('login-error')).toHaveText('账号已被拉黑：on leave，请重新输入！');
  const blocks = await (await request.get('/api/v1/setting/account_blocks', { headers })).json();
  await request.delete(`/api/v1/setting/account_blocks/${blocks.data.data[0].id}`, { headers });

  // Only Firefox allowed (set from Firefox, so the administrator is not locked out): Chrome is refused.
  const firefoxHeaders = { ...headers, 'user-agent': firefox };
  const only = await request.post('/api/v1/setting/gc', {
    headers: firefoxHeaders,
    data: { k: 'LOGIN_SAFE', v: loginSafe({ allowed_browsers: ['firefox'] }) },
  });
  expect((await only.json()).code).toBe(0);
  await loginInBrowser(page, 'duty1', 'Duty-Second-Pass-2');
  await expect(page.getByTestId('login-error')).toHaveText('当前浏览器不允许登录，请使用允许的浏览器，请重新输入！');
  await request.post('/api/v1/setting/gc', { headers: firefoxHeaders, data: { k: 'LOGIN_SAFE', v: loginSafe() } });
  await loginToConsole(page, 'duty1', 'Duty-Second-Pass-2');
});
