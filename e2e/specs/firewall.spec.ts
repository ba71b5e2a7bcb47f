import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminPassword, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, type Page, test } from '../fixtures/test.ts';
import { Shell } from '../pages/shell.ts';

/**
 * The firewall page against the real helper (server/dist/firewall-helper.js) running real nftables
 * in a network namespace of the journey's own, so the machine's own firewall is never touched; the
 * namespace has listeners on 22 and 80 for the listening-ports list. Without root or namespaces the
 * journey is skipped saying why.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');
const root = path.resolve(import.meta.dirname, '../..');
const ns = `swfwe${process.pid % 100_000}`;
const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-e2e-fw-'));
const socketPath = path.join(dir, 'helper.sock');
// The product (started after this file loads) reads the helper's socket from its environment.
test.use({ productEnv: { SITEWATCH_FIREWALL_SOCKET: socketPath } });

const missing = (() => {
  if (process.getuid?.() !== 0) return 'not root';
  try {
    execFileSync('sh', ['-c', 'command -v ip && command -v nft && unshare -n true'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'ip, nft or unshare -n is missing here';
  }
})();

let helper: ChildProcess | null = null;
let listeners: ChildProcess | null = null;

const startInNs = (args: string[], word: string) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn('ip', ['netns', 'exec', ns, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const seen = (d: Buffer) => {
      out += d.toString();
      if (out.includes(word)) resolve(child);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });

test.beforeAll(async () => {
  test.skip(missing !== null, `firewall journey skipped: ${missing}`);
  execFileSync('ip', ['netns', 'add', ns]);
  execFileSync('ip', ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up']);
  const listen = `const net=require('node:net');let n=0;for(const p of [22,80])net.createServer(s=>{s.on('error',()=>{});s.end()}).listen(p,()=>{if(++n===2)console.log('ready')})`;
  listeners = await startInNs([process.execPath, '-e', listen], 'ready');
  helper = await startInNs([process.execPath, 'server/dist/firewall-helper.js', '--socket', socketPath], 'listening');
});

test.afterAll(() => {
  helper?.kill('SIGKILL');
  listeners?.kill('SIGKILL');
  if (!missing) execFileSync('ip', ['netns', 'del', ns]);
  rmSync(dir, { recursive: true, force: true });
});

/** The password step every change ends with. */
const applyWithPassword = async (page: Page, ok: RegExp) => {
  const dialog = page.getByRole('dialog').filter({ has: page.getByPlaceholder(/验证密码|Verification password/) });
  await dialog.getByPlaceholder(/验证密码|Verification password/).fill(adminPassword);
  await dialog.getByRole('button', { name: ok }).click();
  await expect(dialog).toBeHidden();
};

test('an administrator turns the firewall on, adds rules with the 80/22 and lock-out confirmations, and sees the read-only state', async ({
  page,
  request,
  baseURL,
}) => {
  await signInAsAdmin(page, request);
  const consolePort = new URL(baseURL!).port;
  await page.goto('/firewall');
  const rules = page.locator('.ant-card').filter({ hasText: '防火墙规则' });
  await expect(rules).toContainText('已关闭');
  const ports = page.locator('.ant-card').filter({ hasText: '主机上正在监听的端口' });
  await expect(ports.locator('tbody tr')).toHaveCount(2);
  await expect(ports).toContainText('22');

  // On: the whole (empty) ruleset is applied by the helper.
  await page.getByRole('switch', { name: '防火墙开关' }).click();
  await applyWithPassword(page, /应\s*用/);
  await expect(rules).toContainText('已开启');
  await expect(rules).toContainText('已加载Sitewatch的规则表');

  // A rule, checked as it is typed with the spec's messages.
  await page.getByRole('button', { name: '添加规则' }).click();
  const editor = page.getByRole('dialog', { name: '添加规则' });
  await editor.getByLabel('源地址').fill('10.0.0.256');
  await expect(editor).toContainText('IP格式不正确：应为0到255的四个数字！');
  await editor.getByLabel('源地址').fill('');
  await expect(editor).toContainText('源地址不能为空！');
  await editor.getByLabel('端口').fill('22');
  await expect(editor).toContainText('端口号格式不正确！');
  await page.screenshot({ path: path.join(shots, 'firewall-rule-dialog-zh_cn.png') });
  await editor.getByLabel('源地址').fill('0.0.0.0/0');
  await editor.getByLabel('端口').fill('20:25');
  await editor.getByText('拒绝', { exact: true }).click();
  await editor.getByRole('button', { name: '下一步' }).click();
  // Closing 22 asks (002 §5.3).
  await expect(page.getByRole('dialog', { name: '应用防火墙变更' })).toContainText(
    '此变更关闭端口22，将断开Web访问或SSH。',
  );
  await page.screenshot({ path: path.join(shots, 'firewall-close-22-zh_cn.png') });
  await applyWithPassword(page, /应\s*用/);
  await expect(rules.locator('tbody tr')).toHaveCount(1);
  await expect(rules.locator('tbody tr').first()).toContainText('20:25');

  // A rule refusing the administrator's own address asks twice and runs on trial.
  await page.getByRole('button', { name: '添加规则' }).click();
  await editor.getByLabel('源地址').fill('127.0.0.1');
  await editor.getByLabel('端口').fill(`${consolePort}:${consolePort}`);
  await editor.getByText('拒绝', { exact: true }).click();
  await editor.getByRole('button', { name: '下一步' }).click();
  const first = page.getByRole('dialog').filter({ hasText: '此变更会断开您自己的地址' });
  await expect(first).toContainText('这些规则会拒绝您的地址127.0.0.1');
  await first.getByRole('button', { name: '下一步' }).click();
  const second = page.getByRole('dialog', { name: '应用防火墙变更' });
  await expect(second).toContainText('再次确认：这些规则拒绝您的地址127.0.0.1。');
  await second.getByPlaceholder('验证密码').fill(adminPassword);
  await expect(second.getByRole('button', { name: /应\s*用/ })).toBeDisabled();
  await second.getByRole('checkbox').check();
  await page.screenshot({ path: path.join(shots, 'firewall-lockout-zh_cn.png') });
  await second.getByRole('button', { name: /应\s*用/ }).click();
  const pending = page.getByRole('alert').filter({ hasText: '秒后自动回滚' });
  await expect(pending).toContainText('此变更拒绝了您的地址127.0.0.1');
  await expect(rules.locator('tbody tr')).toHaveCount(2);
  await expectNoRawKeys(page, 'the firewall page (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'firewall-zh_cn.png'), fullPage: true });
  await pending.getByRole('button', { name: '保留这些规则' }).click();
  await expect(pending).toBeHidden();

  // Deleting a rule asks (002 §5.3), then the password.
  await rules
    .locator('tbody tr')
    .nth(1)
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s*定|OK/ })
    .click();
  await applyWithPassword(page, /应\s*用/);
  await expect(rules.locator('tbody tr')).toHaveCount(1);

  await new Shell(page).language('English');
  const english = page.locator('.ant-card').filter({ hasText: 'Firewall rules' });
  await expect(english).toContainText('Refused');
  await expect(english).toContainText('On');
  await expectNoRawKeys(page, 'the firewall page (en_us)');
  await page.screenshot({ path: path.join(shots, 'firewall-en_us.png'), fullPage: true });

  // The helper gone: a read-only page saying why, nothing to press.
  helper?.kill('SIGKILL');
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: 'The firewall is read-only here' })).toContainText(
    'The firewall helper is not running on this host',
  );
  await expect(page.getByRole('button', { name: 'Add rule' })).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Firewall on or off' })).toBeDisabled();
  await expectNoRawKeys(page, 'the read-only firewall page (en_us)');
  await page.screenshot({ path: path.join(shots, 'firewall-read-only-en_us.png'), fullPage: true });
  await new Shell(page).language('简体中文');
});
