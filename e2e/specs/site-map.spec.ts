import path from 'node:path';
import { adminHeaders, adminPassword, loginToConsole } from '../fixtures/product.ts';
import { addTemperature, adminApi, createStage, removeStage, type Stage } from '../fixtures/stage.ts';
import { type APIRequestContext, expect, test } from '../fixtures/test.ts';

test.describe.configure({ mode: 'serial' });

const shots = path.resolve(import.meta.dirname, '../screenshots');

/** A small SVG of one colour: the icons and backgrounds these journeys place. */
const svg = (fill: string, w = 88, h = 88) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect width="${w}" height="${h}" fill="${fill}"/></svg>`,
  );

/** Uploads an image to the site-map library (multipart field `image`) and answers its address. */
const upload = async (
  request: APIRequestContext,
  kind: 'image_backgroup' | 'normal_icon',
  name: string,
  data: Buffer,
) => {
  const res = await request.post(`/api/v1/setting/top_view/${kind}`, {
    headers: await adminHeaders(request),
    multipart: { image: { name, mimeType: 'image/svg+xml', buffer: data } },
  });
  const body = await res.json();
  expect(body.code, JSON.stringify(body)).toBe(0);
  return body.data.url as string;
};

let stage: Stage | null = null;
let item = 0;

test.afterEach(async ({ request }) => {
  await removeStage(request, stage);
  stage = null;
});

test('an operator’s /map shows a device turning abnormal without a reload when its item alarms', async ({
  page,
  request,
}) => {
  stage = await createStage(request, '图示机房', 'TH-MAP');
  item = await addTemperature(request, stage, '图示温度', 20, { min: 10, max: 30 });
  const background = await upload(request, 'image_backgroup', 'room.svg', svg('#123456', 1366, 768));
  const normal = await upload(request, 'normal_icon', 'ok.svg', svg('#2e7d32'));
  const abnormal = await upload(request, 'normal_icon', 'bad.svg', svg('#c62828'));
  await adminApi(request, 'put', 'setting/top_view/device', {
    device_group_id: stage.site,
    type: 0,
    parent_id: 0,
    background: { background, extend: { canvasWidth: 1366, canvasHeight: 768, canvasScale: 100 } },
    components: [
      {
        device_id: stage.device,
        link: `/station?deviceId=${stage.device}`,
        normal_img: normal,
        abnormal_img: abnormal,
        width: 88,
        height: 108,
        top: 200,
        left: 300,
        item_ids: [item],
        extend: { component: 'Cdefault', selfId: 'dev1', label: 'TH-MAP', zIndex: 1 },
      },
      {
        width: 160,
        height: 80,
        top: 200,
        left: 420,
        item_ids: [item],
        device_id: stage.device,
        extend: { component: 'Items', selfId: 'items1', zIndex: 2 },
      },
      {
        width: 300,
        height: 4,
        top: 330,
        left: 300,
        extend: { component: 'Line_link', selfId: 'line1', zIndex: 3, style: { borderWidth: 3, color: '#69b1ff' } },
      },
      {
        width: 200,
        height: 40,
        top: 120,
        left: 300,
        extend: { component: 'SiteName', selfId: 'name1', zIndex: 4, style: { fontSize: 24 } },
      },
    ],
  });

  await loginToConsole(page, 'admin', adminPassword);
  await page.goto(`/map?device_group_id=${stage.site}`);
  const device = page.locator('[data-kind="Cdefault"]');
  await expect(device).toHaveAttribute('data-alarm', 'false', { timeout: 10_000 });
  await expect(device.locator('img')).toHaveAttribute('src', normal);
  await expect(page.locator('[data-kind="SiteName"]')).toHaveText('图示机房');
  await expect(page.locator('[data-kind="Items"]')).toContainText('20');
  await page.screenshot({ path: path.join(shots, 'site-map-live-zh_cn.png') });

  // The simulated item leaves its thresholds: the alarm push turns the device abnormal, no reload.
  const polls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('/top_view/device') && r.method() === 'GET') polls.push(r.url());
  });
  await adminApi(request, 'put', 'device_groups/device/item', { item_id: item, value: 40 });
  await expect(device).toHaveAttribute('data-alarm', 'true', { timeout: 5_000 });
  await expect(device.locator('img')).toHaveAttribute('src', abnormal);
  await expect(page.locator('[data-kind="Items"]')).toContainText('40');
  // One read after the alarm push, none by a timer.
  expect(polls.length).toBeLessThanOrEqual(2);
  await page.screenshot({ path: path.join(shots, 'site-map-alarm-zh_cn.png') });

  // The device opens its station page.
  await device.click();
  await page.waitForURL(new RegExp(`/station\\?device_group_id=${stage.site}&device=${stage.device}`));
});
