// Where a process's RSS is (Linux, /proc/<pid>/smaps), for bench:memory's BENCH_SMAPS=1 (issue 18):
// mapped files (the node binary, libraries), the main thread's malloc heap ([heap]), the other
// threads' malloc arenas (glibc maps each as a 64 MB-aligned region), thread stacks, and the rest of
// the anonymous memory (V8's pages of every isolate, array buffers and other large blocks malloc maps
// on their own). MB.
import { readFileSync } from 'node:fs';

export interface SmapsSplit {
  total: number;
  file: number;
  heap: number;
  arenas: number;
  arena_count: number;
  stacks: number;
  other_anon: number;
}

const arenaSpan = 64n << 20n;

export const smapsSplit = (pid: number): SmapsSplit | null => {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return null;
  }
  const regions: Array<{ lo: bigint; hi: bigint; perm: string; name: string; rss: number }> = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      regions.push({ lo: BigInt(`0x${m[1]}`), hi: BigInt(`0x${m[2]}`), perm: m[3]!, name: m[4]!, rss: 0 });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && regions.length > 0) regions[regions.length - 1]!.rss = Number(rss[1]);
  }
  const kb = { file: 0, heap: 0, arenas: 0, stacks: 0, other: 0 };
  let arenaCount = 0;
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i]!;
    if (r.name.startsWith('/')) kb.file += r.rss;
    else if (r.name === '[heap]') kb.heap += r.rss;
    else if (r.name.startsWith('[')) kb.other += r.rss;
    else {
      // A glibc arena: 64 MB-aligned, its used part read-write, the rest of the 64 MB reserved (---p).
      const next = regions[i + 1];
      const end = next && next.lo === r.hi && next.perm === '---p' ? next.hi : r.hi;
      const prev = regions[i - 1];
      const size = r.hi - r.lo;
      if (r.lo % arenaSpan === 0n && r.perm.startsWith('rw') && end - r.lo === arenaSpan) {
        kb.arenas += r.rss;
        arenaCount += 1;
      } else if (
        // A thread's stack: read-write, 1–9 MB, right after its guard page.
        r.perm.startsWith('rw') &&
        prev?.perm === '---p' &&
        prev.hi === r.lo &&
        prev.hi - prev.lo <= 65_536n &&
        size >= 1n << 20n &&
        size <= 9n << 20n
      )
        kb.stacks += r.rss;
      else kb.other += r.rss;
    }
  }
  const mb = (k: number) => Math.round(k / 102.4) / 10;
  return {
    total: mb(kb.file + kb.heap + kb.arenas + kb.stacks + kb.other),
    file: mb(kb.file),
    heap: mb(kb.heap),
    arenas: mb(kb.arenas),
    arena_count: arenaCount,
    stacks: mb(kb.stacks),
    other_anon: mb(kb.other),
  };
};
