// Benchmark: the /map live view in Chromium on the production build (issue 15). A site picture of
// 2 000 components (500 Items boxes, each showing one item polled every second, of 100 devices of
// five items, and 1 500 device pictures bound to those devices) while the 500 items change every
// second: how many values a second the page shows, and the CPU the browser spends on it (all its
// processes, as a share of one core; the renderer's main thread apart). Target: under 30 % of one core.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { startProduct } from './product.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const itemCount = 500;
const deviceCount = 1_500;
const itemsPerDevice = 5;
const product = await startProduct('map-live', Number(process.env.BENCH_PORT ?? 18183));
await product.signIn();
const { api, page, site } = product;

/**
 * CPU seconds (user + system) of the descendants of `rootPid` (itself included) whose command
 * matches `name`, from /proc: the browser's processes are the bench's Chromium children.
 */
const cpuOf = (rootPid: number, name: RegExp): number => {
  const stats = new Map<number, { ppid: number; comm: string; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command sits in parentheses (it may hold spaces); the fields after it start at ")".
      const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while being read.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 50; hops++) {
      if (p === rootPid) return true;
      p = stats.get(p)?.ppid ?? 0;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, s] of stats) if (name.test(s.comm) && inTree(pid)) ticks += s.ticks;
  return ticks / 100;
};

try {
  // 100 devices of 5 items each (a picture's components carry their device's items).
  const items: Array<{ id: number; device: number }> = [];
  for (let d = 0; d < itemCount / itemsPerDevice; d++) {
    const device = await api('POST', 'setting/devices', {
      name: `bench-map-${d}`,
      device_group_id: site,
      driver: 'simulator',
      code: 'temp_hum',
      check_interval: 1,
    });
    for (let i = 0; i < itemsPerDevice; i++) {
      const item = await api('POST', 'setting/items', {
        device_id: device.id,
        name: `bench-${d}-${i}`,
        value_type: 1,
        threshold_min: -1_000,
        threshold_max: 1_000,
        recovery_point: 0,
        overrun_point: 0,
        check_interval: 1,
        source: { kind: 'simulator', model: 'analog', base: 50, spread: 10, noise: 1, period_s: 60, decimals: 2 },
      });
      items.push({ id: item.id, device: device.id });
    }
  }
  const form = new FormData();
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1366" height="768"><rect width="1366" height="768" fill="#123"/></svg>';
  form.set('image', new Blob([svg], { type: 'image/svg+xml' }), 'room.svg');
  const uploaded = (await (
    await fetch(`${product.base}/api/v1/setting/top_view/image_backgroup`, {
      method: 'POST',
      headers: product.headers,
      body: form,
    })
  ).json()) as { data: { url: string } };
  const boxes = items.map(({ id, device }, i) => ({
    width: 52,
    height: 16,
    left: 4 + (i % 25) * 54,
    top: 4 + Math.floor(i / 25) * 18,
    device_id: device,
    item_ids: [id],
    extend: { component: 'Items', selfId: `i${i}`, zIndex: i + 1 },
  }));
  const devices = Array.from({ length: deviceCount }, (_, i) => ({
    width: 20,
    height: 10,
    left: 4 + (i % 50) * 27,
    top: 370 + Math.floor(i / 50) * 13,
    device_id: items[(i * itemsPerDevice) % itemCount]!.device,
    extend: { component: 'Cdefault', selfId: `d${i}`, zIndex: itemCount + i + 1 },
  }));
  await api('PUT', 'setting/top_view/device', {
    device_group_id: site,
    background: { background: uploaded.data.url, extend: { canvasWidth: 1366, canvasHeight: 768, canvasScale: 100 } },
    components: [...boxes, ...devices],
  });

  await page.goto(`${product.base}/map?device_group_id=${site}&type=0&parent_id=0`);
  await page.waitForFunction((n) => document.querySelectorAll('[data-kind]').length >= n, itemCount + deviceCount, {
    timeout: 120_000,
  });
  // Let the first values arrive and the page settle.
  await page.waitForTimeout(5_000);

  // Count the values the page shows change: text changes inside the Items boxes.
  await page.evaluate(() => {
    const w = window as unknown as { shown: number };
    w.shown = 0;
    new MutationObserver((records) => {
      w.shown += records.length;
    }).observe(document.body, { subtree: true, characterData: true, childList: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () =>
    ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) as number;
  const before = {
    wall: performance.now(),
    browser: cpuOf(process.pid, /chrom/i),
    server: cpuOf(product.serverPid, /./),
    main: await busy(),
  };
  // BENCH_PROFILE=file: the renderer's CPU profile of the measured window, for DevTools.
  if (process.env.BENCH_PROFILE) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
  await page.waitForTimeout(seconds * 1000);
  if (process.env.BENCH_PROFILE) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile));
  }
  const after = {
    wall: performance.now(),
    browser: cpuOf(process.pid, /chrom/i),
    server: cpuOf(product.serverPid, /./),
    main: await busy(),
  };
  const shown = await page.evaluate(() => (window as unknown as { shown: number }).shown);
  const wall = (after.wall - before.wall) / 1000;
  const share = (cpu: number) => Math.round((cpu / wall) * 1000) / 10;
  const result = {
    components: itemCount + deviceCount,
    items_polled_per_s: itemCount,
    dom_changes_per_s: Math.round(shown / wall),
    browser_cpu_percent_of_one_core: share(after.browser - before.browser),
    renderer_main_thread_percent: share(after.main - before.main),
    server_cpu_percent_of_one_core: share(after.server - before.server),
    seconds: Math.round(wall),
  };
  console.log(JSON.stringify(result, null, 2));
  if (result.browser_cpu_percent_of_one_core >= 30) process.exitCode = 1;
} finally {
  await product.close();
}
