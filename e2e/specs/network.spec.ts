import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { signInAsAdmin } from '../fixtures/product.ts';
import { expect, test } from '../fixtures/test.ts';

const shots = path.resolve(import.meta.dirname, '../screenshots');

/** A free loopback UDP port for Debian's snmpd. */
const freeUdpPort = () =>
  new Promise<number>((resolve) => {
    const s = createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

let snmpd: ChildProcess | null = null;
let dir = '';
let port = 0;

test.beforeAll(async () => {
  port = await freeUdpPort();
  dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-e2e-snmpd-'));
  writeFileSync(path.join(dir, 'snmpd.conf'), `agentAddress udp:127.0.0.1:${port}\nrocommunity public 127.0.0.1\n`);
  // Logging to its stdout (-Lo), snmpd says its version once its port is bound: the agent answers from then on.
  snmpd = spawn(
    '/usr/sbin/snmpd',
    ['-f', '-Lo', '-C', '-c', path.join(dir, 'snmpd.conf'), '-p', path.join(dir, 'pid')],
    {
      env: { ...process.env, MIBS: '', SNMP_PERSISTENT_DIR: path.join(dir, 'persist') },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const agent = snmpd;
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: agent.stdout! }).on('line', (line) => {
      if (line.startsWith('NET-SNMP version')) resolve();
    });
    agent.once('exit', (code) => reject(new Error(`snmpd exited with ${code}`)));
  });
});

test.afterAll(async () => {
  snmpd?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('a switch read over IF-MIB from Debian snmpd shows its ports on /network_device, live', async ({
  page,
  request,
}) => {
  const headers = await signInAsAdmin(page, request);
  const post = async (url: string, data: object) => {
    const res = await request.post(`/api/v1/${url}`, { headers, data });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data;
  };
  const site = await post('setting/device_groups', { name: '网络机房', weight: 1 });
  const device = await post('setting/devices', {
    name: 'core-sw-01',
    device_group_id: site.id,
    driver: 'snmp-ifmib',
    code: 'other',
    ip: '127.0.0.1',
    port,
    protocol_version: 'v2c',
    check_interval: 5,
    options: { community: 'public' },
  });
  await page.goto('/network_device');
  const card = page.getByTestId(`network-device-${device.id}`);
  await expect(card.getByText('core-sw-01')).toBeVisible();
  await expect(card.getByText('尚无端口监控项')).toBeVisible();

  // Ports are added from a walk of the agent: lo (ifIndex 1) is always there.
  await card.getByRole('button', { name: '添加端口' }).click();
  const modal = page.getByRole('dialog', { name: '添加端口' });
  const loRow = modal.locator('tr', { has: page.getByRole('cell', { name: 'lo', exact: true }) });
  await expect(loRow).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'network-device-add-ports-zh_cn.png') });
  await loRow.getByRole('checkbox').check();
  await modal.getByRole('button', { name: '添加监控项' }).click();
  await expect(page.getByText('已添加 12 个监控项')).toBeVisible();
  const lo = card.getByTestId('port-1');
  // The port turns up once read, and its traffic appears after the second read (a rate needs two).
  await expect(lo).toHaveAccessibleName(/lo: (在线|Up)/, { timeout: 20_000 });
  await expect(lo).toContainText(/↓ \d+(\.\d)? (bit|kbit|Mbit)\/s/, { timeout: 20_000 });
  await page.screenshot({ path: path.join(shots, 'network-device-default-zh_cn.png'), fullPage: true });

  await lo.click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText(/1 · (在线|up)/).first()).toBeVisible();
  // lo's speed, on each of its rows that shows one (a CI run found three).
  await expect(drawer.getByText(/^10(\.0)? Mbit\/s$/).first()).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'network-device-port-zh_cn.png') });
});
