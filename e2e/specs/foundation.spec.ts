import { signInAsAdmin } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';

const notFoundTexts = {
  zh_cn: '抱歉，您访问的页面不存在。',
  zh_xg: '抱歉，您訪問的頁面不存在。',
  zh_tw: '抱歉，您存取的頁面不存在。',
  en_us: 'Sorry, the page you visited does not exist.',
} as const;

test.describe('foundation', () => {
  for (const [language, text] of Object.entries(notFoundTexts)) {
    test(`an unknown path shows the 404 page in ${language}`, async ({ page }) => {
      await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
      await page.goto('/no-such-page');
      // Intermittently blank in zh_tw/zh_xg in CI runs (even after 30 s): not load; the boot's
      // top-level await may reject on a locale chunk and render nothing (session 19 note).
      await expect(page.getByText(text)).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language.replace('_', '-'));
      await page.screenshot({ path: test.info().outputPath(`not-found-${language}.png`) });
    });
  }

  test('the language picker switches the language and it persists across reloads', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByText(notFoundTexts.zh_cn)).toBeVisible();
    await page.getByLabel('语言').click();
    await page.getByTitle('English').click();
    await expect(page.getByText(notFoundTexts.en_us)).toBeVisible();
    await page.reload();
    await expect(page.getByText(notFoundTexts.en_us)).toBeVisible();
  });

  test('the theme picker applies a theme and keeps it', async ({ page }) => {
    await page.goto('/no-such-page');
    await page.getByLabel('主题').click();
    await page.getByTitle('黑蓝').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'blackBlue');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'blackBlue');
    await page.screenshot({ path: test.info().outputPath('not-found-blackBlue.png') });
  });

  test('without a token the root path goes to the login page', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a part of the app that fails to load once is loaded again by a reload, not left as an error page', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, request);
    let refused = 0;
    await page.route('**/assets/shell-layout-*.js', (route) => {
      if (refused++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    await page.goto('/system_log_user');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    expect(refused).toBeGreaterThan(1);
  });

  test('API paths never fall back to HTML', async ({ request }) => {
    const res = await request.get('/api/v1/nope');
    expect(res.status()).toBe(404);
    expect(await res.json()).toMatchObject({ code: 40400, message: '找不到数据或api不存在！' });
    const docs = await request.get('/api/docs/json');
    expect((await docs.json()).openapi).toMatch(/^3\./);
  });
});
