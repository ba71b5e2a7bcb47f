// Benchmark: how long `npm start` takes to serve /login, and where the time goes (issue 38, item 8).
// 1. The build a first start makes when web/dist and server/dist are missing (each workspace timed).
// 2. A first start on a fresh data dir with the demo estate (migrations, login key, administrator,
//    demo seed), then a second start on the same data dir: from spawning node to the migrations'
//    log line, to the server's "running" line, and to /login answering 200.
// Each start runs as `npm start` runs it (its node flags and environment), the build already made.
// BENCH_ROUNDS (3) rounds of each; the load average is printed beside the figures.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startEnv, startNodeFlags } from './start-flags.ts';

const root = path.resolve(import.meta.dirname, '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const port = Number(process.env.BENCH_PORT ?? 18191);
const base = `http://127.0.0.1:${port}`;

const seconds = (ms: number) => (Number.isNaN(ms) ? 'none' : `${(ms / 1000).toFixed(2)} s`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const timeBuild = (workspace: string): number => {
  const begun = performance.now();
  const built = spawnSync('npm', ['run', 'build', '-w', workspace, '--silent'], { cwd: root, stdio: 'ignore' });
  if (built.status !== 0) throw new Error(`the build of ${workspace} failed`);
  return performance.now() - begun;
};

interface Start {
  /** The first log line: node up and the server's modules loaded. */
  logging: number;
  migrated: number;
  /** The last area's "demo data made" line (first start only). */
  seeded: number;
  running: number;
  login: number;
}

/** Starts the server on `dataDir`, answers when its log lines and /login came, then stops it. */
const timeStart = async (dataDir: string): Promise<Start> => {
  const begun = performance.now();
  const server = spawn(process.execPath, [...startNodeFlags(), 'scripts/start.mjs'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...startEnv(),
      ...process.env,
      PORT: String(port),
      SITEWATCH_DATA_DIR: dataDir,
      SITEWATCH_SKIP_BUILD: '1',
      LOG_LEVEL: 'info',
    },
  });
  const seen: Partial<Start> = {};
  let announced = () => {};
  const running = new Promise<void>((resolve) => {
    announced = resolve;
  });
  createInterface({ input: server.stdout }).on('line', (line) => {
    const at = performance.now() - begun;
    seen.logging ??= at;
    if (line.includes('database migrated')) seen.migrated ??= at;
    if (line.includes('demo data made')) seen.seeded = at;
    if (line.includes('Sitewatch is running')) {
      seen.running ??= at;
      announced();
    }
  });
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error('the server exited while starting');
      const res = await fetch(`${base}/login`).catch(() => null);
      if (res?.status === 200) {
        seen.login = performance.now() - begun;
        // The log line may trail the first answer by a moment.
        await Promise.race([running, new Promise((r) => setTimeout(r, 2_000))]);
        break;
      }
      // A poll every 20 ms: the figure is the start's, not the poll's.
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
  }
  return {
    logging: seen.logging ?? Number.NaN,
    seeded: seen.seeded ?? Number.NaN,
    migrated: seen.migrated ?? Number.NaN,
    running: seen.running ?? Number.NaN,
    login: seen.login ?? Number.NaN,
  };
};

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average before: ${load()}`);
const builds = { web: [] as number[], server: [] as number[] };
const first: Start[] = [];
const second: Start[] = [];
for (let round = 0; round < rounds; round++) {
  builds.web.push(timeBuild('web'));
  builds.server.push(timeBuild('server'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitewatch-bench-start-'));
  try {
    first.push(await timeStart(dataDir));
    second.push(await timeStart(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
/** The median of one moment over the starts, in seconds from spawning node. */
const at = (starts: Start[], moment: keyof Start) => seconds(median(starts.map((s) => s[moment])));
const row = (name: string, starts: Start[]) =>
  console.log(
    `${name} (medians of ${starts.length}): first log line ${at(starts, 'logging')}, migrations done ${at(
      starts,
      'migrated',
    )}, demo made ${at(starts, 'seeded')}, running ${at(starts, 'running')}, /login 200 ${at(starts, 'login')}`,
  );
console.log(`build of the web app ${seconds(median(builds.web))}, of the server ${seconds(median(builds.server))}`);
row('first start (fresh data dir, demo estate)', first);
row('second start (same data dir)', second);
console.log(`load average after: ${load()}`);
