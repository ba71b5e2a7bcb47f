import {
  adminPassword,
  captchaCodeShown,
  loginInBrowser,
  loginSafe,
  loginToConsole,
  resetAdminLanguage,
  setGlobalConfig,
  withDb,
} from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';

test.describe.configure({ mode: 'serial' });

// Journeys below change the login and account settings; each starts from and returns to the defaults,
// even when it fails half-way, so one failure never leaves the captcha or a lock on for the next.
test.afterEach(async ({ request }) => {
  await setGlobalConfig(request, 'LOGIN_SAFE', loginSafe());
  await setGlobalConfig(request, 'ACCOUNT_SAFE', { acc_logout_config: { enabled: false, opt_period: 30 } });
  await resetAdminLanguage(request);
});

/** A second account for the journeys, made in the database (user pages come with the users issue). */
const makeUser = async (userName: string, roleMenuIds: number[] = [], options: { mustChange?: boolean } = {}) => {
  const { hash } = await import('@node-rs/argon2');
  const passwordHash = await hash('Op-Journey-Pass-9', {
    algorithm: 2,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
  withDb((db) => {
    const now = Math.floor(Date.now() / 1000);
    const exists = db.prepare('select id from users where user_name = ?').get(userName);
    if (exists) return;
    const roleId = Number(
      db.prepare('insert into roles (name, remark, created_at) values (?, ?, ?)').run(`role-${userName}`, '', now)
        .lastInsertRowid,
    );
    const userId = Number(
      db
        .prepare(
          `insert into users (user_name, alias, password_hash, password_changed_at, must_change_password, created_at, updated_at)
           values (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(userName, userName, passwordHash, now, options.mustChange ? 1 : 0, now, now).lastInsertRowid,
    );
    db.prepare('insert into user_roles (user_id, role_id) values (?, ?)').run(userId, roleId);
    for (const menuId of roleMenuIds)
      db.prepare('insert into role_menus (role_id, menu_id) values (?, ?)').run(roleId, menuId);
  }, false);
  return 'Op-Journey-Pass-9';
};

test('wrong password and wrong captcha messages', async ({ page, request }) => {
  await loginInBrowser(page, 'admin', 'not-my-password');
  await expect(page.getByTestId('login-error')).toHaveText('用户名或密码错误，请重新输入！');
  await setGlobalConfig(request, 'LOGIN_SAFE', loginSafe({ captcha_enabled: true }));
  await page.goto('/login');
  await page.getByLabel('用户名').fill('admin');
  await page.getByLabel(/^密码$/).fill(adminPassword);
  await expect(page.getByTestId('captcha-image')).toBeVisible();
  await page.getByLabel('验证码').fill('zzzz');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('login-error')).toHaveText('验证码错误或已过期，请重新输入！');
  await expect(page.getByLabel('验证码')).toHaveValue('');
  await page.getByLabel('验证码').fill(await captchaCodeShown(page));
  await page.keyboard.press('Enter');
  // A successful login leaves the login page for the dashboard (000 §2.4: /home?fullShow=yes).
  await page.waitForURL(/\/home\?fullShow=yes/);
});

test('an account locks after the configured failures, without saying whether it exists', async ({ page, request }) => {
  const password = await makeUser('locky');
  await setGlobalConfig(
    request,
    'LOGIN_SAFE',
    loginSafe({ auto_lock: { enabled: true, period_minutes: 30, attempts: 3 } }),
  );
  for (let i = 0; i < 2; i++) {
    await loginInBrowser(page, 'locky', 'wrong');
    await expect(page.getByTestId('login-error')).toHaveText('用户名或密码错误，请重新输入！');
  }
  await loginInBrowser(page, 'locky', 'wrong');
  await expect(page.getByTestId('login-error')).toHaveText('账号已被锁定，请稍后再试或联系管理员，请重新输入！');
  await loginInBrowser(page, 'locky', password);
  await expect(page.getByTestId('login-error')).toHaveText('账号已被锁定，请稍后再试或联系管理员，请重新输入！');
  for (let i = 0; i < 3; i++) await loginInBrowser(page, 'nobody-here', 'wrong');
  await expect(page.getByTestId('login-error')).toHaveText('账号已被锁定，请稍后再试或联系管理员，请重新输入！');
});

test('remember-me survives a browser restart, a plain login does not', async ({ browser }) => {
  for (const remember of [true, false]) {
    const first = await browser.newContext();
    const page = await first.newPage();
    await loginToConsole(page, 'admin', adminPassword, { remember });
    await expect(page.getByTestId('user-menu')).toBeVisible();
    // A restart keeps local storage (and cookies) but never session storage.
    const state = await first.storageState();
    await first.close();
    const again = await browser.newContext({ storageState: state });
    const restarted = await again.newPage();
    await restarted.goto('/setting_auto_login');
    if (remember) {
      await expect(restarted.getByTestId('user-menu')).toBeVisible();
      await expect(restarted.getByText('本浏览器')).toBeVisible();
    } else {
      await expect(restarted).toHaveURL(/\/login$/);
    }
    await again.close();
  }
});

test('single-terminal login ends the first browser', async ({ freshPage, request }) => {
  await setGlobalConfig(request, 'LOGIN_SAFE', loginSafe({ single_terminal: true }));
  const a = await freshPage();
  await loginToConsole(a, 'admin', adminPassword);
  await expect(a.getByTestId('user-menu')).toBeVisible();
  const b = await freshPage();
  await loginToConsole(b, 'admin', adminPassword);
  await expect(b.getByTestId('user-menu')).toBeVisible();
  await a.goto('/setting_auto_login');
  await expect(a).toHaveURL(/\/login$/);
  await expect(a.getByTestId('login-error')).toHaveText('您的账号已在其他终端登录，当前登录已失效！');
});

test('the idle countdown logs out', async ({ page, request }) => {
  await setGlobalConfig(request, 'ACCOUNT_SAFE', { acc_logout_config: { enabled: true, opt_period: 1 } });
  await page.clock.install();
  await loginToConsole(page, 'admin', adminPassword);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.clock.runFor('01:10');
  await expect(page.getByText('即将自动退出')).toBeVisible();
  await page.clock.runFor('00:32');
  await expect(page).toHaveURL(/\/login$/);
});

test('language and theme switches persist across a reload', async ({ page }) => {
  await loginToConsole(page, 'admin', adminPassword);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.getByLabel('主题').click();
  await page.getByTitle('黑蓝').click();
  await page.getByLabel('语言').click();
  await page.getByTitle('English').click();
  await expect(page.getByRole('button', { name: 'Tabs' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Tabs' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'blackBlue');
  await page.screenshot({ path: test.info().outputPath('shell-en_us-blackBlue.png') });
  await page.getByTestId('user-menu').click();
  await page.getByText('Log out').click();
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('login-en_us.png') });
  // A user given a password by an administrator must change it first: the dialog in English.
  const password = await makeUser('newcomer', [], { mustChange: true });
  await loginInBrowser(page, 'newcomer', password);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('First login: please change the password you were given!')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('forced-change-en_us.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByLabel('Language').click();
  await page.getByTitle('简体中文').click();
  await page.getByLabel('主题').click();
  await page.getByTitle('默认白').click();
});

test('a forbidden page is refused by the router and the same call by the API', async ({ page }) => {
  // Granted the user-groups page only; the users page and the security settings stay closed.
  const password = await makeUser('viewer', [222]);
  await loginToConsole(page, 'viewer', password);
  await expect(page).toHaveURL(/\/setting_user_groups$/);
  await page.evaluate(() => {
    window.history.pushState({}, '', '/setting_users');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByText('当前用户无权限访问此页面！')).toBeVisible();
  await expect(page).toHaveURL(/\/setting_user_groups$/);
  const token = await page.evaluate(() => sessionStorage.getItem('token'));
  const api = await page.request.get('/api/v1/setting/users', { headers: { authorization: `Bearer ${token}` } });
  expect(api.status()).toBe(403);
  expect((await api.json()).message).toBe('当前用户无权限访问此页面！');
});
