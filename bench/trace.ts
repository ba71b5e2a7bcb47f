// A Chromium trace of a measured window through the DevTools protocol, summed as CPU time (the
// events' thread time, `tdur`, not wall time: on a shared machine wall time counts the waits for a
// core, thread time only the work). What a bench uses to say where a frame's time goes.
import { writeFileSync } from 'node:fs';
import type { CDPSession } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

const categories = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'toplevel',
  'blink',
  'cc',
  'v8.execute',
  'disabled-by-default-devtools.timeline.invalidationTracking',
];

/** Starts tracing; the answer stops it and answers the events (written to `file` when given). */
export const startTrace = async (cdp: CDPSession) => {
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: categories, recordMode: 'recordAsMuchAsPossible' },
    transferMode: 'ReportEvents',
  });
  return async (file?: string) => {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;
    if (file) writeFileSync(file, JSON.stringify({ traceEvents: events }));
    return events;
  };
};

/** The phase of the frame pipeline an event's own time belongs to. */
const phaseOf = (name: string): string => {
  if (/^(FunctionCall|EventDispatch|TimerFire|FireAnimationFrame|v8\.|V8\.|RunMicrotasks|EvaluateScript)/.test(name))
    return 'script';
  if (/^(UpdateLayoutTree|RecalculateStyles|ScheduleStyleRecalculation|ParseAuthorStyleSheet)/.test(name))
    return 'style';
  if (/^(Layout|UpdateLayout|LocalFrameView::layout)/.test(name)) return 'layout';
  if (/^(PrePaint|Paint|PaintImage|Layerize|UpdateLayer|UpdateLayerTree|CompositeLayers)/.test(name)) return 'paint';
  if (/^(HitTest)/.test(name)) return 'hit-test';
  if (/^(Commit|ProxyMain::|LayerTreeHost::|cc::)/.test(name)) return 'commit';
  return 'other';
};

/**
 * Thread time by phase on the renderer's main thread (self time: a forced layout inside a script
 * counts as layout), and the total thread time of each of the renderer's threads, in ms.
 */
export const summariseTrace = (events: readonly TraceEvent[]) => {
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const complete = events.filter((e) => e.ph === 'X' && e.tdur !== undefined && e.dur !== undefined);
  // The page's renderer: the busiest of the main threads named so (a browser may hold several).
  const count = new Map<string, number>();
  for (const e of complete) count.set(`${e.pid}:${e.tid}`, (count.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...threadNames]
    .filter(([, name]) => name === 'CrRendererMain')
    .map(([key]) => key)
    .sort((a, b) => (count.get(b) ?? 0) - (count.get(a) ?? 0))[0];
  // Self thread time of each event on the main thread: its time less its children's.
  const onMain = complete.filter((e) => `${e.pid}:${e.tid}` === main).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const byPhase: Record<string, number> = {};
  const byName: Record<string, number> = {};
  const stack: { e: TraceEvent; self: number }[] = [];
  const close = () => {
    const top = stack.pop()!;
    byPhase[phaseOf(top.e.name)] = (byPhase[phaseOf(top.e.name)] ?? 0) + top.self;
    byName[top.e.name] = (byName[top.e.name] ?? 0) + top.self;
  };
  for (const e of onMain) {
    while (stack.length > 0 && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= e.ts) close();
    if (stack.length > 0) stack.at(-1)!.self -= e.tdur!;
    stack.push({ e, self: e.tdur! });
  }
  while (stack.length > 0) close();
  // Only the outermost events count towards a thread's total (nested ones are inside them).
  const byThread: Record<string, number> = {};
  const ends = new Map<string, number>();
  for (const e of complete.sort((a, b) => a.ts - b.ts)) {
    const key = `${e.pid}:${e.tid}`;
    if ((ends.get(key) ?? 0) > e.ts) continue;
    ends.set(key, e.ts + e.dur!);
    const name = threadNames.get(key) ?? key;
    byThread[name] = (byThread[name] ?? 0) + e.tdur!;
  }
  const ms = (r: Record<string, number>, least = 0) =>
    Object.fromEntries(
      Object.entries(r)
        .map(([k, v]) => [k, Math.round(v / 100) / 10] as const)
        .filter(([, v]) => v >= least)
        .sort((a, b) => b[1] - a[1]),
    );
  return { main_by_phase_ms: ms(byPhase), main_top_events_ms: ms(byName, 20), threads_ms: ms(byThread, 5) };
};
