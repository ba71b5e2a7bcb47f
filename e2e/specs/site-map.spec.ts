import path from 'node:path';
import { adminHeaders, adminPassword, createUser, loginToConsole, resetAdminLanguage } from '../fixtures/product.ts';
import { addTemperature, adminApi, createStage, removeStage, type Stage } from '../fixtures/stage.ts';
import { type APIRequestContext, expect, test } from '../fixtures/test.ts';
import { Shell } from '../pages/shell.ts';
import { SiteMapEditor, textColour } from '../pages/site-map.ts';

// Each journey walks a whole path (12–20 s alone); beside Vitest at a load of 10 the first took 60 s
// with its clean-up, so they get twice the default time.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

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

const operatorPassword = 'Map-Op-Second-2';

/**
 * An operator as a site would have one: a role with this site alone and the /map and /station menus
 * with their functions (not the administrator's role), and its user, password changed once.
 */
const createOperator = async (request: APIRequestContext, site: number) => {
  const catalogue = await adminApi(request, 'get', 'setting/menus');
  const menuIds: number[] = [];
  const functionIds: number[] = [];
  type MenuNode = { id: number; url: string; functions: { id: number }[]; children: MenuNode[] };
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (n.url === '/map' || n.url === '/station') {
        menuIds.push(n.id);
        functionIds.push(...n.functions.map((f) => f.id));
      }
      walk(n.children ?? []);
    }
  };
  walk(Array.isArray(catalogue) ? catalogue : (catalogue.list ?? catalogue.data ?? []));
  expect(menuIds).toHaveLength(2);
  const role = await adminApi(request, 'post', 'setting/roles', {
    name: '图示值班员',
    site_ids: [site],
    menu_ids: menuIds,
    function_ids: functionIds,
  });
  const user = await createUser(request, { user_name: 'map-op', role_ids: [role.id] }, operatorPassword);
  return { role: role.id as number, user };
};

let stage: Stage | null = null;
let item = 0;
let operator: { role: number; user: number } | null = null;

test.afterEach(async ({ request }) => {
  await resetAdminLanguage(request);
  if (operator) {
    await adminApi(request, 'delete', `setting/users/${operator.user}`);
    await adminApi(request, 'delete', `setting/roles/${operator.role}`);
    operator = null;
  }
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

  // An operator of this site, not the administrator, watches it.
  operator = await createOperator(request, stage.site);
  await loginToConsole(page, 'map-op', operatorPassword);
  await page.goto(`/map?device_group_id=${stage.site}`);
  const device = page.locator('[data-kind="Cdefault"]');
  await expect(device).toHaveAttribute('data-alarm', 'false', { timeout: 10_000 });
  await expect(device.locator('img')).toHaveAttribute('src', normal);
  await expect(page.locator('[data-kind="SiteName"]')).toHaveText('图示机房');
  // The Items box shows the value with its unit.
  await expect(page.locator('[data-kind="Items"]')).toContainText('20 ℃');
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

  // Heat map: the temperature cloud over the sensor; the standard mode without 温湿度 fades the device.
  await page.getByRole('switch', { name: '热力图' }).click();
  await expect(page.getByTestId('heat-layer')).toHaveAttribute('data-sensors', '1');
  await expect(page.getByTestId('heat-sensor')).toHaveText('40.0°');
  await page.getByRole('button', { name: '功能筛选' }).click();
  await page.getByLabel('标准模式').check();
  await page.getByLabel('温湿度').uncheck();
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
  await expect(page.getByTestId('heat-layer')).toHaveCount(0);
  await expect(device).toHaveClass(/sm-dim/);
  await page.getByRole('switch', { name: '热力图' }).click();
  await expect(device).not.toHaveClass(/sm-dim/);
  await new Shell(page).language('English');
  await expect(page.getByTestId('site-map').getByRole('button', { name: 'Carousel screen' })).toBeVisible();
  await expect(device).toHaveAttribute('data-alarm', 'true');
  await page.screenshot({ path: path.join(shots, 'site-map-alarm-en_us.png') });

  // The device opens its station page.
  await device.click();
  await page.waitForURL(new RegExp(`/station\\?device_group_id=${stage.site}&device=${stage.device}`));
});

test('an administrator draws a site in the editor, undoes and redoes, saves, reloads and finds it identical', async ({
  page,
  request,
}) => {
  stage = await createStage(request, '绘图机房', 'TH-DRAW');
  const other = (await adminApi(request, 'post', 'setting/device_groups', { name: '跳转机房', weight: 2 })).id;
  await loginToConsole(page, 'admin', adminPassword);
  await page.goto(`/map?device_group_id=${stage.site}`);
  await expect(page.getByTestId('site-map-empty')).toBeVisible();
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: '编辑图片' }).click(),
  ]);
  // The ticket is spent and leaves the address; the session token never stood in it.
  await popup.waitForURL((url) => url.pathname === '/groupmap_edit' && !url.searchParams.has('token'));
  await expect(popup.getByTestId('editor-toolbar')).toBeVisible();
  const editor = new SiteMapEditor(popup);
  // It opens fitted: the whole 1366 × 768 canvas lies in the visible area, which lies between the
  // component list and the property panel, not under them.
  await editor.expectFitted();

  // Background through the toolbar's file input; a non-image is refused with 只能插入图片.
  const file = popup.getByTestId('background-file');
  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(popup.getByText('只能插入图片')).toBeVisible();
  await file.setInputFiles({ name: 'room.svg', mimeType: 'image/svg+xml', buffer: svg('#17324d', 1366, 768) });
  await expect(popup.getByText('上传成功！')).toBeVisible();
  await expect(popup.locator('[data-kind="Picture"] img')).toBeVisible();

  // Three devices, each dragged from the centre (where a new one lands) to its place.
  const centre: [number, number] = [683, 384];
  for (const [i, x] of [200, 400, 600].entries()) {
    await editor.add('Cdefault');
    await expect(editor.components('Cdefault')).toHaveCount(i + 1);
    await editor.drag(centre, [x, 150]);
  }
  await editor.add('Line_x');
  await editor.drag(centre, [400, 400]);
  await editor.add('VText');
  await popup.getByLabel('文字', { exact: true }).fill('一号机柜区');
  await popup.getByLabel('名称', { exact: true }).click();
  await editor.drag(centre, [200, 500]);
  await editor.add('SiteButton');
  await popup.getByLabel('跳转站点').click();
  await popup.getByTitle('跳转机房').click();
  const siteButton = editor.components('SiteButton');
  await expect(siteButton).toHaveText('跳转机房');
  await popup.screenshot({ path: path.join(shots, 'site-map-editor-panel-zh_cn.png') });
  await popup.locator('body').click({ position: { x: 5, y: 700 } });
  const drawn = await editor.drawing();
  expect(drawn).toHaveLength(7);
  expect(drawn.join('\n')).toContain('一号机柜区');

  // Undo and redo, by the toolbar and by the keys: the last step (the site button's target) comes and goes.
  await editor.command('undo').click();
  await expect(siteButton).toHaveText('');
  await editor.command('redo').click();
  await expect(siteButton).toHaveText('跳转机房');
  await popup.keyboard.press('Control+z');
  await popup.keyboard.press('Control+z');
  await expect(editor.components()).toHaveCount(6);
  await popup.keyboard.press('Control+y');
  await popup.keyboard.press('Control+y');
  await expect(editor.components()).toHaveCount(7);
  expect(await editor.drawing()).toEqual(drawn);
  await popup.screenshot({ path: path.join(shots, 'site-map-editor-zh_cn.png') });

  await editor.save();
  await popup.reload();
  await expect.poll(() => editor.drawing()).toEqual(drawn);

  // Export as one file with its images, import it into the other site, save: the same drawing there.
  const [download] = await Promise.all([popup.waitForEvent('download'), popup.getByTestId('export-picture').click()]);
  const exported = await download.path();
  await popup.goto(`/groupmap_edit?id=${other}`);
  await expect(popup.getByTestId('editor-toolbar')).toBeVisible();
  await popup.getByTestId('import-picture').setInputFiles(exported);
  await expect(popup.getByText('导入完成，保存后生效')).toBeVisible();
  expect(await editor.drawing()).toEqual(drawn);
  await editor.save();
  await popup.reload();
  await expect.poll(() => editor.drawing()).toEqual(drawn);

  // In English: the three devices selected by area enable align and distribute; Ctrl+wheel zooms the
  // view around the pointer (nothing stored changes) and the reset button puts it back.
  // The page without the shell takes the language this browser keeps (the console's selector writes it).
  await adminApi(request, 'post', 'menus/language', { language: 'en_us' });
  await popup.evaluate(() => localStorage.setItem('language', 'en_us'));
  await popup.reload();
  await expect(editor.command('save')).toHaveText('Save');
  await expect.poll(() => editor.drawing()).toEqual(drawn);
  await editor.drag([120, 80], [700, 230]);
  for (const command of ['alignTop', 'distributeHorizontally', 'group', 'lock'])
    await expect(editor.command(command)).toBeEnabled();
  // Past antd's colour transition, so the picture shows the buttons as they are.
  await expect(editor.command('lock')).toHaveCSS('color', 'rgba(0, 0, 0, 0.88)');
  await popup.screenshot({ path: path.join(shots, 'site-map-editor-en_us.png') });
  const scene = (await popup.getByTestId('site-scene').first().boundingBox())!;
  await popup.mouse.move(scene.x + 400, scene.y + 150);
  await popup.keyboard.down('Control');
  await popup.mouse.wheel(0, -300);
  await popup.keyboard.up('Control');
  await expect(popup.getByTestId('editor-zoom')).not.toHaveText('100%');
  expect(await editor.drawing()).toEqual(drawn);
  await popup.getByRole('button', { name: 'Actual size (100%)' }).click();
  await expect(popup.getByTestId('editor-zoom')).toHaveText('100%');
  // At 100 % the canvas runs on under the panel's edge (clipped); Fit brings all of it back.
  expect((await editor.boxes()).scene.width).toBeCloseTo(1366, 0);
  await popup.getByRole('button', { name: 'Fit', exact: true }).click();
  await editor.expectFitted();
  expect(await editor.drawing()).toEqual(drawn);
  await resetAdminLanguage(request);
  await popup.evaluate(() => localStorage.setItem('language', 'zh_cn'));

  // The live view shows the same picture.
  await page.reload();
  await expect(page.locator('[data-kind="VText"]')).toHaveText('一号机柜区');
  await expect(page.locator('[data-kind="Cdefault"]')).toHaveCount(3);
  for (const site of [stage.site, other]) await adminApi(request, 'delete', `setting/top_view/device/${site}`);
  await adminApi(request, 'delete', `setting/device_groups/${other}`);
});

test('the full screen cycles the rotation’s two sites at its interval, the heat map draws over the temperature sensors, and a new work order is told by a dialog', async ({
  page,
  request,
}) => {
  let order: { id: number } | undefined;
  stage = await createStage(request, '轮播一号', 'TH-ROT1');
  item = await addTemperature(request, stage, '温度', 22, { min: -100, max: 100 });
  const second = await createStage(request, '轮播二号', 'TH-ROT2');
  const background = await upload(request, 'image_backgroup', 'room.svg', svg('#10263d', 1366, 768));
  const device = (site: number, deviceId: number, itemIds: number[], left: number, top: number) => ({
    device_id: deviceId,
    link: `/station?deviceId=${deviceId}`,
    width: 88,
    height: 108,
    top,
    left,
    item_ids: itemIds,
    extend: { component: 'Cdefault', selfId: `d${site}-${left}`, zIndex: 1 },
  });
  const picture = (site: number, components: object[]) =>
    adminApi(request, 'put', 'setting/top_view/device', {
      device_group_id: site,
      background: { background, extend: { canvasWidth: 1366, canvasHeight: 768, canvasScale: 100 } },
      components,
    });
  await picture(stage.site, [device(stage.site, stage.device, [item], 300, 300)]);
  await picture(second.site, [device(second.site, second.device, [], 600, 300)]);
  await adminApi(request, 'put', 'setting/top_view/vertical_view_polling_set', {
    enable: true,
    interval: 10,
    device_group_ids: [stage.site, second.site],
  });

  try {
    // The page's clock goes on as usual; the journey runs it through the rotation's interval at once.
    await page.clock.install();
    await loginToConsole(page, 'admin', adminPassword);
    await page.goto('/fullScreen');
    const title = page.getByTestId('full-screen-site');
    await expect(title).toHaveText('轮播一号');
    await expect(page.getByTestId('rotation-position')).toHaveText('1 / 2');
    // The interval is 10 s: not much sooner (7.5 s later, allowing for the time since the first
    // site showed), not much later.
    await page.clock.runFor(7_500);
    await expect(title).toHaveText('轮播一号');
    await page.clock.runFor(5_000);
    await expect(title).toHaveText('轮播二号');
    await page.screenshot({ path: path.join(shots, 'site-map-rotation-zh_cn.png') });

    // /fullScreen5 draws the heat map: the sensor of the first site, with its value and the legend.
    await page.goto(`/fullScreen5`);
    await expect(title).toHaveText('轮播一号');
    const layer = page.getByTestId('heat-layer');
    await expect(layer).toHaveAttribute('data-sensors', '1');
    await expect(page.getByTestId('heat-sensor')).toHaveText('22.0°', { timeout: 10_000 });
    // The canvas holds colour where the sensor stands (its centre, 344 × 354).
    const pixel = await layer
      .locator('canvas')
      .evaluate((c: HTMLCanvasElement) => [...c.getContext('2d')!.getImageData(344, 354, 1, 1).data]);
    expect(pixel[3]).toBeGreaterThan(100);
    await page.screenshot({ path: path.join(shots, 'site-map-heat-zh_cn.png') });

    // A full screen has no bell: a new work order for this user is told by a dialog (001 §2), at
    // once by push, and the wall display stays where it is.
    order = await adminApi(request, 'post', 'work_order', {
      description: '大屏工单提醒',
      priority: 2,
      handler_id: 1,
      reviewer_id: 1,
      deadline_hours: 8,
    });
    const alert = page.getByRole('dialog').filter({ hasText: '新工单' });
    await expect(alert).toContainText('条工单待接收', { timeout: 10_000 });
    await page.screenshot({ path: path.join(shots, 'site-map-work-order-alert-zh_cn.png') });
    await alert.getByRole('button', { name: /取\s*消/ }).click();
    await expect(alert).toBeHidden();
    await expect(page).toHaveURL(/\/fullScreen5/);
  } finally {
    if (order) await adminApi(request, 'delete', `work_order/${order.id}`);
    await adminApi(request, 'put', 'setting/top_view/vertical_view_polling_set', { enable: false, interval: 10 });
    for (const site of [stage.site, second.site]) await adminApi(request, 'delete', `setting/top_view/device/${site}`);
    await removeStage(request, second);
  }
});

test('labels read on a light floor plan in the editor and on /map, the heat map names its sensors, and the wall display’s empty state reads on its navy', async ({
  page,
  request,
}) => {
  stage = await createStage(request, '浅色机房', 'TH-LIGHT');
  item = await addTemperature(request, stage, '温度', 23);
  const empty = (await adminApi(request, 'post', 'setting/device_groups', { name: '空白机房', weight: 2 })).id;
  const background = await upload(request, 'image_backgroup', 'light.svg', svg('#f4f4ef', 1366, 768));
  await adminApi(request, 'put', 'setting/top_view/device', {
    device_group_id: stage.site,
    background: { background, extend: { canvasWidth: 1366, canvasHeight: 768, canvasScale: 100 } },
    components: [
      {
        device_id: stage.device,
        width: 88,
        height: 108,
        top: 300,
        left: 300,
        item_ids: [item],
        extend: { component: 'Cdefault', selfId: 'dev1', zIndex: 1 },
      },
      {
        width: 220,
        height: 40,
        top: 120,
        left: 300,
        extend: { component: 'SiteName', selfId: 'name1', zIndex: 2, style: { fontSize: 24 } },
      },
      {
        width: 200,
        height: 30,
        top: 500,
        left: 300,
        extend: { component: 'VText', selfId: 'text1', zIndex: 3, propValue: '一号机柜区' },
      },
      {
        width: 200,
        height: 30,
        top: 500,
        left: 700,
        extend: { component: 'VText', selfId: 'text2', zIndex: 4, propValue: '自定颜色', style: { color: '#c41d7f' } },
      },
    ],
  });
  const dark = 'rgb(29, 37, 51)';
  try {
    await loginToConsole(page, 'admin', adminPassword);
    await page.goto(`/map?device_group_id=${stage.site}`);
    // The plan is light: the labels' default is dark (was white, unreadable); a colour set stays.
    await expect(page.getByTestId('site-scene')).toHaveAttribute('data-tone', 'dark');
    await expect(page.locator('[data-kind="SiteName"]')).toHaveText('浅色机房');
    await expect(page.locator('[data-kind="SiteName"]')).toHaveCSS('color', dark);
    await expect(page.locator('[data-kind="VText"]').first()).toHaveCSS('color', dark);
    await expect(page.locator('[data-kind="Cdefault"] .sm-label')).toHaveCSS('color', dark);
    await expect(page.locator('[data-kind="VText"]').last()).toHaveCSS('color', 'rgb(196, 29, 127)');
    // The heat map says which sensors it drew: the room temperature of TH-LIGHT.
    await page.getByRole('switch', { name: '热力图' }).click();
    await expect(page.getByTestId('heat-legend-sensor')).toHaveText(/^TH-LIGHT · 温度\s*23\.0°$/, { timeout: 10_000 });
    await page.screenshot({ path: path.join(shots, 'site-map-light-zh_cn.png') });
    await new Shell(page).language('English');
    // The page is drawn anew in the new language, the heat map off.
    await page.getByRole('switch', { name: 'Heat map' }).click();
    await expect(page.getByTestId('heat-legend-sensors')).toContainText('Sensors used');
    await page.screenshot({ path: path.join(shots, 'site-map-light-en_us.png') });
    await resetAdminLanguage(request);

    // The editor opens fitted on the same plan, its labels dark too.
    await page.evaluate(() => localStorage.setItem('language', 'zh_cn'));
    await page.goto(`/groupmap_edit?id=${stage.site}`);
    const editor = new SiteMapEditor(page);
    await expect(editor.components('SiteName')).toHaveText('浅色机房');
    await editor.expectFitted();
    await expect(page.getByTestId('site-scene').first()).toHaveAttribute('data-tone', 'dark');
    await expect(editor.components('VText').first()).toHaveCSS('color', dark);
    await page.screenshot({ path: path.join(shots, 'site-map-editor-fit-zh_cn.png') });
    await page.evaluate(() => localStorage.setItem('language', 'en_us'));
    await page.reload();
    await expect(editor.command('save')).toHaveText('Save');
    await editor.expectFitted();
    await page.screenshot({ path: path.join(shots, 'site-map-editor-fit-en_us.png') });

    // A wall display of a site with no picture: its empty state is light on the navy, whatever the theme.
    await page.evaluate(() => localStorage.setItem('language', 'zh_cn'));
    await page.goto(`/fullScreen?device_group_id=${empty}`);
    const note = page.getByTestId('site-map-empty').getByText('该站点尚未绘制图片');
    await expect(note).toBeVisible();
    const [r, g, b, a] = await textColour(note);
    expect(Math.min(r, g, b)).toBeGreaterThan(200);
    expect(a).toBeGreaterThanOrEqual(0.6);
    await page.screenshot({ path: path.join(shots, 'site-map-wall-empty-zh_cn.png') });
    await page.evaluate(() => localStorage.setItem('language', 'en_us'));
    await page.reload();
    await expect(page.getByTestId('site-map-empty')).toBeVisible();
    await page.screenshot({ path: path.join(shots, 'site-map-wall-empty-en_us.png') });
  } finally {
    await page.evaluate(() => localStorage.setItem('language', 'zh_cn')).catch(() => undefined);
    await adminApi(request, 'delete', `setting/top_view/device/${stage.site}`);
    await adminApi(request, 'delete', `setting/device_groups/${empty}`);
  }
});
