#!/usr/bin/env node
// `npm test`: every check in one command — lint, typecheck, unit and server integration tests on
// SQLite and a throw-away PostgreSQL cluster, then browser journeys in Debian's Chromium against the
// production build. As root on Debian it installs the system packages it needs.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const started = Date.now();
const isRoot = process.getuid?.() === 0;

/** Debian packages the tests need, and the file that shows each is installed. */
const systemPackages = [
  { pkg: 'chromium', file: '/usr/bin/chromium' },
  { pkg: 'postgresql', file: () => findPgBin('initdb') },
  { pkg: 'fonts-wqy-zenhei', file: '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc' },
  // Device driver tests read real OIDs from Debian's SNMP agent (v2c and a v3 user).
  { pkg: 'snmpd', file: '/usr/sbin/snmpd' },
  // The Modbus RTU driver test links two pseudo-terminals with socat.
  { pkg: 'socat', file: '/usr/bin/socat' },
  // LDAP tests run their own OpenLDAP server (slapd with a generated config on a free port).
  { pkg: 'slapd', file: '/usr/sbin/slapd' },
  { pkg: 'ldap-utils', file: '/usr/bin/ldapsearch' },
  // FTP sync of backups is tested against Debian's vsftpd on loopback (maintenance-ftp.int.test.ts).
  { pkg: 'vsftpd', file: '/usr/sbin/vsftpd' },
  // Collection tests and the MQTT ingest benchmark use peers nobody here wrote: Debian's broker,
  // the snmpget tool (to compare IF-MIB reads) and pymodbus (a meter serving NaN and register holes).
  { pkg: 'mosquitto', file: '/usr/sbin/mosquitto' },
  { pkg: 'snmp', file: '/usr/bin/snmpget' },
  { pkg: 'python3-pymodbus', file: '/usr/lib/python3/dist-packages/pymodbus/__init__.py' },
  // HTTPS: ACME issuance and renewal against Let's Encrypt's test CA, with its DNS test server.
  { pkg: 'pebble', file: '/usr/bin/pebble' },
  // The firewall helper applies real nftables rules inside a network namespace the test makes
  // (server/test/firewall-netns.int.test.ts); `ip` (iproute2) makes the namespace and its veth pair.
  // The host helper of the time-network area changes addresses with `ip` inside such a namespace too
  // (server/test/time-network-netns.int.test.ts, e2e/specs/time-network.spec.ts).
  { pkg: 'nftables', file: '/usr/sbin/nft' },
  { pkg: 'iproute2', file: '/usr/sbin/ip' },
  // The system tools' tests ping and trace the route to loopback (docs/system.md, "Tools").
  { pkg: 'iputils-ping', file: '/usr/bin/ping' },
  { pkg: 'traceroute', file: '/usr/bin/traceroute.db' },
  // Video: the stream hub, connection test and snapshots run Debian's ffmpeg; the tests' camera is
  // GStreamer's RTSP server (H.264 from x264 with a PCMA track) driven from Python (docs/video.md).
  { pkg: 'ffmpeg', file: '/usr/bin/ffmpeg' },
  { pkg: 'gir1.2-gst-rtsp-server-1.0', file: '/usr/lib/x86_64-linux-gnu/girepository-1.0/GstRtspServer-1.0.typelib' },
  { pkg: 'python3-gi', file: '/usr/lib/python3/dist-packages/gi/__init__.py' },
  { pkg: 'gstreamer1.0-plugins-base', file: '/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstvideotestsrc.so' },
  { pkg: 'gstreamer1.0-plugins-good', file: '/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstrtp.so' },
  { pkg: 'gstreamer1.0-plugins-ugly', file: '/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstx264.so' },
];

function findPgBin(name) {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const file = path.join(base, v, 'bin', name);
    if (existsSync(file)) return file;
  }
  return null;
}

const present = ({ file }) => {
  const where = typeof file === 'function' ? file() : file;
  return Boolean(where && existsSync(where));
};

const step = (title) => console.log(`\n━━ ${title} ━━`);

/** Seconds each stage took, printed at the end (docs/testing.md quotes them). */
const stageTimes = [];
const run = (title, cmd, args, env = {}) => {
  step(title);
  const begun = Date.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  stageTimes.push([title, Math.round((Date.now() - begun) / 1000)]);
  if (result.status !== 0) throw new Error(`${title} failed (exit ${result.status ?? result.signal})`);
};

/** Runs a stage without blocking this process (a background stage's output keeps flowing). */
const runAsync = (title, cmd, args, env = {}, logFile = null) => {
  const begun = Date.now();
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: logFile ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  const log = logFile ? createWriteStream(logFile) : null;
  if (log) {
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const done = () =>
        resolve({
          title,
          took: Math.round((Date.now() - begun) / 1000),
          failure: code === 0 ? null : `${title} failed (exit ${code ?? signal})`,
        });
      if (log) log.end(done);
      else done();
    });
  });
};

/**
 * The workspaces' typechecks (those of package.json with a `typecheck` script), in two lanes of
 * about equal time: server, web and bench take the longest (bench checks its server imports too).
 */
const typecheckLanes = (() => {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const checked = workspaces.filter(
    (w) => JSON.parse(readFileSync(path.join(root, w, 'package.json'), 'utf8')).scripts?.typecheck,
  );
  const first = ['server', 'packages/contract'];
  return [checked.filter((w) => first.includes(w)), checked.filter((w) => !first.includes(w))];
})();

/** Runs commands one after another in the background, their output kept; stops at the first failure. */
const runLane = async (commands, name) => {
  const begun = Date.now();
  let output = '';
  for (const [cmd, args] of commands) {
    const logFile = path.join(tmp, `${name}.log`);
    const done = await runAsync(`${cmd} ${args.join(' ')}`, cmd, args, {}, logFile);
    output += readFileSync(logFile, 'utf8');
    if (done.failure) return { took: Math.round((Date.now() - begun) / 1000), failure: done.failure, output };
  }
  return { took: Math.round((Date.now() - begun) / 1000), failure: null, output };
};

const ensureSystemPackages = () => {
  const missing = systemPackages.filter((p) => !present(p)).map((p) => p.pkg);
  if (missing.length === 0) return;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    step(`Installing ${missing.join(', ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
    return;
  }
  console.error(
    `\nThe tests need these system packages: ${missing.join(', ')}.\n` +
      `On Debian or Ubuntu run:  sudo apt-get install -y ${missing.join(' ')}\n` +
      'Elsewhere install Chromium at /usr/bin/chromium and PostgreSQL (initdb, pg_ctl) of version 13 or later.',
  );
  process.exit(1);
};

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** A PostgreSQL cluster in a temp dir on a free loopback port, as the postgres user when root. */
const startPostgres = async () => {
  step('Starting a throw-away PostgreSQL cluster');
  const initdb = findPgBin('initdb');
  const pgCtl = findPgBin('pg_ctl');
  const dir = mkdtempSync(path.join(tmpdir(), 'sitewatch-pg-'));
  const port = await freePort();
  const asPostgres = (bin, args) =>
    isRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' })
      : execFileSync(bin, args, { stdio: 'pipe' });
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  asPostgres(initdb, ['-D', data, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  asPostgres(pgCtl, ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  console.log(`PostgreSQL on 127.0.0.1:${port} in ${dir}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        asPostgres(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

let pgCluster = null;
let exitCode = 0;
const counts = { vitest: { passed: 0, failed: 0 }, browser: { passed: 0, failed: 0 } };
// The failed tests by name, repeated at the very end: a CI log's tail says what failed.
const failedNames = [];
const firstLine = (text) =>
  stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 200) ?? '';
try {
  ensureSystemPackages();
  run('Lint and format (Biome)', 'npx', ['biome', 'check', '.']);
  // tsc checks on one core: the workspaces run in two lanes beside the build (the journeys run the
  // production build, so it is made before them), and no core waits (docs/testing.md "Time").
  const buildTitle = 'Build the web app and the server';
  const typecheckTitle = 'Typecheck (all workspaces, two lanes beside the build)';
  step(`${typecheckTitle}; ${buildTitle}`);
  const prepared = await Promise.all([
    ...typecheckLanes.map((lane, i) =>
      runLane(
        lane.map((workspace) => ['npx', ['tsc', '-p', `${workspace}/tsconfig.json`, '--noEmit']]),
        `typecheck-${i}`,
      ),
    ),
    runAsync(buildTitle, 'npm', ['run', 'build', '--silent'], {}, path.join(tmp, 'build.log')),
  ]);
  const build = prepared.pop();
  const typecheckTook = Math.max(...prepared.map((lane) => lane.took));
  stageTimes.push([typecheckTitle, typecheckTook], [buildTitle, build.took]);
  for (const lane of prepared) process.stdout.write(lane.output);
  const unprepared = [...prepared.map((lane) => lane.failure), build.failure].filter(Boolean);
  if (build.failure) process.stdout.write(readFileSync(path.join(tmp, 'build.log'), 'utf8'));
  if (unprepared.length > 0) throw new Error(unprepared.join('; '));
  pgCluster = await startPostgres();
  const browserJson = path.join(tmp, 'playwright.json');
  rmSync(browserJson, { force: true });
  const journeysTitle = 'Browser journeys (Playwright, Debian Chromium, production build)';
  const journeysArgs = ['playwright', 'test', '-c', 'e2e/playwright.config.ts'];
  // Two journey workers (two products and browsers side by side): the journeys wait more than they
  // compute, and one worker made them the suite's long pole (docs/testing.md "Time").
  const journeysEnv = { PLAYWRIGHT_JSON_OUTPUT_NAME: browserJson, E2E_WORKERS: process.env.E2E_WORKERS ?? '2' };
  // SITEWATCH_TEST_SERIAL=1 runs them after Vitest instead, each stage with the machine to itself.
  const serial = process.env.SITEWATCH_TEST_SERIAL === '1';
  // The journeys mostly wait on the browser and on their products' timers (about 0.4 of a core),
  // so they run beside Vitest, their output kept in a file and printed after Vitest's.
  const journeysLog = path.join(tmp, 'journeys.log');
  const journeys = serial ? null : runAsync(journeysTitle, 'npx', journeysArgs, journeysEnv, journeysLog);
  const vitestJson = path.join(tmp, 'vitest.json');
  rmSync(vitestJson, { force: true });
  const vitestTitle = 'Unit and server integration tests (SQLite and PostgreSQL)';
  step(vitestTitle);
  const vitest = await runAsync(
    vitestTitle,
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    { SITEWATCH_TEST_PG_URL: pgCluster.url, SITEWATCH_REQUIRE_PG: '1' },
  );
  stageTimes.push([vitestTitle, vitest.took]);
  const vitestReport = readJson(vitestJson);
  if (vitestReport) {
    counts.vitest = { passed: vitestReport.numPassedTests, failed: vitestReport.numFailedTests };
    for (const file of vitestReport.testResults ?? [])
      for (const t of file.assertionResults ?? [])
        if (t.status === 'failed')
          failedNames.push(`${path.relative(root, file.name)} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  }
  let failure = vitest.failure;
  if (journeys) {
    console.log('\nWaiting for the journeys, which started beside Vitest…');
    const done = await journeys;
    step(journeysTitle);
    process.stdout.write(readFileSync(journeysLog, 'utf8'));
    stageTimes.push([`${journeysTitle}, beside Vitest`, done.took]);
    failure = failure ?? done.failure;
  } else if (!failure) {
    try {
      run(journeysTitle, 'npx', journeysArgs, journeysEnv);
    } catch (err) {
      failure = err.message;
    }
  }
  const browserReport = readJson(browserJson);
  if (browserReport) {
    counts.browser = {
      passed: browserReport.stats.expected + browserReport.stats.flaky,
      failed: browserReport.stats.unexpected,
    };
    const walk = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === 'unexpected')
            failedNames.push(`${spec.file} › ${spec.title}: ${firstLine(t.results?.at(-1)?.error?.message)}`);
      for (const inner of suite.suites ?? []) walk(inner);
    };
    for (const suite of browserReport.suites ?? []) walk(suite);
  }
  if (failure) throw new Error(failure);
} catch (err) {
  console.error(`\n${err.message}`);
  exitCode = 1;
} finally {
  pgCluster?.stop();
}

const seconds = Math.round((Date.now() - started) / 1000);
console.log('\nStages:');
for (const [title, took] of stageTimes) console.log(`  ${String(took).padStart(4)} s  ${title}`);
console.log(`\nUnit and integration tests: ${counts.vitest.passed} passed, ${counts.vitest.failed} failed`);
console.log(
  `Browser tests run: ${counts.browser.passed + counts.browser.failed} (${counts.browser.passed} passed, ${counts.browser.failed} failed)`,
);
if (failedNames.length) console.log(`Failed:\n${failedNames.map((n) => `  ${n}`).join('\n')}`);
console.log(`npm test took ${seconds} s`);
const passed = counts.vitest.passed + counts.browser.passed;
const failed =
  counts.vitest.failed + counts.browser.failed + (exitCode && !(counts.vitest.failed + counts.browser.failed) ? 1 : 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
