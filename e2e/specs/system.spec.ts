import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminPassword, setGlobalConfig, signInAsAdmin } from '../fixtures/product.ts';
import { expect, type Page, test } from '../fixtures/test.ts';

/**
 * The system pages (docs/system.md): an administrator reads the system information (and the debug
 * log's read-only state: the journeys' server writes its log to a pipe), checks a port and pings
 * from the box, downloads the point-table templates and the API document, sets the SM4 key with the
 * verification password, and adds a time period at /week_time; in Chinese and in English, at
 * 1366×768, with a screenshot of each page.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');

const texts = {
  zh_cn: {
    notInstalled: '未安装',
    noLogSource: '服务器日志输出到终端或管道',
    portCheck: '端口检测',
    address: '地址',
    port: '端口',
    run: /开\s*始/,
    open: '端口开放',
    reached: '可达',
    download: /下\s*载/,
    generate: '随机生成',
    password: '验证密码',
    save: /保\s*存/,
    keySet: '已设置，指纹',
    add: /添\s*加/,
    name: '名称',
    ok: /确\s*定|OK/,
  },
  en_us: {
    notInstalled: 'Not installed',
    noLogSource: "The server's log goes to a terminal or a pipe",
    portCheck: 'Port check',
    address: 'Address',
    port: 'Port',
    run: 'Run',
    open: 'Port open',
    reached: 'Reached',
    download: 'Download',
    generate: 'Generate',
    password: 'Verification password',
    save: 'Save',
    keySet: 'Set, fingerprint',
    add: 'Add',
    name: 'Name',
    ok: /确\s*定|OK/,
  },
} as const;

const shot = (page: Page, name: string, language: string) =>
  page.screenshot({ path: path.join(shots, `system-${name}-${language}-1366x768.png`) });

for (const language of ['zh_cn', 'en_us'] as const) {
  test(`system pages in ${language}`, async ({ page, request, baseURL }) => {
    mkdirSync(shots, { recursive: true });
    const x = texts[language];
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
    const headers = await signInAsAdmin(page, request);
    await request.post('/api/v1/menus/language', { headers, data: { language } });
    // The tools may reach the box itself in this journey (loopback is refused by default).
    await setGlobalConfig(request, 'OUTBOUND', { allow: ['127.0.0.0/8'], deny: [] });

    // System information: the product, the database, the host, and the debug log's read-only state.
    await page.goto('/sys_information');
    await expect(page.getByText(x.notInstalled)).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('SQLite', { exact: true })).toBeVisible();
    await expect(page.getByTestId('debug-log-unavailable')).toContainText(x.noLogSource);
    await expect(page.getByText(/Node\.js \d+/)).toBeVisible();
    await shot(page, 'information', language);

    // Tools: a port check of the server's own port, then a ping of loopback.
    await page.goto('/tools');
    await page.getByText(x.portCheck, { exact: true }).click();
    await page.getByLabel(x.address).fill('127.0.0.1');
    await page.getByLabel(x.port, { exact: true }).fill(new URL(baseURL ?? '').port);
    await page.getByRole('button', { name: x.run }).click();
    await expect(page.getByTestId('tool-result')).toContainText(x.open);
    await page.getByText('Ping', { exact: true }).click();
    await page.getByLabel(x.address).fill('127.0.0.1');
    await page.getByRole('button', { name: x.run }).click();
    await expect(page.getByTestId('tool-result')).toContainText(x.reached, { timeout: 20_000 });
    await expect(page.getByTestId('tool-result')).toContainText('127.0.0.1');
    await shot(page, 'tools', language);

    // Downloads: the Modbus template and the API document.
    await page.goto('/download_protocol');
    const buttons = page.getByRole('button', { name: x.download });
    await expect(buttons).toHaveCount(3);
    const [modbus] = await Promise.all([page.waitForEvent('download'), buttons.nth(0).click()]);
    expect(modbus.suggestedFilename()).toBe('modbus_points.xlsx');
    const [doc] = await Promise.all([page.waitForEvent('download'), buttons.nth(2).click()]);
    expect(doc.suggestedFilename()).toBe('sitewatch-openapi.json');
    await shot(page, 'download-protocol', language);

    // The SM4 key: a generated key saved with the verification password shows its fingerprint only.
    await page.goto('/secret_list');
    await page.getByRole('button', { name: x.generate }).click();
    await page.getByRole('switch').click();
    await page.getByLabel(x.password).fill(adminPassword);
    await page.getByRole('button', { name: x.save }).click();
    await expect(page.getByText(x.keySet)).toBeVisible();
    await expect(page.locator('code').filter({ hasText: /^[0-9a-f]{8}$/ })).toBeVisible();
    await shot(page, 'secret-list', language);
    // Encryption off again, so the other language's journey starts from the same state.
    await page.getByRole('switch').click();
    await page.getByLabel(x.password).fill(adminPassword);
    await page.getByRole('button', { name: x.save }).click();
    await expect(page.getByRole('switch')).not.toBeChecked();

    // /week_time: the time periods at their spec route; a new one is listed.
    await page.goto('/week_time');
    await page.getByRole('button', { name: x.add }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(x.name).fill(`Night shift ${language}`);
    await dialog.getByRole('button', { name: x.ok }).click();
    await expect(page.getByRole('row', { name: new RegExp(`Night shift ${language}`) })).toBeVisible();
    await shot(page, 'week-time', language);
  });
}
