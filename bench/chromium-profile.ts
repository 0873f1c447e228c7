import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

/**
 * A Chromium trace and a CPU profile of one page over a phase of a bench: the trace
 * (`<name>.trace.json`, the `devtools.timeline` categories: DevTools' Performance panel and
 * ui.perfetto.dev open it) summed by what the renderer's main thread did — script, style, layout,
 * paint, GC — and the CPU profile (CDP `Profiler`, `<name>.cpuprofile`) summed by function: where
 * the script's self time went. Used by `--profile DIR`.
 */

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

/** One function's self time over the profile. */
export interface SelfTime {
  readonly fn: string;
  readonly ms: number;
  readonly share: number;
}

/** Starts profiling `page`; the returned stop writes the profile under `dir` and sums it. */
export async function startCpuProfile(page: Page, dir: string, name: string): Promise<() => Promise<PhaseProfile>> {
  const browser = page.context().browser();
  const traceFile = join(dir, `${name}.trace.json`);
  await browser?.startTracing(page, { path: traceFile, categories: TRACE_CATEGORIES });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await cdp.detach();
    const trace = browser ? await browser.stopTracing() : null;
    const file = join(dir, `${name}.cpuprofile`);
    await writeFile(file, JSON.stringify(profile));
    return {
      files: [file, ...(trace ? [traceFile] : [])],
      wallMs: (profile.endTime - profile.startTime) / 1000,
      mainThread: trace ? mainThreadTime(trace) : {},
      top: selfTimes(profile),
    };
  };
}

/** What a phase's profile found. */
export interface PhaseProfile {
  readonly files: string[];
  readonly wallMs: number;
  /** ms of the renderer main thread's top-level work by kind, over the phase. */
  readonly mainThread: Record<string, number>;
  readonly top: SelfTime[];
}

const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'];

/** Trace event names by what the main thread was doing. */
const KINDS: Record<string, string> = {
  ParseHTML: 'parse',
  'v8.compile': 'parse',
  'v8.compileModule': 'parse',
  ParseAuthorStyleSheet: 'parse',
  FunctionCall: 'script',
  EvaluateScript: 'script',
  EventDispatch: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  'v8.callFunction': 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  MajorGC: 'gc',
  MinorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
  'V8.GC_MARK_COMPACTOR': 'gc',
};

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly name?: string };
}

/**
 * The renderer main thread's time by kind: each complete event of a known kind counted once,
 * unless it lies inside another counted one (a FunctionCall inside an animation frame).
 */
export function mainThreadTime(trace: Buffer): Record<string, number> {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  // A navigation may move the page to a new renderer process: the busiest renderer main thread is the page's.
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!mains.has(key) || e.ph !== 'X' || e.dur === undefined || !KINDS[e.name]) continue;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  const busy = (xs: readonly TraceEvent[]): number => xs.reduce((sum, e) => sum + (e.dur ?? 0), 0);
  const mine = [...byThread.values()].sort((a, b) => busy(b) - busy(a))[0]?.sort((a, b) => a.ts - b.ts) ?? [];
  const out: Record<string, number> = {};
  let coveredUntil = Number.NEGATIVE_INFINITY;
  for (const e of mine) {
    const end = e.ts + (e.dur ?? 0);
    // Style and layout a script forced count in its time and under their own kind as well.
    const kind = KINDS[e.name] as string;
    if (e.ts < coveredUntil && kind === 'script') continue;
    // Compiling inside a script's time (a module evaluated) is counted in it and as parse too.
    if (kind === 'script') coveredUntil = Math.max(coveredUntil, end);
    out[kind] = Math.round(((out[kind] ?? 0) + (e.dur ?? 0) / 1000) * 10) / 10;
  }
  return out;
}

/** Self time by function (name and place), highest first; idle left out. */
export function selfTimes(profile: CpuProfile, top = 15): SelfTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ms = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let busy = 0;
  for (let i = 0; i < samples.length; i += 1) {
    const node = byId.get(samples[i] as number);
    const dt = (deltas[i + 1] ?? 0) / 1000;
    if (!node || dt <= 0) continue;
    const f = node.callFrame;
    // (program) is the browser's own work on the thread: style, layout, paint.
    if (f.functionName === '(idle)') continue;
    const where = f.url ? `${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    ms.set(key, (ms.get(key) ?? 0) + dt);
    busy += dt;
  }
  return [...ms.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, t]) => ({ fn, ms: Math.round(t * 10) / 10, share: busy > 0 ? Math.round((t / busy) * 1000) / 10 : 0 }));
}
