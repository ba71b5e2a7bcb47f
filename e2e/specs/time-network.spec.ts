import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminPassword, resetAdminLanguage, signInAsAdmin } from '../fixtures/product.ts';
import { expectNoRawKeys } from '../fixtures/raw-keys.ts';
import { expect, test } from '../fixtures/test.ts';
import { Shell } from '../pages/shell.ts';

/**
 * /setting_time and /setting_IP (docs/time-network.md) against the real host helper
 * (server/dist/host-helper.js) inside a network namespace of the journey's own, holding two veth
 * pairs: the machine's own addresses are never touched. One interface carries 127.0.0.1 (the
 * address the browser reaches the console at), so changing it runs on trial. This machine runs no
 * systemd, so the time page shows its honest read-only state. Without root or namespaces the
 * journey is skipped saying why.
 */
const shots = path.resolve(import.meta.dirname, '../screenshots');
const root = path.resolve(import.meta.dirname, '../..');
const ns = `swtne${process.pid % 100_000}`;
const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-e2e-tn-'));
const socketPath = path.join(dir, 'host.sock');
const resolvConf = path.join(dir, 'resolv.conf');
// The product (started after this file loads) reads the helper's socket from its environment.
test.use({ productEnv: { SITEWATCH_HOST_SOCKET: socketPath } });

const missing = (() => {
  if (process.getuid?.() !== 0) return 'not root';
  try {
    execFileSync('sh', ['-c', 'command -v ip && unshare -n true'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'ip or unshare -n is missing here';
  }
})();

let helper: ChildProcess | null = null;
const inNs = (...args: string[]) => execFileSync('ip', ['netns', 'exec', ns, ...args]).toString();

test.beforeAll(async () => {
  test.skip(missing !== null, `time and network journey skipped: ${missing}`);
  writeFileSync(resolvConf, 'search lan\nnameserver 192.0.2.53\n');
  execFileSync('ip', ['netns', 'add', ns]);
  inNs('ip', 'link', 'set', 'lo', 'up');
  inNs('ip', 'link', 'add', 'lan0', 'type', 'veth', 'peer', 'name', 'lan0p');
  inNs('ip', 'addr', 'add', '192.0.2.10/24', 'dev', 'lan0');
  inNs('ip', 'link', 'set', 'lan0', 'up');
  inNs('ip', 'route', 'add', 'default', 'via', '192.0.2.1', 'dev', 'lan0');
  inNs('ip', 'link', 'add', 'mgmt0', 'type', 'veth', 'peer', 'name', 'mgmt0p');
  inNs('ip', 'addr', 'add', '127.0.0.1/8', 'scope', 'global', 'dev', 'mgmt0');
  inNs('ip', 'link', 'set', 'mgmt0', 'up');
  helper = await new Promise<ChildProcess>((resolve, reject) => {
    const args = ['netns', 'exec', ns, process.execPath, 'server/dist/host-helper.js', '--socket', socketPath];
    const child = spawn('ip', [...args, '--resolv-conf', resolvConf], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const seen = (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening')) resolve(child);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
});

test.afterAll(() => {
  helper?.kill('SIGKILL');
  if (!missing) execFileSync('ip', ['netns', 'del', ns]);
  rmSync(dir, { recursive: true, force: true });
});

test.afterEach(async ({ request }) => {
  await resetAdminLanguage(request);
});

test('the time page shows what this box allows (no systemd here: read-only, saying why) and restarts the alarm engine', async ({
  page,
  request,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/setting_time');
  const systemd = existsSystemd();
  await expect(page.getByTestId('box-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  if (!systemd) {
    await expect(page.getByRole('alert').filter({ hasText: '时间和时区在此只读' })).toContainText(
      '本机未运行systemd（timedatectl无法工作），此处只读。',
    );
    await expect(page.getByRole('button', { name: /保\s*存/ }).first()).toBeDisabled();
  }
  const services = page.locator('.ant-card').filter({ hasText: '告警引擎' });
  const alarms = services.locator('tbody tr').filter({ hasText: '告警引擎' });
  await expect(alarms).toContainText('运行中');
  await alarms.getByRole('button', { name: /重\s*启/ }).click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(alarms).toContainText('运行中');
  await expectNoRawKeys(page, 'the time page (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'setting-time-zh_cn.png'), fullPage: true });
  await new Shell(page).language('English');
  await expect(page.locator('.ant-card').filter({ hasText: 'Alarm engine' })).toContainText('Running');
  await expectNoRawKeys(page, 'the time page (en_us)');
  await page.screenshot({ path: path.join(shots, 'setting-time-en_us.png'), fullPage: true });
});

test('an administrator sets an address with its checks, on trial where it carries the console, and the DNS servers', async ({
  page,
  request,
  baseURL,
}) => {
  await signInAsAdmin(page, request);
  await page.goto('/setting_IP');
  const table = page.locator('.ant-card').filter({ hasText: '网卡' }).first();
  await expect(table.locator('tbody tr')).toHaveCount(4);
  const lan0 = table.locator('tbody tr').filter({ has: page.getByRole('cell', { name: 'lan0', exact: true }) });
  await expect(lan0).toContainText('192.0.2.10');
  await expect(lan0).toContainText('255.255.255.0');
  await expect(lan0).toContainText('192.0.2.1');

  // Checked as it is typed with the contract's messages.
  await lan0.getByRole('button', { name: /编\s*辑/ }).click();
  const dialog = page.getByRole('dialog', { name: 'lan0的地址' });
  await dialog.getByLabel('IP地址').fill('192.0.2.300');
  await expect(dialog).toContainText('IP地址格式不正确！');
  await dialog.getByLabel('IP地址').fill('');
  await expect(dialog).toContainText('IP不能为空！');
  await dialog.getByLabel('子网掩码').fill('255.0.255.0');
  await expect(dialog).toContainText('子网掩码不正确！');
  await dialog.getByLabel('IP地址').fill('192.0.2.20');
  await dialog.getByLabel('子网掩码').fill('255.255.255.0');
  await dialog.getByLabel('网关').fill('10.0.0.1');
  await expect(dialog).toContainText('网关必须与IP地址在同一网段！');
  await page.screenshot({ path: path.join(shots, 'setting-ip-dialog-zh_cn.png') });
  await dialog.getByLabel('网关').fill('192.0.2.254');
  await dialog.getByLabel('验证密码').fill(adminPassword);
  await dialog.getByRole('button', { name: /应\s*用/ }).click();
  await expect(dialog).toBeHidden();
  await expect(lan0).toContainText('192.0.2.20');
  await expect(lan0).toContainText('192.0.2.254');
  expect(inNs('ip', '-4', '-o', 'addr', 'show', 'dev', 'lan0')).toContain('192.0.2.20/24');

  // The interface carrying the console's address: on trial, kept in time.
  const mgmt = table.locator('tbody tr').filter({ has: page.getByRole('cell', { name: 'mgmt0', exact: true }) });
  await mgmt.getByRole('button', { name: /编\s*辑/ }).click();
  const trial = page.getByRole('dialog', { name: 'mgmt0的地址' });
  await expect(trial).toContainText('此网卡承载您访问控制台所用的地址127.0.0.1');
  await trial.getByLabel('IP地址').fill('127.0.0.9');
  await trial.getByLabel('验证密码').fill(adminPassword);
  await expect(trial.getByRole('button', { name: /应\s*用/ })).toBeDisabled();
  await trial.getByRole('checkbox').check();
  await page.screenshot({ path: path.join(shots, 'setting-ip-trial-zh_cn.png') });
  await trial.getByRole('button', { name: /应\s*用/ }).click();
  const pending = page.getByRole('alert').filter({ hasText: '除非您选择保留' });
  await expect(pending).toContainText('mgmt0的地址已试用变更');
  await expect(mgmt).toContainText('127.0.0.9');

  // DNS: at least one must remain (002 §5.1), then saved with the password.
  const dns = page.locator('.ant-card').filter({ hasText: 'DNS服务器' });
  await dns.getByLabel('DNS 1').fill('');
  await dns.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dns).toContainText('至少保留一个IP地址！');
  await dns.getByLabel('DNS 1').fill('192.0.2.53');
  await dns.getByLabel('DNS 2').fill('192.0.2.54');
  await dns.getByRole('button', { name: /保\s*存/ }).click();
  const ask = page.getByRole('dialog', { name: 'DNS服务器' });
  await ask.getByPlaceholder('验证密码').fill(adminPassword);
  await ask.getByRole('button', { name: /应\s*用/ }).click();
  await expect(ask).toBeHidden();
  expect(readFileSync(resolvConf, 'utf8')).toBe('search lan\nnameserver 192.0.2.53\nnameserver 192.0.2.54\n');
  // The console's own ports: HTTP where this browser came in, HTTPS off in this product.
  const ports = page.locator('.ant-card').filter({ hasText: '控制台端口' });
  await expect(ports).toContainText(`HTTP端口${new URL(baseURL!).port}`);
  await expect(ports).toContainText('HTTPS未开启');
  await expect(ports.getByRole('link', { name: '端口与HTTPS设置' })).toHaveAttribute('href', '/setting_port');
  await expectNoRawKeys(page, 'the network page (zh_cn)');
  await page.screenshot({ path: path.join(shots, 'setting-ip-zh_cn.png'), fullPage: true });
  await pending.getByRole('button', { name: '保留此地址' }).click();
  await expect(pending).toBeHidden();

  await new Shell(page).language('English');
  await expect(page.locator('.ant-card').filter({ hasText: 'Network interfaces' })).toContainText('127.0.0.9');
  await expectNoRawKeys(page, 'the network page (en_us)');
  await page.screenshot({ path: path.join(shots, 'setting-ip-en_us.png'), fullPage: true });

  // The helper gone: read-only, saying why, the interfaces still shown as the server reads them.
  helper?.kill('SIGKILL');
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: 'The network settings are read-only here' })).toContainText(
    'The host helper is not running on this box',
  );
  await expect(page.getByRole('button', { name: 'Edit' }).first()).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expectNoRawKeys(page, 'the read-only network page (en_us)');
  await page.screenshot({ path: path.join(shots, 'setting-ip-read-only-en_us.png'), fullPage: true });
});

const existsSystemd = () => {
  try {
    execFileSync('test', ['-d', '/run/systemd/system']);
    return true;
  } catch {
    return false;
  }
};
