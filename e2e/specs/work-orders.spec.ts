import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { adminHeaders } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
// The smallest valid PNG: 1×1, one grey pixel.
const png = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010800000000376ef9240000000a49444154789c6360000000020001e221bc330000000049454e44ae426082',
  'hex',
);

test('a new order reaches the handler’s bell by push; received, photographed, submitted, passed and counted', async ({
  page,
  request,
}) => {
  mkdirSync(shots, { recursive: true });
  const headers = await adminHeaders(request);
  await page.addInitScript(
    (value) => sessionStorage.setItem('token', value),
    headers.authorization.replace('Bearer ', ''),
  );
  // The push channel is signed in (its `ready` frame) before the order is created elsewhere.
  const pushReady = new Promise<void>((resolve) =>
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        if (String(f.payload).includes('"type":"ready"')) resolve();
      }),
    ),
  );
  await page.goto('/work_order');
  await pushReady;
  const bell = page.getByTestId('work-order-bell');
  await expect(bell).toBeVisible();
  await expect(page.getByRole('tab', { name: '待我处理' })).toBeVisible();

  // Created elsewhere (self-dispatch through the API): the bell counts it by push, well before its 30 s poll.
  const res = await request.post('/api/v1/work_order', {
    headers,
    data: { description: '机房 A 空调漏水', priority: 4, handler_id: 1, reviewer_id: 1, deadline_hours: 4 },
  });
  expect(res.status(), await res.text()).toBe(200);
  await expect(bell.locator('.ant-badge-count')).toHaveText('1', { timeout: 2000 });

  await bell.click();
  await page.getByTestId('work-order-bell-list').getByText('机房 A 空调漏水').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('待接收')).toBeVisible();
  await dialog.getByRole('button', { name: /^接 ?收$/ }).click();
  await expect(dialog.getByTestId('work-order-detail').getByText('已接收')).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
  await expect(dialog.locator('img[alt="photo.png"]')).toBeVisible();
  await dialog.getByRole('button', { name: /^提 ?交$/ }).click();
  const submit = page.getByRole('dialog', { name: '提交' });
  await submit.getByLabel('处理方法').fill('更换冷凝水泵');
  await submit.getByRole('button', { name: /OK|确/ }).click();
  await expect(dialog.getByTestId('work-order-detail').getByText('待审核')).toBeVisible();
  await dialog.getByRole('button', { name: /^通 ?过$/ }).click();
  await page.getByRole('dialog', { name: '通过' }).getByRole('button', { name: /OK|确/ }).click();
  await expect(dialog.getByTestId('work-order-detail').getByText('已通过')).toBeVisible();
  await expect(bell.locator('.ant-badge-count')).toHaveCount(0);
  await page.waitForTimeout(400); // the dialog's opening animation
  await page.screenshot({ path: path.join(shots, 'work-order-detail-zh_cn.png') });

  await page.goto('/workorder_statistics');
  await expect(page.getByTestId('work-order-stats-passed')).toContainText('1');
  await page.screenshot({ path: path.join(shots, 'work-order-statistics-zh_cn.png'), fullPage: true });

  await page.evaluate(() => localStorage.setItem('language', 'en_us'));
  await page.goto('/work_order?index=0');
  await expect(page.getByRole('tab', { name: 'To handle' })).toBeVisible();
  await expect(page.getByText('Passed')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'work-order-list-en_us.png'), fullPage: true });
});
