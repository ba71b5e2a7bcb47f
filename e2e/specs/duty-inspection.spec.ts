import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createUser, resetAdminLanguage, signInAsAdmin, signInWithToken, tokenOf } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { addReading, adminApi, createDevice, createSite } from '../fixtures/stage.ts';
import { expect, test } from '../fixtures/test.ts';
import { Handover } from '../pages/duty.ts';
import { Inspection } from '../pages/inspection.ts';
import { pushFrame, pushReady } from '../pages/push.ts';
import { Shell } from '../pages/shell.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
/** Today's date as the duty table writes it (local time). */
/** The local date in `days` days. */
const today = (days = 0) =>
  new Date(Date.now() + days * 86_400_000 - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

test.afterEach(async ({ request }) => resetAdminLanguage(request));

test('an inspection walks a site, captures its live values, and its report is reviewed', async ({ page, request }) => {
  const device = await createDevice(request, await createSite(request, '巡检机房'), 'TH-巡检');
  await addReading(request, device, '回风温度', { base: 23 });
  await signInAsAdmin(page, request);
  const inspection = new Inspection(page);

  await inspection.walk('巡检机房');
  await expect(inspection.row('回风温度')).toContainText('23 ℃', { timeout: 20_000 });
  await page.getByRole('textbox', { name: '巡检总结' }).fill('机房巡检：空调运行正常');
  await expectNoRawKeys(page, 'the inspection (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'inspection-main-zh_cn.png'), fullPage: true });
  await inspection.submit('机房巡检：空调运行正常');

  const detail = page.getByTestId('inspection-detail');
  await expect(inspection.row('回风温度', detail)).toContainText('23 ℃');
  await inspection.pass('已复核');
  await expect(detail).toContainText('已复核');
  await page.screenshot({ path: path.join(shots, 'inspection-detail-zh_cn.png'), fullPage: true });
  // The report as a PDF (its text is checked by inspection-duty.int.test.ts).
  const download = page.waitForEvent('download');
  await page.getByTestId('inspection-export-pdf').click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/^inspection-\d+\.pdf$/);
  expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');

  await page.goto('/polling_record');
  const records = page.getByTestId('inspection-records');
  await page.getByText('全部', { exact: true }).click();
  await expect(records.locator('tbody tr').first()).toContainText('已通过');
  await expectNoRawKeys(page, 'the inspection records (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'inspection-record-zh_cn.png'), fullPage: true });

  await new Shell(page).language('English');
  await expect(records).toContainText('Inspection records');
  await page.getByText('All', { exact: true }).click();
  await expect(records.locator('tbody tr').first()).toContainText('Passed');
  await expectNoRawKeys(page, 'the inspection records (en_us)');
  await page.screenshot({ path: path.join(shots, 'inspection-record-en_us.png'), fullPage: true });
  await records.getByRole('button', { name: 'Open', exact: true }).first().click();
  await expect(inspection.status).toHaveText('Passed');
  await expectNoRawKeys(page, 'an inspection report (en_us)');
  await page.screenshot({ path: path.join(shots, 'inspection-detail-en_us.png'), fullPage: true });
});

test('a duty roster is generated and a handover is confirmed by its successor', async ({
  page,
  freshPage,
  request,
}) => {
  const a = await adminApi(request, 'post', 'setting/contacts', { name: '张工', sms_number: '13800000001' });
  const b = await adminApi(request, 'post', 'setting/contacts', { name: '李工', sms_number: '13800000002' });
  const day = await adminApi(request, 'post', 'on_duty_time_schedule', { name: '白班', start: '08:00', end: '20:00' });
  const night = await adminApi(request, 'post', 'on_duty_time_schedule', {
    name: '夜班',
    start: '20:00',
    end: '08:00',
  });
  for (const [shift, contacts] of [
    [day.id, [a.id, b.id]],
    [night.id, [b.id, a.id]],
  ])
    await adminApi(request, 'post', 'on_duty_table/rotation', {
      shift_id: shift,
      contact_ids: contacts,
      start_date: today(),
      weeks: 1,
    });
  const successor = await createUser(request, { user_name: 'duty-next', alias: '接班员' }, 'Duty-Next-Second-2');
  await signInAsAdmin(page, request);

  await page.goto('/duty_manage/duty_arrange');
  const arrange = page.getByTestId('duty-arrange');
  await expect(arrange.locator('tr', { hasText: '白班' })).toContainText('张工');
  await expect(arrange.locator('tr', { hasText: '夜班' })).toContainText('李工');
  await expectNoRawKeys(page, 'the duty roster (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'duty-arrange-zh_cn.png'), fullPage: true });

  const handover = await new Handover(page).goto();
  await handover.handOver('接班员', 'UPS 旁路告警未恢复，已联系厂家');
  const record = handover.record('UPS 旁路告警');
  await expect(record).toContainText('待接班人确认');
  // The shifter cannot confirm it: only the successor sees the button.
  await expect(record.getByRole('button', { name: '确认接班' })).toHaveCount(0);
  await expectNoRawKeys(page, 'the handover (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'duty-handover-zh_cn.png'), fullPage: true });

  const next = await freshPage();
  await signInWithToken(next, await tokenOf(request, 'duty-next', 'Duty-Next-Second-2'));
  const theirs = (await new Handover(next).goto()).record('UPS 旁路告警');
  await theirs.getByRole('button', { name: '确认接班' }).click();
  await expect(theirs).toContainText('已确认');

  await page.reload();
  await new Shell(page).language('English');
  await expect(handover.record('UPS')).toContainText('Confirmed');
  await expectNoRawKeys(page, 'the handover (en_us)');
  await page.screenshot({ path: path.join(shots, 'duty-handover-en_us.png'), fullPage: true });
  await page.goto('/duty_manage/duty_arrange');
  await expect(page.getByTestId('duty-arrange')).toContainText('Duty table');
  await expectNoRawKeys(page, 'the duty roster (en_us)');
  await page.screenshot({ path: path.join(shots, 'duty-arrange-en_us.png'), fullPage: true });
  expect(successor).toBeGreaterThan(1);
});

test('with shift handover on, the operator on duty gets the alarm pop-up and the one off duty does not', async ({
  page,
  freshPage,
  request,
}) => {
  /** An operator whose e-mail is that of a duty contact (the duty table's members are contacts). */
  const operator = async (userName: string, alias: string, email: string) => {
    const contact = await adminApi(request, 'post', 'setting/contacts', { name: alias, email });
    const password = `${userName}-Second-2B`;
    await createUser(request, { user_name: userName, alias, email }, password);
    return { token: await tokenOf(request, userName, password), contact: contact.id as number };
  };
  const on = await operator('duty-on', '当班王工', 'on-duty@example.com');
  const offDuty = await operator('duty-off', '休班赵工', 'off-duty@example.com');
  // A whole-day shift today (an end not after the start is the next day) with only 王工 on it.
  const allDay = await adminApi(request, 'post', 'on_duty_time_schedule', {
    name: '全天班',
    start: '00:00',
    end: '00:00',
  });
  // Today's and tomorrow's: a journey that runs across midnight still finds 王工 on duty.
  for (const date of [today(), today(1)])
    await adminApi(request, 'post', 'on_duty_table', { date, shift_id: allDay.id, contact_ids: [on.contact] });
  await adminApi(request, 'put', 'on_duty_handover/setting', { handover_enable: true });

  const off = await freshPage();
  const offTold = pushFrame(off, '"event":"raise"', '排风温度', '"notice":false');
  await signInWithToken(page, on.token);
  await signInWithToken(off, offDuty.token);
  const ready = [pushReady(page), pushReady(off)];
  await page.goto('/alarm');
  await off.goto('/alarm');
  await Promise.all(ready);

  const device = await createDevice(request, await createSite(request, '值班机房'), 'EX-值班');
  await addReading(request, device, '排风温度', { base: 45 });

  // On duty: the pop-up names the alarm. Off duty: the same push arrives marked, the list follows, no pop-up.
  const notice = page.getByTestId('alarm-notices').getByTestId('alarm-notice').filter({ hasText: '排风温度' });
  await expect(notice).toBeVisible({ timeout: 20_000 });
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
  await expect(notice).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'duty-notice-on-duty-en_us.png') });
  await adminApi(request, 'put', 'on_duty_handover/setting', { handover_enable: false });
});
