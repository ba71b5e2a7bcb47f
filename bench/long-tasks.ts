// Long tasks of a thread in a V8 CPU profile (issue 18, event-loop lag): every stretch of more than
// 40 ms without an idle sample, and what its samples were doing. Profile the built server under
// bench:e2e with BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir> --cpu-prof-interval=500" (one file
// per thread; the main thread's is the one whose name ends .0.001), then
//   node --import tsx bench/long-tasks.ts <file.cpuprofile> [seconds to skip: the start-up]
// Async stacks end at the await, so SQLite time shows as the driver's executeQuery, not its caller.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, skip = '0'] = process.argv.slice(2);
if (!file) throw new Error('usage: long-tasks.ts <file.cpuprofile> [seconds to skip]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const where = (url: string) => url.split('/').slice(-1)[0] ?? '';
const categories = new Map<number, string>();
/** What a sample was doing, from its whole stack. */
const classify = (id: number): string => {
  const known = categories.get(id);
  if (known) return known;
  const frames: string[] = [];
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
    const f = byId.get(x)!.callFrame;
    frames.push(`${f.functionName}@${where(f.url)}`);
  }
  const stack = frames.join(' < ');
  const self = byId.get(id)!.callFrame;
  let c: string;
  if (self.functionName === '(idle)') c = 'idle';
  else if (self.functionName === '(garbage collector)') c = 'garbage collection';
  else if (/sqlite-driver|better-sqlite3/.test(stack)) c = 'SQLite statements (main connection)';
  // Everything the main thread does for the collector worker's batches: edge check, live state, the bus's consumers.
  else if (/onBatch|worker-host/.test(stack)) c = 'collector batches (per-value work)';
  else if (/packBlocks|createCompactor|rollup|encodeChunk|take@/.test(stack)) c = 'series store JavaScript';
  else if (/fastify|light-my-request|avvio/.test(stack)) c = 'HTTP';
  else c = `${self.functionName || '(anonymous)'}@${where(self.url)}`;
  categories.set(id, c);
  return c;
};

const from = profile.startTime + Number(skip) * 1e6;
const tasks: Array<{ begin: number; end: number; parts: Record<string, number> }> = [];
let current: (typeof tasks)[number] | null = null;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i]!;
  if (t < from) continue;
  const c = classify(profile.samples[i]!);
  if (c === 'idle') {
    if (current && current.end - current.begin > 40_000) tasks.push(current);
    current = null;
    continue;
  }
  current ??= { begin: t, end: t, parts: {} };
  const dt = profile.timeDeltas[i + 1] ?? 0;
  current.end = t + dt;
  current.parts[c] = (current.parts[c] ?? 0) + dt;
}
const total: Record<string, number> = {};
for (const task of tasks) for (const [k, v] of Object.entries(task.parts)) total[k] = (total[k] ?? 0) + v;
const sum = Object.values(total).reduce((a, b) => a + b, 0);
const lengths = tasks.map((x) => (x.end - x.begin) / 1000).sort((a, b) => a - b);
console.log(
  `${file}: ${((t - from) / 1e6).toFixed(1)} s, ${tasks.length} tasks over 40 ms, ${(sum / 1000).toFixed(0)} ms in them; ` +
    `length p50 ${lengths[Math.floor(lengths.length / 2)]?.toFixed(0)} ms, max ${lengths.at(-1)?.toFixed(0)} ms`,
);
for (const [k, v] of Object.entries(total)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 12)) {
  console.log(`  ${((100 * v) / sum).toFixed(1).padStart(5)} %  ${k}`);
}
