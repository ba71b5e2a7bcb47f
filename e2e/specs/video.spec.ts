import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createUser, resetAdminLanguage, signInAsAdmin, signInWithToken, tokenOf } from '../fixtures/product.ts';
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

test('the role form grants one channel: its user sees that camera, a user without a video grant sees none', async ({
  page,
  freshPage,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await signInAsAdmin(page, request);
  const post = async (url: string, data: object) => {
    const res = await request.post(url, { headers, data });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data;
  };
  const site = await post('/api/v1/setting/device_groups', { name: '二号机房', weight: 1 });
  const camera = (name: string, channel: string) => ({
    name,
    brand: 'hikvision',
    type: 2,
    ip_address: '127.0.0.1',
    port: 9,
    user: 'viewer',
    password: 'Cam-Pass-1',
    device_group: site.id,
    channels: [{ channel_no: 1, name: channel, main_stream: 'rtsp://127.0.0.1:9/cam', sub_stream: '' }],
  });
  await post(`${video}/device`, camera('走廊摄像机', '走廊画面'));
  await post(`${video}/device`, camera('仓库摄像机', '仓库画面'));

  // The role form: the site, the video pages, and one channel of the two (grouped by site and device).
  await page.goto('/authority_groups');
  await page.getByRole('button', { name: /添\s*加/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('权限组名称').fill('只看走廊');
  const node = (testId: string, name: RegExp) =>
    dialog
      .getByTestId(testId)
      .locator('.ant-tree-treenode')
      .filter({ hasText: name })
      .first()
      .locator('.ant-tree-checkbox');
  await node('site-grants', /^二号机房$/).click();
  await node('menu-grants', /^视频监控$/).click();
  const channels = dialog.getByTestId('video-grants');
  await expect(channels.getByText('仓库摄像机')).toBeVisible();
  await node('video-grants', /^走廊画面$/).click();
  await expectNoRawKeys(page, 'the role form with video grants');
  await page.screenshot({ path: path.join(shots, 'video-grants-role-zh_cn.png') });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByRole('cell', { name: '只看走廊' })).toBeVisible();

  // The same pages and site without a channel, through the API.
  const roles = (await (await request.get('/api/v1/setting/roles', { headers })).json()).data;
  const granted = roles.data.find((r: { name: string }) => r.name === '只看走廊');
  const detail = (await (await request.get(`/api/v1/setting/roles/${granted.id}`, { headers })).json()).data;
  expect(detail.video_ids).toHaveLength(1);
  const blind = await post('/api/v1/setting/roles', {
    name: '无视频授权',
    site_ids: [site.id],
    menu_ids: detail.menu_ids,
    function_ids: detail.function_ids,
    video_ids: [],
  });
  const userWith = async (name: string, roleId: number) => {
    await createUser(request, { user_name: name, role_ids: [roleId] }, 'Video-Grant-Pass-1');
    const other = await freshPage();
    await other.setViewportSize({ width: 1366, height: 768 });
    await signInWithToken(other, await tokenOf(request, name, 'Video-Grant-Pass-1'));
    await other.goto('/video_live');
    return other;
  };

  const viewer = await userWith('cam-viewer', granted.id);
  await expect(viewer.getByText('走廊画面', { exact: true })).toBeVisible();
  await expect(viewer.getByText('走廊摄像机')).toBeVisible();
  await expect(viewer.getByText('仓库摄像机')).toHaveCount(0);
  await expect(viewer.getByText('仓库画面')).toHaveCount(0);
  await viewer.screenshot({ path: path.join(shots, 'video-grants-live-zh_cn.png') });

  const nobody = await userWith('cam-blind', blind.id);
  await expect(nobody.getByText('暂无视频设备')).toBeVisible();
  await expect(nobody.getByText('走廊画面')).toHaveCount(0);
  await expect(nobody.getByText('仓库画面')).toHaveCount(0);
  await nobody.screenshot({ path: path.join(shots, 'video-grants-none-zh_cn.png') });
  await new Shell(nobody).language('English');
  await expect(nobody.getByText('No video devices')).toBeVisible();
  await expectNoRawKeys(nobody, 'no video grant (en_us)');
  await nobody.screenshot({ path: path.join(shots, 'video-grants-none-en_us.png') });

  await new Shell(viewer).language('English');
  await expect(viewer.getByText('走廊画面', { exact: true })).toBeVisible();
  await expect(viewer.getByText('仓库画面')).toHaveCount(0);
  await viewer.screenshot({ path: path.join(shots, 'video-grants-live-en_us.png') });

  // The role form in English, the saved channel checked.
  await new Shell(page).language('English');
  await page
    .getByRole('row', { name: /只看走廊/ })
    .getByRole('button', { name: /edit/i })
    .click();
  const grantsEn = page.getByRole('dialog').getByTestId('video-grants');
  await grantsEn.scrollIntoViewIfNeeded();
  await expect(page.getByRole('dialog').getByText('Video channel grants')).toBeVisible();
  await expect(grantsEn.locator('.ant-tree-treenode-checkbox-checked').filter({ hasText: /^走廊画面$/ })).toHaveCount(
    1,
  );
  await expectNoRawKeys(page, 'the role form (en_us)');
  await page.screenshot({ path: path.join(shots, 'video-grants-role-en_us.png') });
  await resetAdminLanguage(request);
});
