import { execFileSync, spawn } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  adminPassword,
  apiLogin,
  encrypt,
  resetAdminLanguage,
  setGlobalConfig,
  signInAsAdmin,
  signInWithToken,
  tokenOf,
  withDb,
} from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { templateDir } from '../fixtures/server.ts';
import { expect, type Page, test } from '../fixtures/test.ts';

/**
 * The system pages (docs/system.md): an administrator reads the system information (and the debug
 * log's read-only state: the journeys' server writes its log to a pipe), checks a port and pings
 * from the box, downloads the point-table templates and the API document, sets the SM4 key with the
 * verification password, and adds a time period at /week_time; in Chinese and in English, at
 * 1366×768, with a screenshot of each page.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');

// The file's product is shared by its tests: the language and the outbound policy go back to their defaults.
test.afterEach(async ({ request }) => {
  await resetAdminLanguage(request);
  await setGlobalConfig(request, 'OUTBOUND', { allow: [], deny: [] });
});

const texts = {
  zh_cn: {
    licenceState: '试用',
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
    on: '已启用',
    add: /添\s*加/,
    name: '名称',
    period: '夜班',
    ok: /确\s*定|OK/,
  },
  en_us: {
    licenceState: 'Trial',
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
    on: 'On',
    add: 'Add',
    name: 'Name',
    period: 'Night shift',
    ok: /确\s*定|OK/,
  },
} as const;

/** A screenshot of the page, which shows names only, never an i18n key or a code. */
const shot = async (page: Page, name: string, language: string) => {
  await page.screenshot({ path: path.join(shots, `system-${name}-${language}-1366x768.png`) });
  await expectNoRawKeys(page, `${name} (${language})`);
};

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
    await expect(page.getByText(x.licenceState, { exact: true })).toBeVisible({ timeout: 30_000 });
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
    // Saved: encryption shows on (the key may be the other language's journey's until now).
    await expect(page.getByText(x.on, { exact: true })).toBeVisible();
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
    await dialog.getByLabel(x.name).fill(x.period);
    await dialog.getByRole('button', { name: x.ok }).click();
    await expect(page.getByRole('row', { name: x.period })).toBeVisible();
    await shot(page, 'week-time', language);
  });
}

/**
 * The debug log where the host keeps one: the built server started as a service manager with
 * `StandardOutput=append:` would start it, its output going to a file. The download is that file's
 * end with the secrets redacted, and once the SM4 key is on, what openssl decrypts with the key.
 */
test('the debug log of a server writing its log to a file: redacted, then SM4-encrypted', async ({
  page,
  playwright,
}) => {
  const root = path.resolve(import.meta.dirname, '../..');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-e2e-log-'));
  cpSync(templateDir('ready'), dataDir, { recursive: true });
  const logFile = path.join(dataDir, 'server.log');
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', 'server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', fd, 'inherit'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      SITEWATCH_DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      SITEWATCH_MODE: 'test',
      SITEWATCH_CAPTCHA: 'off',
      SITEWATCH_DEMO: '0',
    },
  });
  closeSync(fd);
  try {
    // The server says where it runs in its log, now a file.
    let url = '';
    await expect
      .poll(
        () => {
          const line = readFileSync(logFile, 'utf8')
            .split('\n')
            .find((l) => l.includes('"Sitewatch is running"'));
          url = line ? (JSON.parse(line) as { url: string }).url : '';
          return url;
        },
        { timeout: 60_000 },
      )
      .not.toBe('');
    const request = await playwright.request.newContext({ baseURL: url });
    const login = await apiLogin(request, 'admin', adminPassword);
    const token = login.data?.access_token as string;
    const headers = { authorization: `Bearer ${token}` };
    // A secret in a URL reaches the log (requests are logged at debug level).
    expect((await request.get('/api/v1/user/current?token=leaked-secret-4711', { headers })).status()).toBe(200);
    await expect.poll(() => readFileSync(logFile, 'utf8').includes('leaked-secret-4711')).toBe(true);

    const state = (await (await request.get('/api/v1/setting/maintain/debug_log/state', { headers })).json()).data;
    expect(state).toEqual({ available: true, reason: '', source: 'file', encrypted: false });
    const plain = await request.get('/api/v1/setting/maintain/debug_log?mb=1', { headers });
    expect(plain.status()).toBe(200);
    expect(plain.headers()['content-disposition']).toContain('sitewatch-debug.log"');
    const text = await plain.text();
    expect(text).toContain('Sitewatch is running');
    expect(text).toContain('token=[redacted]');
    expect(text).not.toContain('leaked-secret-4711');
    expect(text).not.toContain(token);

    // The page shows where the log comes from and offers the download.
    await page.setViewportSize({ width: 1366, height: 768 });
    await signInWithToken(page, token);
    await page.goto(`${url}/sys_information`);
    const card = page.getByText(/日志读取自服务器输出的日志文件|The log is read from the file/);
    await expect(card).toBeVisible({ timeout: 30_000 });
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await expect(page.getByRole('button', { name: /下载调试日志|Download debug log/ })).toBeInViewport();
    await page.screenshot({ path: path.join(shots, 'system-debug-log-file-zh_cn-1366x768.png') });

    // With the SM4 key on, the download is encrypted: the IV, then SM4-CBC that openssl reads.
    const key = '00112233445566778899aabbccddeeff';
    const { public_key } = (await (await request.get('/api/v1/pub/login/params')).json()).data;
    const saved = await request.post('/api/v1/setting/maintain/sm4', {
      headers,
      data: { enabled: true, key, verify_password: encrypt(public_key, adminPassword) },
    });
    expect((await saved.json()).code).toBe(0);
    const sealed = await request.get('/api/v1/setting/maintain/debug_log?mb=1', { headers });
    expect(sealed.headers()['content-disposition']).toContain('sitewatch-debug.log.sm4');
    const body = await sealed.body();
    const cipherFile = path.join(dataDir, 'log.sm4');
    writeFileSync(cipherFile, body.subarray(16));
    const iv = body.subarray(0, 16).toString('hex');
    const clear = execFileSync('openssl', [
      'enc',
      '-d',
      '-sm4-cbc',
      '-K',
      key,
      '-iv',
      iv,
      '-in',
      cipherFile,
    ]).toString();
    expect(clear).toContain('Sitewatch is running');
    expect(clear).not.toContain('leaked-secret-4711');
    await request.dispose();
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * An operator holding the information and tools pages (410, 411), made in the database as another
 * journey's set-up would be: the host's details, the debug log, the tools and the key are not theirs.
 */
test('an operator sees the system information without the host details, and no tools or key', async ({
  page,
  request,
}) => {
  const { hash } = await import('@node-rs/argon2');
  const passwordHash = await hash('Operator-Pass-77', {
    algorithm: 2,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
  withDb((db) => {
    const now = Math.floor(Date.now() / 1000);
    const roleId = Number(
      db.prepare('insert into roles (name, remark, created_at) values (?, ?, ?)').run('system-readers', '', now)
        .lastInsertRowid,
    );
    const userId = Number(
      db
        .prepare(
          `insert into users (user_name, alias, password_hash, password_changed_at, must_change_password, created_at, updated_at)
           values (?, ?, ?, ?, 0, ?, ?)`,
        )
        .run('sysreader', 'sysreader', passwordHash, now, now, now).lastInsertRowid,
    );
    db.prepare('insert into user_roles (user_id, role_id) values (?, ?)').run(userId, roleId);
    for (const menu of [410, 411])
      db.prepare('insert into role_menus (role_id, menu_id) values (?, ?)').run(roleId, menu);
  }, false);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInWithToken(page, await tokenOf(request, 'sysreader', 'Operator-Pass-77'));
  await page.goto('/sys_information');
  await expect(page.getByText('主机名称、系统和 CPU 型号仅对管理员显示。')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('试用', { exact: true })).toBeVisible();
  await expect(page.getByText('调试日志')).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, 'system-information-operator-zh_cn-1366x768.png') });
  await page.goto('/tools');
  await expect(page.getByText('此页面仅管理员可用。')).toBeVisible();
  // /secret_list is always allowed (002 §2.2), its key is not.
  await page.goto('/secret_list');
  await expect(page.getByText('此页面仅管理员可用。')).toBeVisible();
});
