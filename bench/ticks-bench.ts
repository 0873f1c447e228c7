/**
 * `npm run bench -- ticks [--seconds S] [--steps 25,50,100,200,400] [--tick-ms 50] [--part both|watch|pipeline]
 *  [--watch-rows 200] [--watch-tick-ms 40] [--rounds 1]`
 *
 * First, the watchlist at scale (`--part watch` alone): 200 rows whose instruments tick about
 * 5 times a second each (the paper market moves each instrument in about one step in five; 40 ms
 * steps), the app's page against the same page with `market.ticks` swallowed at its
 * bridge by the harness (the floor: the same rows painted statically): frame p50/p95/p99, long
 * tasks, and React component renders per tick taken in (all of them, and watchlist rows).
 *
 * Then the pipelines (`--part pipeline` alone):
 * Ticks from the broker to painted cells: the real app services (paper broker → stream client →
 * batcher → event hub → browser host WebSocket bridge) drive the real renderer in Debian's
 * Chromium, whose watchlist shows N instruments (any exchange) ticking as the paper market moves them every `--tick-ms`. For each N
 * the renderer's frame times are sampled with requestAnimationFrame, and the bench counts the
 * bridge messages and ticks reaching the page and the price cells React actually repainted.
 *
 * Two pipelines in the same run: batched (the app: one `market.ticks` per 100 ms, latest per
 * instrument) and one IPC message per tick (`tickBatchMs: 0`, the baseline). The figure is the
 * highest broker tick rate each sustains with frame p95 under 16.7 ms (one 60 Hz frame) while
 * keeping up (the page not falling behind the broker). Prints a table, the ratio, and a
 * one-line JSON summary last. Loopback only; bounded in time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { createAppServices, type AppServices } from '../electron/app/app-services';
import { startHost, type RunningHost } from '../electron/host/host-server';
import { createDispatcher } from '../electron/app/dispatcher';
import { chromiumLaunchOptions } from '../e2e/chromium';

import type * as PlaywrightModule from '@playwright/test';

type Playwright = typeof PlaywrightModule;

/**
 * One 60 Hz frame. Frame deltas sampled with rAF sit at 16.7 ms ± jitter when no frame is
 * dropped and jump to 33.3 ms when one is, so "p95 under one frame" is read with a quarter
 * frame of jitter allowed: p95 ≤ 20.8 ms means fewer than 5% of frames were dropped.
 */
const FRAME_MS = 1000 / 60;
const FRAME_BUDGET_MS = FRAME_MS * 1.25;

interface Sample {
  readonly mode: 'batched' | 'per-tick';
  readonly instruments: number;
  /** Ticks/s the broker sent for the watched instruments (counted on a second socket). */
  readonly offered: number;
  /** Bridge messages/s carrying ticks, and ticks/s inside them, as the page received them. */
  readonly messages: number;
  readonly ticks: number;
  /** Price cells React repainted per second. */
  readonly cells: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  /** The page handled (nearly) every bridge message main sent during the window. */
  readonly keptUp: boolean;
}

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * Installed in the page before the app: frame deltas, tick messages at the bridge, repainted price
 * cells, long tasks, and React's component renders. Renders are counted through the hook React
 * offers its developer tools (`__REACT_DEVTOOLS_GLOBAL_HOOK__`, called after every commit in
 * production builds too): a component rendered in a commit when its fiber is new or carries
 * React's PerformedWork flag, and subtrees React did not reconcile (same child fiber as before)
 * are skipped, as the developer tools do. A "row render" is one whose component's first DOM node
 * is a watchlist `tr`. With `dropTicks`, `market.ticks` messages are swallowed before the app
 * sees them: the same page painted statically (the floor).
 */
export function pageProbe(): void {
  const probe = {
    frames: [] as number[],
    messages: 0,
    /** Characters of the `market.ticks` messages (their bytes: the JSON is ASCII). */
    bytes: 0,
    ticks: 0,
    cells: 0,
    renders: 0,
    rowRenders: 0,
    longTasks: [] as number[],
    on: false,
    dropTicks: (window as { __watchFloor?: boolean }).__watchFloor === true,
  };
  (window as unknown as { __probe: typeof probe }).__probe = probe;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    public constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e: MessageEvent) => {
        if (typeof e.data !== 'string' || !e.data.startsWith('{"event":"market.ticks"')) return;
        if (probe.dropTicks) e.stopImmediatePropagation();
        if (!probe.on) return;
        probe.messages += 1;
        probe.bytes += e.data.length;
        probe.ticks += e.data.split('"instrumentToken"').length - 1;
      });
    }
  };
  let last = 0;
  const frame = (t: number): void => {
    if (probe.on && last) probe.frames.push(t - last);
    last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  new MutationObserver((records) => {
    if (!probe.on) return;
    for (const r of records) {
      const el = r.type === 'characterData' ? r.target.parentElement : (r.target as Element);
      if (el?.classList?.contains('live-price')) probe.cells += 1;
    }
  }).observe(document, { subtree: true, characterData: true, childList: true });
  new PerformanceObserver((list) => {
    if (!probe.on) return;
    for (const e of list.getEntries()) probe.longTasks.push(e.duration);
  }).observe({ type: 'longtask' });

  interface Fiber {
    readonly tag: number;
    readonly type: unknown;
    readonly flags: number;
    readonly child: Fiber | null;
    readonly sibling: Fiber | null;
    readonly alternate: Fiber | null;
    readonly stateNode: unknown;
  }
  const PERFORMED_WORK = 1;
  const HOST_COMPONENT = 5;
  const isComponent = (f: Fiber): boolean =>
    typeof f.type === 'function' || (typeof f.type === 'object' && f.type !== null && f.tag !== HOST_COMPONENT);
  const isRow = (f: Fiber): boolean =>
    f.child?.tag === HOST_COMPONENT &&
    f.child.stateNode instanceof Element &&
    f.child.stateNode.matches('tr[data-watch-row]');
  const walk = (parent: Fiber, mounting: boolean): void => {
    for (let c = parent.child; c; c = c.sibling) {
      const fresh = mounting || c.alternate === null;
      if (isComponent(c) && (fresh || (c.flags & PERFORMED_WORK) !== 0)) {
        probe.renders += 1;
        if (isRow(c)) probe.rowRenders += 1;
      }
      if (fresh || c.child !== c.alternate?.child) walk(c, fresh);
    }
  };
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => undefined,
    onScheduleFiberRoot: () => undefined,
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
    onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
      if (probe.on) walk(root.current, false);
    },
  };
}

/** Counts the broker's ticks for `tokens` on its own socket (the broker serialises each tick once for all sockets). */
export async function brokerCounter(
  paperUrl: string,
  tokens: readonly number[],
): Promise<{ count: () => number; close: () => void }> {
  const login = await fetch(`${paperUrl}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const ws = new WebSocket(`${paperUrl.replace('http', 'ws')}/stream`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  let n = 0;
  ws.on('message', (d) => {
    if (String(d).startsWith('{"type":"tick"')) n += 1;
  });
  ws.send(JSON.stringify({ action: 'subscribe', tokens }));
  return { count: () => n, close: () => ws.terminate() };
}

/** What both parts measure against: the app's services, the browser host on them, Chromium. */
interface TickRig {
  readonly browser: PlaywrightModule.Browser;
  readonly services: AppServices;
  /** The host's page URL. */
  readonly url: string;
  /** Every instrument token the app lists, in its order. */
  readonly universe: readonly number[];
}

/**
 * Runs `body` on a rig of its own: the real app services with their paper market stepping every
 * `tickMs` and main batching ticks every `tickBatchMs` (0: one message per tick), the browser host
 * serving the bench's renderer build, and Chromium; all of it stopped and its data removed after.
 */
async function withTickRig<T>(
  pw: Playwright,
  label: string,
  market: { readonly tickMs: number; readonly tickBatchMs: number },
  body: (rig: TickRig) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), `td-${label}-`));
  let services: AppServices | null = null;
  let host: RunningHost | null = null;
  const browser = await pw.chromium.launch(chromiumLaunchOptions());
  try {
    services = await createAppServices({
      dataDir: dir,
      paper: { control: true, tickIntervalMs: market.tickMs, rate: { perSecond: 1_000, burst: 1_000 } },
      tickBatchMs: market.tickBatchMs,
      log: () => undefined,
    });
    const dispatch = createDispatcher(services.handlers);
    host = await startHost({
      port: 0,
      rendererDir: join(dirname(fileURLToPath(import.meta.url)), 'renderer'),
      dispatch,
      events: services.events,
    });
    const list = await dispatch('instruments.list', undefined);
    if (!list.ok) throw new Error(list.error.message);
    const universe = (list.data as Array<{ instrumentToken: number }>).map((i) => i.instrumentToken);
    return await body({ browser, services, url: host.url, universe });
  } finally {
    await browser.close();
    await host?.close();
    await services?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the page's probe (`pageProbe`) counted over a window. */
interface ProbeReading {
  readonly frames: number[];
  readonly messages: number;
  readonly ticks: number;
  readonly cells: number;
  readonly renders: number;
  readonly rowRenders: number;
  readonly longTasks: number[];
}

/** One measured window of a page: its probe's reading and the broker's and main's sides of it. */
interface ProbeWindow {
  readonly probe: ProbeReading;
  /** Seconds the window lasted. */
  readonly wall: number;
  /** Ticks/s the broker sent for the watched instruments (counted on a second socket). */
  readonly offered: number;
  /** `market.ticks` messages main sent the page over the window. */
  readonly sent: number;
  /** The window's frame deltas, sorted. */
  readonly frames: number[];
}

/**
 * Opens the desk in a page of `context` and lets it warm up (subscriptions, the first render of
 * every row; `ready` says when the rows are there), then turns the page's probe on for `seconds`
 * and reads it, with the broker's ticks for `tokens` counted on a socket of its own meanwhile.
 */
async function probeWindow(
  rig: TickRig,
  context: PlaywrightModule.BrowserContext,
  tokens: readonly number[],
  seconds: number,
  ready: (page: PlaywrightModule.Page) => Promise<void>,
): Promise<ProbeWindow> {
  const page = await context.newPage();
  await page.goto(rig.url);
  await page.getByText(/Connected to .+ as \S+/).waitFor();
  await ready(page);
  await page.waitForTimeout(2_000); // warm up: subscriptions, first render of every row
  const counter = await brokerCounter(rig.services.paperUrl!, tokens);
  let sent = 0;
  const off = rig.services.events.on('market.ticks', () => (sent += 1));
  await page.evaluate(() => ((window as unknown as { __probe: { on: boolean } }).__probe.on = true));
  const before = counter.count();
  const t0 = performance.now();
  await page.waitForTimeout(seconds * 1000);
  const probe = await page.evaluate(() => {
    const p = (window as unknown as { __probe: ProbeReading & { on: boolean } }).__probe;
    p.on = false;
    const { frames, messages, ticks, cells, renders, rowRenders, longTasks } = p;
    return { frames, messages, ticks, cells, renders, rowRenders, longTasks };
  });
  off();
  const wall = (performance.now() - t0) / 1000;
  const offered = (counter.count() - before) / wall;
  counter.close();
  return { probe, wall, offered, sent, frames: probe.frames.slice().sort((a, b) => a - b) };
}

async function measureMode(
  pw: Playwright,
  mode: Sample['mode'],
  steps: readonly number[],
  tickMs: number,
  seconds: number,
): Promise<Sample[]> {
  const tickBatchMs = mode === 'batched' ? 100 : 0;
  return withTickRig(pw, 'ticks', { tickMs, tickBatchMs }, async (rig) => {
    const out: Sample[] = [];
    for (const n of steps) {
      const tokens = rig.universe.slice(0, n);
      if (tokens.length < n) break;
      const context = await watchlistContext(rig.browser, tokens, false);
      const { probe, wall, offered, sent, frames } = await probeWindow(rig, context, tokens, seconds, (page) =>
        page.getByTestId(/^ltp-/).first().waitFor(),
      );
      out.push({
        mode,
        instruments: n,
        offered,
        messages: probe.messages / wall,
        ticks: probe.ticks / wall,
        cells: probe.cells / wall,
        p50: percentile(frames, 0.5),
        p95: percentile(frames, 0.95),
        p99: percentile(frames, 0.99),
        // The page handled (nearly) every message main sent in the window (a couple may be in
        // flight at its edges): no backlog building up.
        keptUp: sent > 0 && probe.messages >= 0.9 * sent - 2,
      });
      await context.close();
    }
    return out;
  });
}

/** One page of the watchlist comparison: ticking (the app) or the same rows painted statically (the floor). */
interface WatchSample {
  readonly mode: 'live' | 'static';
  readonly rows: number;
  /** Ticks/s the broker sent for the watched instruments, and per instrument. */
  readonly offered: number;
  readonly perInstrument: number;
  /** Ticks/s reaching the page's bridge (swallowed there in the static floor). */
  readonly ticks: number;
  readonly cells: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  /** Long tasks: ms of them per second, how many, the longest. */
  readonly longMsPerS: number;
  readonly longCount: number;
  readonly longest: number;
  /** React component renders and watchlist row renders per tick the page took in (per second in the floor). */
  readonly rendersPerTick: number;
  readonly rowRendersPerTick: number;
  readonly rendersPerS: number;
}

/**
 * The watchlist at scale: `rows` instruments ticking as the paper market steps every `tickMs`
 * (batched pipeline, as the app runs), against the same page whose `market.ticks` are swallowed
 * at the bridge by the harness (the floor: the same rows painted statically). Modes alternate for
 * `rounds` rounds on fresh pages, so drift on the shared machine hits both.
 */
async function measureWatchlist(
  pw: Playwright,
  rows: number,
  tickMs: number,
  seconds: number,
  rounds: number,
): Promise<WatchSample[]> {
  return withTickRig(pw, 'watch', { tickMs, tickBatchMs: 100 }, async (rig) => {
    const out: WatchSample[] = [];
    const tokens = rig.universe.slice(0, rows);
    const modes: Array<WatchSample['mode']> = [];
    for (let r = 0; r < rounds; r += 1) modes.push('static', 'live');
    for (const mode of modes) {
      const context = await watchlistContext(rig.browser, tokens, mode === 'static');
      const { probe, wall, offered, frames } = await probeWindow(rig, context, tokens, seconds, (page) =>
        expectRows(page, tokens.length),
      );
      // The floor takes in no ticks: its renders are per second (clock labels and the like).
      const perTick = (n: number): number => (probe.ticks > 0 && mode === 'live' ? n / probe.ticks : Number.NaN);
      out.push({
        mode,
        rows: tokens.length,
        offered,
        perInstrument: offered / tokens.length,
        ticks: probe.ticks / wall,
        cells: probe.cells / wall,
        p50: percentile(frames, 0.5),
        p95: percentile(frames, 0.95),
        p99: percentile(frames, 0.99),
        longMsPerS: probe.longTasks.reduce((a, b) => a + b, 0) / wall,
        longCount: probe.longTasks.length,
        longest: probe.longTasks.length ? Math.max(...probe.longTasks) : 0,
        rendersPerTick: perTick(probe.renders),
        rowRendersPerTick: perTick(probe.rowRenders),
        rendersPerS: probe.renders / wall,
      });
      await context.close();
    }
    return out;
  });
}

/**
 * A fresh browser context whose pages open with `tokens` on the watchlist and the probe installed;
 * with `floor`, their `market.ticks` are swallowed at the bridge (the same rows painted statically).
 */
export async function watchlistContext(
  browser: PlaywrightModule.Browser,
  tokens: readonly number[],
  floor: boolean,
): Promise<PlaywrightModule.BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  await context.addInitScript(
    ({ tokens }) =>
      localStorage.setItem(
        'tradedesk.settings',
        JSON.stringify({
          state: { theme: 'dark', layouts: {}, confirmOnEnter: true, sound: false, watchlist: tokens },
          version: 1,
        }),
      ),
    { tokens },
  );
  if (floor) await context.addInitScript(() => ((window as { __watchFloor?: boolean }).__watchFloor = true));
  await context.addInitScript(pageProbe);
  return context;
}

/** Waits until the watchlist shows `n` rows (bounded). */
async function expectRows(page: PlaywrightModule.Page, n: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('tr[data-watch-row]').length >= n, n, {
    timeout: 60_000,
  });
}

/** The median of a mode's samples for one figure (NaN-free); of an even count, the higher middle (conservative). */
function medianOf(xs: readonly WatchSample[], pick: (s: WatchSample) => number): number {
  const v = xs
    .map(pick)
    .filter((n) => Number.isFinite(n))
    .sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)]! : Number.NaN;
}

function printWatch(samples: readonly WatchSample[], tickMs: number, seconds: number): Record<string, unknown> {
  console.log(
    `\nwatchlist at scale: ${samples[0]?.rows ?? 0} rows, paper market stepping every ${tickMs} ms; ${seconds} s per page; live (the app) vs static (ticks swallowed at the bridge: the same rows painted statically)`,
  );
  console.log(
    '| page | rows | broker ticks/s (per instrument) | ticks/s at page | cells painted/s | frame p50 ms | p95 ms | p99 ms | long tasks ms/s (n, longest ms) | renders per tick | row renders per tick | renders/s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const f = (v: number, d = 1): string => (Number.isFinite(v) ? v.toFixed(d) : '–');
  for (const s of samples) {
    console.log(
      `| ${s.mode} | ${s.rows} | ${f(s.offered, 0)} (${f(s.perInstrument)}) | ${f(s.ticks, 0)} | ${f(s.cells, 0)} | ${f(s.p50)} | ${f(s.p95)} | ${f(s.p99)} | ${f(s.longMsPerS)} (${s.longCount}, ${f(s.longest, 0)}) | ${f(s.rendersPerTick, 2)} | ${f(s.rowRendersPerTick, 2)} | ${f(s.rendersPerS, 0)} |`,
    );
  }
  const live = samples.filter((s) => s.mode === 'live');
  const floor = samples.filter((s) => s.mode === 'static');
  const r = (v: number): number | null => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);
  const summary = {
    rows: samples[0]?.rows ?? 0,
    ticks_per_instrument_per_s: r(medianOf(live, (s) => s.perInstrument)),
    live_p50_ms: r(medianOf(live, (s) => s.p50)),
    live_p95_ms: r(medianOf(live, (s) => s.p95)),
    live_p99_ms: r(medianOf(live, (s) => s.p99)),
    static_p95_ms: r(medianOf(floor, (s) => s.p95)),
    static_p99_ms: r(medianOf(floor, (s) => s.p99)),
    p95_over_static: r(medianOf(live, (s) => s.p95) / medianOf(floor, (s) => s.p95)),
    live_long_ms_per_s: r(medianOf(live, (s) => s.longMsPerS)),
    static_long_ms_per_s: r(medianOf(floor, (s) => s.longMsPerS)),
    renders_per_tick: r(medianOf(live, (s) => s.rendersPerTick)),
    row_renders_per_tick: r(medianOf(live, (s) => s.rowRendersPerTick)),
    goal_p95_within_frame: medianOf(live, (s) => s.p95) <= FRAME_BUDGET_MS,
  };
  console.log(
    `live frame p95 ${f(medianOf(live, (s) => s.p95))} ms vs static ${f(medianOf(floor, (s) => s.p95))} ms (goal ≤ 16.7 ms, read with a quarter frame of rAF jitter); ${f(
      medianOf(live, (s) => s.rowRendersPerTick),
      2,
    )} row renders per tick`,
  );
  return summary;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      seconds: { type: 'string', default: '5' },
      steps: { type: 'string', default: '25,50,100,200,400' },
      'tick-ms': { type: 'string', default: '50' },
      part: { type: 'string', default: 'both' },
      'watch-rows': { type: 'string', default: '200' },
      'watch-tick-ms': { type: 'string', default: '40' },
      rounds: { type: 'string', default: '1' },
    },
  });
  const part = values.part === 'watch' || values.part === 'pipeline' ? values.part : 'both';
  const watchRows = Math.max(1, Math.min(500, Number(values['watch-rows']) || 200));
  const rounds = Math.max(1, Math.min(5, Number(values.rounds) || 1));
  const seconds = Math.max(2, Math.min(30, Number(values.seconds) || 5));
  const tickMs = Math.max(10, Math.min(1000, Number(values['tick-ms']) || 50));
  const steps = (values.steps ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0 && n <= 500);
  const name = '@playwright/test';
  const pw = (await import(name)) as Playwright;

  const watchTickMs = Math.max(10, Math.min(1000, Number(values['watch-tick-ms']) || 40));
  const watch = part === 'pipeline' ? null : await measureWatchlist(pw, watchRows, watchTickMs, seconds, rounds);
  const watchSummary = watch ? printWatch(watch, watchTickMs, seconds) : null;
  if (part === 'watch') {
    console.log(JSON.stringify({ suite: 'ticks', watchlist: watchSummary }));
    return;
  }
  const batched = await measureMode(pw, 'batched', steps, tickMs, seconds);
  const perTick = await measureMode(pw, 'per-tick', steps, tickMs, seconds);

  console.log(
    `watchlist of N instruments, paper market stepping every ${tickMs} ms; ${seconds} s per step; Chromium against the browser host`,
  );
  console.log(
    '| pipeline | N | broker ticks/s | bridge msgs/s | ticks/s in msgs | cells painted/s | frame p50 ms | p95 ms | p99 ms | kept up |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const s of [...batched, ...perTick]) {
    console.log(
      `| ${s.mode} | ${s.instruments} | ${s.offered.toFixed(0)} | ${s.messages.toFixed(1)} | ${s.ticks.toFixed(0)} | ${s.cells.toFixed(0)} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.keptUp ? 'yes' : 'no'} |`,
    );
  }
  const best = (xs: Sample[]): Sample | null =>
    xs.filter((s) => s.p95 <= FRAME_BUDGET_MS && s.keptUp).sort((a, b) => b.offered - a.offered)[0] ?? null;
  const b = best(batched);
  const p = best(perTick);
  const ratio = b && p ? b.offered / p.offered : null;
  console.log(
    `highest broker rate with frame p95 within one 60 Hz frame (no more than 5% frames dropped): batched ${b ? b.offered.toFixed(0) : 'none'} ticks/s, per-tick ${p ? p.offered.toFixed(0) : 'none'} ticks/s` +
      (ratio ? ` (×${ratio.toFixed(1)})` : ''),
  );
  console.log(
    JSON.stringify({
      suite: 'ticks',
      batched_ticks_per_s: b ? Math.round(b.offered) : 0,
      per_tick_ticks_per_s: p ? Math.round(p.offered) : 0,
      ratio: ratio ? Math.round(ratio * 10) / 10 : null,
      batched_p95_ms: b ? Math.round(b.p95 * 10) / 10 : null,
      per_tick_p95_ms: p ? Math.round(p.p95 * 10) / 10 : null,
      watchlist: watchSummary,
      top_step: {
        batched: batched.at(-1)
          ? {
              offered: Math.round(batched.at(-1)!.offered),
              p95: Math.round(batched.at(-1)!.p95 * 10) / 10,
              msgs_per_s: Math.round(batched.at(-1)!.messages),
            }
          : null,
        per_tick: perTick.at(-1)
          ? {
              offered: Math.round(perTick.at(-1)!.offered),
              p95: Math.round(perTick.at(-1)!.p95 * 10) / 10,
              msgs_per_s: Math.round(perTick.at(-1)!.messages),
            }
          : null,
      },
    }),
  );
}
