import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { adminHeaders, apiLogin, resetAdminLanguage } from '../fixtures/product.ts';
import { type APIRequestContext, expect, type Page, test } from '../fixtures/test.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
const encrypt = (publicKey: string, text: string) =>
  publicEncrypt(
    {
      key: createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }),
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
    },
    Buffer.from(text),
  ).toString('base64');

const api = async (request: APIRequestContext, method: 'get' | 'post' | 'put', url: string, data?: unknown) => {
  const res = await request[method](`/api/v1/${url}`, {
    headers: await adminHeaders(request),
    ...(data ? { data } : {}),
  });
  const body = await res.json();
  if (body.code !== 0) throw new Error(`${method} ${url}: ${JSON.stringify(body)}`);
  return body.data;
};
/** Opens the console with a session token (no login page in between). */
const openAs = async (page: Page, token: string) => {
  await page.addInitScript((value) => sessionStorage.setItem('token', value), token);
};
/**
 * Switches the interface to English through the shell's language menu, as a person does, and waits
 * for the page to come back in English (a choice clicked while the list was still opening was lost
 * with two journey workers: it is chosen again until the page is English).
 */
const english = async (page: Page) => {
  await expect(async () => {
    if (await page.getByLabel('Language').isVisible()) return;
    await page.getByLabel('语言').click({ timeout: 2_000 });
    await page.getByTitle('English').click({ timeout: 2_000 });
    await expect(page.getByLabel('Language')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
};

test.afterEach(async ({ request }) => resetAdminLanguage(request));

test('an inspection walks a site, captures its live values, and its report is reviewed', async ({ page, request }) => {
  const site = await api(request, 'post', 'setting/device_groups', { name: '巡检机房', weight: 1 });
  const device = await api(request, 'post', 'setting/devices', {
    name: 'TH-巡检',
    device_group_id: site.id,
    driver: 'simulator',
    code: 'temp_hum',
    check_interval: 1,
  });
  await api(request, 'post', 'setting/items', {
    device_id: device.id,
    name: '回风温度',
    value_type: 1,
    unit: '℃',
    threshold_min: 10,
    threshold_max: 30,
    overrun_point: 0,
    recovery_point: 1,
    source: { kind: 'simulator', model: 'analog', base: 23, spread: 0, noise: 0 },
  });
  const headers = await adminHeaders(request);
  await openAs(page, headers.authorization.replace('Bearer ', ''));

  await page.goto('/polling_main');
  await page.getByTestId('inspection-page').getByRole('combobox').first().click();
  await page.locator('.ant-select-tree-title', { hasText: '巡检机房' }).click();
  const row = page.locator('tr', { has: page.getByRole('cell', { name: '回风温度' }) });
  await expect(row).toContainText('23 ℃', { timeout: 20_000 });
  await page.getByRole('textbox', { name: '巡检总结' }).fill('机房巡检：空调运行正常');
  await page.screenshot({ path: path.join(shots, 'inspection-main-zh_cn.png'), fullPage: true });
  await page.getByTestId('inspection-submit').click();

  await expect(page).toHaveURL(/\/polling_main_detail\?id=\d+/);
  const detail = page.getByTestId('inspection-detail');
  await expect(detail.getByTestId('inspection-status')).toHaveText('待审核');
  await expect(detail.locator('tr', { hasText: '回风温度' })).toContainText('23 ℃');
  await page.getByRole('textbox', { name: '审核意见' }).fill('已复核');
  await page.getByRole('button', { name: /^通\s*过$/ }).click();
  await expect(detail.getByTestId('inspection-status')).toHaveText('已通过');
  await expect(detail).toContainText('已复核');
  await page.screenshot({ path: path.join(shots, 'inspection-detail-zh_cn.png'), fullPage: true });
  // The report as a PDF (its text is checked by inspection-duty.int.test.ts).
  const download = page.waitForEvent('download');
  await page.getByTestId('inspection-export-pdf').click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/^inspection-\d+\.pdf$/);
  expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');

  await page.goto('/polling_record');
  await page.getByText('全部', { exact: true }).click();
  await expect(page.getByTestId('inspection-records').locator('tbody tr').first()).toContainText('已通过');
  await page.screenshot({ path: path.join(shots, 'inspection-record-zh_cn.png'), fullPage: true });

  await english(page);
  await expect(page.getByTestId('inspection-records')).toContainText('Inspection records');
  await page.getByText('All', { exact: true }).click();
  await expect(page.getByTestId('inspection-records').locator('tbody tr').first()).toContainText('Passed');
  await page.screenshot({ path: path.join(shots, 'inspection-record-en_us.png'), fullPage: true });
  await page.getByTestId('inspection-records').getByRole('button', { name: 'Open', exact: true }).first().click();
  await expect(page.getByTestId('inspection-status')).toHaveText('Passed');
  await page.screenshot({ path: path.join(shots, 'inspection-detail-en_us.png'), fullPage: true });
});

test('a duty roster is generated and a handover is confirmed by its successor', async ({
  page,
  freshPage,
  request,
}) => {
  const a = await api(request, 'post', 'setting/contacts', { name: '张工', sms_number: '13800000001' });
  const b = await api(request, 'post', 'setting/contacts', { name: '李工', sms_number: '13800000002' });
  const day = await api(request, 'post', 'on_duty_time_schedule', { name: '白班', start: '08:00', end: '20:00' });
  const night = await api(request, 'post', 'on_duty_time_schedule', { name: '夜班', start: '20:00', end: '08:00' });
  const today = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  await api(request, 'post', 'on_duty_table/rotation', {
    shift_id: day.id,
    contact_ids: [a.id, b.id],
    start_date: today,
    weeks: 1,
  });
  await api(request, 'post', 'on_duty_table/rotation', {
    shift_id: night.id,
    contact_ids: [b.id, a.id],
    start_date: today,
    weeks: 1,
  });

  const { public_key } = await api(request, 'get', 'pub/login/params');
  const successor = await api(request, 'post', 'setting/users', {
    user_name: 'duty-next',
    alias: '接班员',
    password: encrypt(public_key, 'Duty-Next-First-1'),
    role_ids: [1],
    user_group_ids: [1],
  });
  await request.put('/api/v1/user/password_without_login', {
    data: {
      user_name: 'duty-next',
      old_password: encrypt(public_key, 'Duty-Next-First-1'),
      new_password: encrypt(public_key, 'Duty-Next-Second-2'),
    },
  });
  const headers = await adminHeaders(request);
  await openAs(page, headers.authorization.replace('Bearer ', ''));

  await page.goto('/duty_manage/duty_arrange');
  const arrange = page.getByTestId('duty-arrange');
  await expect(arrange.locator('tr', { hasText: '白班' })).toContainText('张工');
  await expect(arrange.locator('tr', { hasText: '夜班' })).toContainText('李工');
  await page.screenshot({ path: path.join(shots, 'duty-arrange-zh_cn.png'), fullPage: true });

  await page.goto('/duty_manage/change_shifts');
  await page.getByRole('combobox', { name: '接班人' }).click();
  await page.getByTitle('接班员').click();
  await page.getByRole('textbox', { name: '交接事项' }).fill('UPS 旁路告警未恢复，已联系厂家');
  await page.getByRole('button', { name: /^交\s*班$/ }).click();
  const record = page.getByTestId('duty-handover').locator('tr', { hasText: 'UPS 旁路告警' });
  await expect(record).toContainText('待接班人确认');
  // The shifter cannot confirm it: only the successor sees the button.
  await expect(record.getByRole('button', { name: '确认接班' })).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, 'duty-handover-zh_cn.png'), fullPage: true });

  const next = await freshPage();
  const login = await apiLogin(request, 'duty-next', 'Duty-Next-Second-2');
  await openAs(next, login.data!.access_token);
  await next.goto('/duty_manage/change_shifts');
  const theirs = next.getByTestId('duty-handover').locator('tr', { hasText: 'UPS 旁路告警' });
  await theirs.getByRole('button', { name: '确认接班' }).click();
  await expect(theirs).toContainText('已确认');

  await page.reload();
  await english(page);
  await expect(page.getByTestId('duty-handover').locator('tr', { hasText: 'UPS' })).toContainText('Confirmed');
  await page.screenshot({ path: path.join(shots, 'duty-handover-en_us.png'), fullPage: true });
  await page.goto('/duty_manage/duty_arrange');
  await expect(page.getByTestId('duty-arrange')).toContainText('Duty table');
  await page.screenshot({ path: path.join(shots, 'duty-arrange-en_us.png'), fullPage: true });
  expect(successor.id).toBeGreaterThan(1);
});

test('with shift handover on, the operator on duty gets the alarm pop-up and the one off duty does not', async ({
  page,
  freshPage,
  request,
}) => {
  const { public_key } = await api(request, 'get', 'pub/login/params');
  /** An operator whose e-mail is that of a duty contact (the duty table's members are contacts). */
  const operator = async (userName: string, alias: string, email: string) => {
    const contact = await api(request, 'post', 'setting/contacts', { name: alias, email });
    await api(request, 'post', 'setting/users', {
      user_name: userName,
      alias,
      email,
      password: encrypt(public_key, `${userName}-First-1A`),
      role_ids: [1],
      user_group_ids: [1],
    });
    await request.put('/api/v1/user/password_without_login', {
      data: {
        user_name: userName,
        old_password: encrypt(public_key, `${userName}-First-1A`),
        new_password: encrypt(public_key, `${userName}-Second-2B`),
      },
    });
    const token = (await apiLogin(request, userName, `${userName}-Second-2B`)).data!.access_token;
    return { token, contact: contact.id as number };
  };
  const on = await operator('duty-on', '当班王工', 'on-duty@example.com');
  const offDuty = await operator('duty-off', '休班赵工', 'off-duty@example.com');
  // A whole-day shift today (an end not after the start is the next day) with only 王工 on it.
  const allDay = await api(request, 'post', 'on_duty_time_schedule', { name: '全天班', start: '00:00', end: '00:00' });
  const today = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
  await api(request, 'post', 'on_duty_table', { date: today, shift_id: allDay.id, contact_ids: [on.contact] });
  await api(request, 'put', 'on_duty_handover/setting', { handover_enable: true });

  const off = await freshPage();
  const ready = (p: Page) =>
    new Promise<void>((resolve) =>
      p.on('websocket', (ws) =>
        ws.on('framereceived', (f) => {
          if (String(f.payload).includes('"type":"ready"')) resolve();
        }),
      ),
    );
  const offTold = new Promise<void>((resolve) =>
    off.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const s = String(f.payload);
        if (s.includes('"event":"raise"') && s.includes('排风温度') && s.includes('"notice":false')) resolve();
      }),
    ),
  );
  await openAs(page, on.token);
  await openAs(off, offDuty.token);
  const onReady = ready(page);
  const offReady = ready(off);
  await page.goto('/alarm');
  await off.goto('/alarm');
  await Promise.all([onReady, offReady]);

  const site = await api(request, 'post', 'setting/device_groups', { name: '值班机房', weight: 1 });
  const device = await api(request, 'post', 'setting/devices', {
    name: 'EX-值班',
    device_group_id: site.id,
    driver: 'simulator',
    code: 'temp_hum',
    check_interval: 1,
  });
  await api(request, 'post', 'setting/items', {
    device_id: device.id,
    name: '排风温度',
    value_type: 1,
    unit: '℃',
    threshold_min: 10,
    threshold_max: 30,
    overrun_point: 0,
    recovery_point: 1,
    source: { kind: 'simulator', model: 'analog', base: 45, spread: 0, noise: 0 },
  });

  // On duty: the pop-up names the alarm. Off duty: the same push arrives marked, the list follows, no pop-up.
  await expect(
    page.getByTestId('alarm-notices').getByTestId('alarm-notice').filter({ hasText: '排风温度' }),
  ).toBeVisible({ timeout: 20_000 });
  await offTold;
  await expect(off.getByRole('row').filter({ hasText: '排风温度' })).toBeVisible();
  await expect(off.getByTestId('alarm-notices')).toHaveCount(0);
  await expect(off.getByTestId('alarm-notices-open')).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, 'duty-notice-on-duty-zh_cn.png') });
  await off.screenshot({ path: path.join(shots, 'duty-notice-off-duty-zh_cn.png') });

  // A reload off duty shows no pop-up either (alarms raised while away are not shown to those off duty).
  await off.evaluate(() => localStorage.setItem('language', 'en_us'));
  await off.reload();
  await expect(off.getByRole('row').filter({ hasText: '排风温度' })).toBeVisible();
  await expect(off.getByRole('columnheader', { name: 'Site' })).toBeVisible();
  await expect(off.getByTestId('alarm-notices-open')).toHaveCount(0);
  await off.screenshot({ path: path.join(shots, 'duty-notice-off-duty-en_us.png') });
  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.reload();
  await expect(page.getByTestId('alarm-notices-open')).toBeVisible();
  await page.getByTestId('alarm-notices-open').click();
  await expect(
    page.getByTestId('alarm-notices').getByTestId('alarm-notice').filter({ hasText: '排风温度' }),
  ).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'duty-notice-on-duty-en_us.png') });
  await api(request, 'put', 'on_duty_handover/setting', { handover_enable: false });
});
