import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { resetAdminLanguage, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, test } from '../fixtures/test.ts';
import { chooseSite } from '../pages/pickers.ts';
import { Shell } from '../pages/shell.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');
const video = '/bbnvideo/api/v3.4.0';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The tests' camera: GStreamer's RTSP server on loopback (server/test/helpers/rtsp-server.py). */
let camera: ChildProcess | null = null;
let port = 0;

test.beforeAll(async () => {
  port = await freePort();
  const script = path.resolve(import.meta.dirname, '../../server/test/helpers/rtsp-server.py');
  camera = spawn('/usr/bin/python3', [script, String(port), 'viewer', 'Cam-Pass-1'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const child = camera;
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`rtsp-server.py exited ${code}`)));
  });
});

test.afterAll(() => {
  camera?.kill('SIGKILL');
});

test('a camera is added, tested and watched live; it stays near the live edge', async ({ page, request }) => {
  test.setTimeout(150_000);
  const headers = await signInAsAdmin(page, request);
  const post = async (url: string, data: object) => {
    const res = await request.post(url, { headers, data });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data;
  };
  const site = await post('/api/v1/setting/device_groups', { name: '一号机房', weight: 1 });
  const good = await post(`${video}/device`, {
    name: '机房全景',
    brand: 'hikvision',
    type: 2,
    ip_address: '127.0.0.1',
    port,
    user: 'viewer',
    password: 'Cam-Pass-1',
    device_group: site.id,
    channels: [{ channel_no: 1, name: '全景', main_stream: `rtsp://127.0.0.1:${port}/cam1`, sub_stream: '' }],
  });

  // The setup page: a camera added through the dialog (the server's message for a bad address),
  // the connection test tells what the stream carries; the dead one says why.
  await page.goto('/setting_video_mange');
  await page.getByRole('button', { name: /添\s*加/ }).click();
  const dialog = page.getByRole('dialog', { name: '添加视频设备' });
  await dialog.getByLabel('名称', { exact: true }).fill('门口摄像机');
  await chooseSite(page, dialog.getByLabel('站点'), '一号机房');
  await dialog.getByLabel('IP地址', { exact: true }).fill('127.0.0.1');
  await dialog.getByLabel('用户名', { exact: true }).fill('admin');
  await dialog.getByLabel('密码', { exact: true }).fill('x');
  await dialog.getByLabel('通道名称').fill('门口');
  await dialog.getByLabel('主码流地址').fill('http://127.0.0.1:9/cam');
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog.getByText('码流地址格式不正确，须以 rtsp:// 开头！')).toBeVisible();
  await dialog.getByLabel('主码流地址').fill('rtsp://127.0.0.1:9/cam');
  await page.screenshot({ path: path.join(shots, 'video-add-zh_cn.png') });
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /机房全景/ });
  await row.getByRole('button', { name: '测试连接' }).click();
  await expect(page.getByText('连接成功：h264，640×360')).toBeVisible({ timeout: 20_000 });
  await expect(row.getByText('在线')).toBeVisible();
  const dead = page.getByRole('row', { name: /门口摄像机/ });
  await dead.getByRole('button', { name: '测试连接' }).click();
  await expect(dead.getByText('离线')).toBeVisible({ timeout: 20_000 });
  await expectNoRawKeys(page, 'the video devices');
  await page.screenshot({ path: path.join(shots, 'video-setup-zh_cn.png') });

  // The live page: the channel plays, and after 30 s it is still within 1.5 s of what is buffered.
  await page.goto('/video_live');
  await page.getByText('全景', { exact: true }).click();
  const player = page.getByTestId(`live-${good.id}-1`);
  await expect(player).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
  const videoEl = player.locator('video');
  const at = () => videoEl.evaluate((v: HTMLVideoElement) => v.currentTime);
  const t0 = await at();
  await expect.poll(at, { timeout: 10_000 }).toBeGreaterThan(t0 + 1);
  await page.getByText('门口', { exact: true }).click();
  await expect(page.getByText('设备离线状态！')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'video-live-zh_cn.png') });
  await expect.poll(at, { timeout: 45_000, intervals: [1000] }).toBeGreaterThan(t0 + 30);
  const lag = await videoEl.evaluate((v: HTMLVideoElement) => {
    const b = v.buffered;
    return {
      lag: b.end(b.length - 1) - v.currentTime,
      frames: v.getVideoPlaybackQuality().totalVideoFrames,
      t: v.currentTime,
    };
  });
  console.log(`live edge after 30 s: ${JSON.stringify(lag)}`);
  expect(lag.lag).toBeLessThan(1.5);
  expect(lag.frames).toBeGreaterThan(100);

  await new Shell(page).language('English');
  // The page is made again in the new language: the channels are chosen again.
  await page.getByText('全景', { exact: true }).click();
  await page.getByText('门口', { exact: true }).click();
  await expect(page.getByText('Device offline!')).toBeVisible();
  await expect(player).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
  // Frames are shown, not only appended: the picture in the screenshot is the camera's.
  await expect.poll(at, { timeout: 10_000 }).toBeGreaterThan(1);
  await expectNoRawKeys(page, 'the live video (en_us)');
  await page.screenshot({ path: path.join(shots, 'video-live-en_us.png') });
  await page.goto('/setting_video_mange');
  await expect(page.getByRole('row', { name: /机房全景/ }).getByText('Online')).toBeVisible();
  await expectNoRawKeys(page, 'the video devices (en_us)');
  await page.screenshot({ path: path.join(shots, 'video-setup-en_us.png') });
  await resetAdminLanguage(request);
});
