import path from 'node:path';
import { adminHeaders, adminPassword, encrypt, loginToConsole, resetAdminLanguage } from '../fixtures/product.ts';
import { addTemperature, adminApi, createStage, removeStage, type Stage } from '../fixtures/stage.ts';
import { type APIRequestContext, expect, type Page, test } from '../fixtures/test.ts';

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

/** An administrator's GET (adminApi makes the changes). */
const adminGet = async (request: APIRequestContext, url: string) => {
  const body = await (await request.get(`/api/v1/${url}`, { headers: await adminHeaders(request) })).json();
  expect(body.code, `get ${url}: ${JSON.stringify(body)}`).toBe(0);
  return body.data;
};

const operatorPassword = 'Map-Op-Second-2';

/**
 * An operator as a site would have one: a role with this site alone and the /map and /station menus
 * with their functions (not the administrator's role), and its user, password changed once.
 */
const createOperator = async (request: APIRequestContext, site: number) => {
  const catalogue = await adminGet(request, 'setting/menus');
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
  const { public_key } = await adminGet(request, 'pub/login/params');
  const user = await adminApi(request, 'post', 'setting/users', {
    user_name: 'map-op',
    password: encrypt(public_key, 'Map-Op-First-1'),
    role_ids: [role.id],
    user_group_ids: [1],
  });
  const changed = await request.put('/api/v1/user/password_without_login', {
    data: {
      user_name: 'map-op',
      old_password: encrypt(public_key, 'Map-Op-First-1'),
      new_password: encrypt(public_key, operatorPassword),
    },
  });
  expect((await changed.json()).code).toBe(0);
  return { role: role.id as number, user: user.id as number };
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
  await page.getByLabel('语言').click();
  await page.getByTitle('English').click();
  await expect(page.getByTestId('site-map').getByRole('button', { name: 'Carousel screen' })).toBeVisible();
  await expect(device).toHaveAttribute('data-alarm', 'true');
  await page.screenshot({ path: path.join(shots, 'site-map-alarm-en_us.png') });

  // The device opens its station page.
  await device.click();
  await page.waitForURL(new RegExp(`/station\\?device_group_id=${stage.site}&device=${stage.device}`));
});

/** What the canvas shows, component by component: kind, box and text (ids and order aside). */
const drawing = (page: Page) =>
  page.locator('[data-testid="editor-canvas"] [data-id]').evaluateAll((els) =>
    els
      .map((el) => {
        const e = el as HTMLElement;
        return [e.dataset.kind, e.style.left, e.style.top, e.style.width, e.style.height, e.textContent].join(' ');
      })
      .sort(),
  );

/** Drags on the canvas from one point to another, in canvas pixels. */
const dragOnCanvas = async (page: Page, from: [number, number], to: [number, number]) => {
  const box = (await page.getByTestId('site-scene').first().boundingBox())!;
  await page.mouse.move(box.x + from[0], box.y + from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + (from[0] + to[0]) / 2, box.y + (from[1] + to[1]) / 2, { steps: 4 });
  await page.mouse.move(box.x + to[0], box.y + to[1], { steps: 4 });
  await page.mouse.up();
};

test('an administrator draws a site in the editor, undoes and redoes, saves, reloads and finds it identical', async ({
  page,
  request,
}) => {
  stage = await createStage(request, '绘图机房', 'TH-DRAW');
  const other = (await adminApi(request, 'post', 'setting/device_groups', { name: '跳转机房', weight: 2 })).id;
  await loginToConsole(page, 'admin', adminPassword);
  await page.goto(`/map?device_group_id=${stage.site}`);
  await expect(page.getByTestId('site-map-empty')).toBeVisible();
  const [editor] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: '编辑图片' }).click(),
  ]);
  // The ticket is spent and leaves the address; the session token never stood in it.
  await editor.waitForURL((url) => url.pathname === '/groupmap_edit' && !url.searchParams.has('token'));
  await expect(editor.getByTestId('editor-toolbar')).toBeVisible();

  // Background through the toolbar's file input; a non-image is refused with 只能插入图片.
  const file = editor.getByTestId('background-file');
  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(editor.getByText('只能插入图片')).toBeVisible();
  await file.setInputFiles({ name: 'room.svg', mimeType: 'image/svg+xml', buffer: svg('#17324d', 1366, 768) });
  await expect(editor.getByText('上传成功！')).toBeVisible();
  await expect(editor.locator('[data-kind="Picture"] img')).toBeVisible();

  // Three devices, each dragged from the centre (where a new one lands) to its place.
  const list = editor.getByTestId('component-list');
  for (const [i, x] of [200, 400, 600].entries()) {
    await list.locator('[data-add="Cdefault"]').click();
    await expect(editor.locator('[data-testid="editor-canvas"] [data-kind="Cdefault"]')).toHaveCount(i + 1);
    await dragOnCanvas(editor, [683, 384], [x, 150]);
  }
  await list.locator('[data-add="Line_x"]').click();
  await dragOnCanvas(editor, [683, 384], [400, 400]);
  await list.locator('[data-add="VText"]').click();
  await editor.getByLabel('文字', { exact: true }).fill('一号机柜区');
  await editor.getByLabel('名称', { exact: true }).click();
  await dragOnCanvas(editor, [683, 384], [200, 500]);
  await list.locator('[data-add="SiteButton"]').click();
  await editor.getByLabel('跳转站点').click();
  await editor.getByTitle('跳转机房').click();
  await expect(editor.locator('[data-testid="editor-canvas"] [data-kind="SiteButton"]')).toHaveText('跳转机房');
  await editor.screenshot({ path: path.join(shots, 'site-map-editor-panel-zh_cn.png') });
  await editor.locator('body').click({ position: { x: 5, y: 700 } });
  const drawn = await drawing(editor);
  expect(drawn).toHaveLength(7);
  expect(drawn.join('\n')).toContain('一号机柜区');

  // Undo and redo, by the toolbar and by the keys: the last step (the site button's target) comes and goes.
  const count = () => editor.locator('[data-testid="editor-canvas"] [data-kind]').count();
  await editor.locator('[data-command="undo"]').click();
  await expect(editor.locator('[data-testid="editor-canvas"] [data-kind="SiteButton"]')).toHaveText('');
  await editor.locator('[data-command="redo"]').click();
  await expect(editor.locator('[data-testid="editor-canvas"] [data-kind="SiteButton"]')).toHaveText('跳转机房');
  await editor.keyboard.press('Control+z');
  await editor.keyboard.press('Control+z');
  await expect.poll(count).toBe(6);
  await editor.keyboard.press('Control+y');
  await editor.keyboard.press('Control+y');
  await expect.poll(count).toBe(7);
  expect(await drawing(editor)).toEqual(drawn);
  await editor.screenshot({ path: path.join(shots, 'site-map-editor-zh_cn.png') });

  await editor.locator('[data-command="save"]').click();
  await expect(editor.getByText('保存成功！')).toBeVisible();
  await editor.reload();
  await expect.poll(() => drawing(editor)).toEqual(drawn);

  // Export as one file with its images, import it into the other site, save: the same drawing there.
  const [download] = await Promise.all([editor.waitForEvent('download'), editor.getByTestId('export-picture').click()]);
  const exported = await download.path();
  await editor.goto(`/groupmap_edit?id=${other}`);
  await expect(editor.getByTestId('editor-toolbar')).toBeVisible();
  await editor.getByTestId('import-picture').setInputFiles(exported);
  await expect(editor.getByText('导入完成，保存后生效')).toBeVisible();
  expect(await drawing(editor)).toEqual(drawn);
  await editor.locator('[data-command="save"]').click();
  await expect(editor.getByText('保存成功！')).toBeVisible();
  await editor.reload();
  await expect.poll(() => drawing(editor)).toEqual(drawn);

  // In English: the three devices selected by area enable align and distribute; Ctrl+wheel zooms the
  // view around the pointer (nothing stored changes) and the reset button puts it back.
  // The page without the shell takes the language this browser keeps (the console's selector writes it).
  await adminApi(request, 'post', 'menus/language', { language: 'en_us' });
  await editor.evaluate(() => localStorage.setItem('language', 'en_us'));
  await editor.reload();
  await expect(editor.locator('[data-command="save"]')).toHaveText('Save');
  await expect.poll(() => drawing(editor)).toEqual(drawn);
  await dragOnCanvas(editor, [120, 80], [700, 230]);
  await expect(editor.locator('[data-command="alignTop"]')).toBeEnabled();
  await expect(editor.locator('[data-command="distributeHorizontally"]')).toBeEnabled();
  await expect(editor.locator('[data-command="group"]')).toBeEnabled();
  await expect(editor.locator('[data-command="lock"]')).toBeEnabled();
  // Past antd's colour transition, so the picture shows the buttons as they are.
  await expect(editor.locator('[data-command="lock"]')).toHaveCSS('color', 'rgba(0, 0, 0, 0.88)');
  await editor.screenshot({ path: path.join(shots, 'site-map-editor-en_us.png') });
  const scene = (await editor.getByTestId('site-scene').first().boundingBox())!;
  await editor.mouse.move(scene.x + 400, scene.y + 150);
  await editor.keyboard.down('Control');
  await editor.mouse.wheel(0, -300);
  await editor.keyboard.up('Control');
  await expect(editor.getByTestId('editor-zoom')).not.toHaveText('100%');
  expect(await drawing(editor)).toEqual(drawn);
  await editor.getByRole('button', { name: 'Reset zoom and pan' }).click();
  await expect(editor.getByTestId('editor-zoom')).toHaveText('100%');
  await resetAdminLanguage(request);
  await editor.evaluate(() => localStorage.setItem('language', 'zh_cn'));

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
    await loginToConsole(page, 'admin', adminPassword);
    await page.goto('/fullScreen');
    const title = page.getByTestId('full-screen-site');
    await expect(title).toHaveText('轮播一号');
    await expect(page.getByTestId('rotation-position')).toHaveText('1 / 2');
    const shown = Date.now();
    await expect(title).toHaveText('轮播二号', { timeout: 15_000 });
    // The interval is 10 s: not much sooner, not much later.
    expect(Date.now() - shown).toBeGreaterThan(8_000);
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
