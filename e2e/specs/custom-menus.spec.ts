import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createUser, resetAdminLanguage, signInAsAdmin, signInWithToken, tokenOf } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { adminApi, createSite } from '../fixtures/stage.ts';
import { expect, type Page, test } from '../fixtures/test.ts';
import { Shell } from '../pages/shell.ts';

/**
 * Custom menus (issue 31 item 4; docs/custom-menus.md): the administrator adds a main-frame entry
 * and a new-tab entry on /setting_menu, both pointing at pages this journey serves on loopback; the
 * first opens in the console's sandboxed frame, the second in a new tab; a user whose role holds
 * the entry opens it, one whose role lacks it gets the no-permission page.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');

let server: Server;
let base = '';
test.beforeAll(async () => {
  server = createServer((req, res) => {
    const title = req.url?.startsWith('/portal') ? 'Vendor portal on loopback' : 'Asset ledger on loopback';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>${title}</title><h1>${title}</h1><p>served by the journey</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
test.afterEach(async ({ request }) => resetAdminLanguage(request));

/** Fills the entry dialog of /setting_menu and saves it. */
const addEntry = async (page: Page, entry: { name: string; url: string; newTab?: boolean; weight: number }) => {
  await page.getByRole('button', { name: '添加菜单' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('名称').fill(entry.name);
  await dialog.getByLabel('链接地址').fill(entry.url);
  if (entry.newTab) await dialog.getByText('新标签页').click();
  await dialog.getByLabel('排序').fill(String(entry.weight));
  await dialog.getByRole('button', { name: /^(确\s*定|OK)$/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('cell', { name: entry.name, exact: true })).toBeVisible();
};

test('an administrator adds a main-frame and a new-tab entry; a role without the entry cannot open it', async ({
  page,
  context,
  request,
  freshPage,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/setting_menu');
  await expect(page.getByText('菜单管理').first()).toBeVisible();
  // A bad address is refused beside its field, in the spec's language.
  await page.getByRole('button', { name: '添加菜单' }).click();
  await page.getByRole('dialog').getByLabel('链接地址').fill('javascript:alert(1)');
  await expect(page.getByText('链接地址只能是http或https地址，或以/static/开头的路径')).toBeVisible();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^(取\s*消|Cancel)$/ })
    .click();

  const ledger = `${base}/ledger.html`;
  await addEntry(page, { name: '资产台账', url: ledger, weight: 950 });
  await addEntry(page, { name: '供应商门户', url: `${base}/portal.html`, newTab: true, weight: 940 });
  await expectNoRawKeys(page, '/setting_menu (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'custom-menus-setting-zh_cn.png') });

  // /config_menu: the custom entries the administrator holds, each with its way of opening.
  await page.getByRole('button', { name: '自定义菜单' }).click();
  await expect(page).toHaveURL(/\/config_menu/);
  await expect(page.locator('.ant-list').getByText('资产台账')).toBeVisible();
  await expect(page.locator('.ant-list').getByText('供应商门户')).toBeVisible();
  await expectNoRawKeys(page, '/config_menu (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'custom-menus-config-zh_cn.png') });

  // The main-frame entry: /external_link with the address, in a sandboxed frame.
  const shell = new Shell(page);
  await shell.open('资产台账');
  await expect(page).toHaveURL(/\/external_link\?pathUrl=/);
  const frame = page.getByTestId('external-frame');
  await expect(frame).toHaveAttribute('sandbox', /allow-scripts/);
  await expect(frame).not.toHaveAttribute('sandbox', /allow-top-navigation/);
  await expect(page.frameLocator('[data-testid=external-frame]').getByRole('heading')).toHaveText(
    'Asset ledger on loopback',
  );
  await expect(page.locator('.ant-tabs-tab-active')).toContainText('资产台账');
  await page.screenshot({ path: path.join(shots, 'custom-menus-frame-zh_cn.png') });

  // The new-tab entry: a new tab at the address itself.
  const opened = context.waitForEvent('page');
  await shell.open('供应商门户');
  const tab = await opened;
  await tab.waitForLoadState();
  expect(tab.url()).toBe(`${base}/portal.html`);
  await expect(tab.getByRole('heading')).toHaveText('Vendor portal on loopback');
  await tab.close();

  await shell.language('English');
  await page.goto('/setting_menu');
  await expect(page.getByText('Menu settings').first()).toBeVisible();
  await expect(page.getByText('New tab').first()).toBeVisible();
  await expectNoRawKeys(page, '/setting_menu (en_us)');
  await page.screenshot({ path: path.join(shots, 'custom-menus-setting-en_us.png') });

  // Two roles of one site: one holds the ledger entry, one only the user log.
  const entries = (await adminApi(request, 'get', 'setting/menus/entries')).list as { id: number; name: string }[];
  const entryId = entries.find((e) => e.name === '资产台账')!.id;
  const functions = (await adminApi(request, 'get', 'setting/func')).list as { id: number; menu_id: number }[];
  const logView = functions.filter((f) => f.menu_id === 301).map((f) => f.id);
  const site = await createSite(request, '菜单机房');
  const role = async (name: string, menuIds: number[]) =>
    (
      await adminApi(request, 'post', 'setting/roles', {
        name,
        site_ids: [site],
        menu_ids: [300, 301, ...menuIds],
        function_ids: logView,
      })
    ).id as number;
  const readers = await role('台账读者', [entryId]);
  const others = await role('其他人', []);
  await createUser(request, { user_name: 'ledger-reader', role_ids: [readers] }, 'Ledger-Reader-Second-2');
  await createUser(request, { user_name: 'ledger-other', role_ids: [others] }, 'Ledger-Other-Second-2');

  const reader = await freshPage();
  await signInWithToken(reader, await tokenOf(request, 'ledger-reader', 'Ledger-Reader-Second-2'));
  await reader.goto('/system_log_user');
  await new Shell(reader).open('资产台账');
  await expect(reader.frameLocator('[data-testid=external-frame]').getByRole('heading')).toHaveText(
    'Asset ledger on loopback',
  );

  const other = await freshPage();
  await signInWithToken(other, await tokenOf(request, 'ledger-other', 'Ledger-Other-Second-2'));
  await other.goto('/system_log_user');
  await expect(other.getByRole('menuitem', { name: '资产台账' })).toHaveCount(0);
  await other.goto(`/external_link?pathUrl=${encodeURIComponent(ledger)}`);
  await expect(other.locator('.ant-result-403')).toContainText('当前用户无权限访问此页面！');
  await expect(other.getByTestId('external-frame')).toHaveCount(0);
  await other.screenshot({ path: path.join(shots, 'custom-menus-denied-zh_cn.png') });
});

test('the asset-management entry says where to set its address until the administrator sets it', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/asset_management');
  await expect(page.locator('.ant-result-warning')).toContainText('跳转IP地址未设置，请在自定义菜单中设置');
  await page.screenshot({ path: path.join(shots, 'custom-menus-asset-unset-zh_cn.png') });
  await page.getByRole('button', { name: '前往菜单管理' }).click();
  await expect(page).toHaveURL(/\/setting_menu/);
  const row = page.getByRole('row').filter({ hasText: '资产管理' });
  await row.getByRole('button', { name: /编\s*辑/ }).click();
  await page.getByRole('dialog').getByLabel('资产系统地址').fill(`${base}/assets`);
  await page.screenshot({ path: path.join(shots, 'custom-menus-asset-dialog-zh_cn.png') });
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^(确\s*定|OK)$/ })
    .click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await new Shell(page).open('资产管理');
  await expect(page.frameLocator('[data-testid=external-frame]').getByRole('heading')).toHaveText(
    'Asset ledger on loopback',
  );
});
