/**
 * `npm run bench -- windows [--counts 1,2,4] [--seconds 8] [--rows 200] [--tick-ms 40] [--rounds 1]
 *  [--window-query] [--unfocused] [--profile DIR] [--renderer-dir DIR]`
 *
 * What N windows of the desk cost main (docs/workstation.md §What a pop-out costs): for each
 * count in the same run, N pages of the app in Debian Chromium, each with the watchlist holding
 * `--rows` instruments ticking at the watchlist goal's load (the paper market stepping every 40 ms,
 * ~5 ticks a second per instrument, as `ticks --part watch`) and the chart, each on its own bridge
 * WebSocket to the browser host, as a pop-out is in the browser host.
 *
 * The host (`out/host.mjs`) runs as its own process against a paper broker in this one
 * (`--broker-url`), so the host's CPU is main's alone: its process's user + system time
 * (`/proc/<pid>/stat`, every thread: the loop, GC, libuv) and its main thread's
 * (`/proc/<pid>/task/<pid>/stat`) over the measured window, as a share of one core. Per page, as
 * in the ticks bench: rAF frame deltas (p50/p95/p99), and the `market.ticks` messages, their bytes
 * and the ticks inside them as the page's WebSocket receives them.
 *
 * Page k > 1 is a pop-out as the desk makes one — main opens a desk window with a watchlist and a
 * chart of its own (`desk.open` over the bridge, as the palette does) and the page loads as
 * `?window=wN`, the renderer's pop-out page drawing only those two panels. (`--window-query` is
 * what this was once optional under; it is accepted and changes nothing: two pages of the main
 * window cannot both be live, the newer takes the window over, docs/workstation.md.)
 *
 * `--unfocused`: each count is measured a second time with every window but the first told it
 * lost the focus (a `blur` event), which then draws prices once a second (docs/live-data.md
 * §Windows not focused): the same run's baseline is the count with every window focused.
 *
 * `--profile DIR`: a Chromium trace and CPU profile of the first (focused) window over each
 * measured window, written to DIR and summed by what its main thread did (`chromium-profile.ts`);
 * the profiler's own cost is in that run's figures, so compare profiled runs with each other.
 *
 * `--renderer-dir DIR`: the host serves another build of the renderer (`/work/…/out/renderer` of
 * an earlier commit), to compare two renderers against the same host and bench; the host's own
 * build (`out/renderer`) when absent.
 *
 * Prints a row per page and per count, the CPU ratios against one window, and a JSON summary last.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { startPaperBroker, type PaperBroker } from '../electron/paper';
import { startHost } from '../e2e/host-process';
import { startCpuProfile, type PhaseProfile } from './chromium-profile';
import { measuredWindow } from './measured-window';
import { brokerCounter, percentile, watchlistContext } from './ticks-bench';

/** One 60 Hz frame, read with a quarter frame of rAF jitter as the ticks bench reads it. */
const FRAME_MS = 1000 / 60;
const FRAME_BUDGET_MS = FRAME_MS * 1.25;
const CLK_TCK = 100; // Linux's USER_HZ: /proc times are in 1/100 s

interface PageSample {
  readonly frames: number[];
  readonly messages: number;
  readonly bytes: number;
  readonly ticks: number;
  readonly longMs: number;
}

interface CountSample {
  /** `live`: the app; `static`: the same pages with `market.ticks` swallowed at their bridge by the harness (the floor). */
  /** `unfocused`: live, with every window but the first told it lost the focus (a `blur` event). */
  readonly mode: 'live' | 'static' | 'unfocused';
  readonly windows: number;
  readonly round: number;
  readonly seconds: number;
  /** Ticks/s the broker sent for the watched instruments (counted on a socket of its own). */
  readonly offered: number;
  /** Main's CPU as a share of one core: the whole host process, and its main thread. */
  readonly cpu: number;
  readonly cpuMainThread: number;
  /** The browser's CPU (every page's renderer, the compositor, the browser process), a share of one core. */
  readonly browserCpu: number;
  /** The machine's 1-minute load average at the window's end (2 cores, shared). */
  readonly load: number;
  /** With `--profile`: the first window's trace and CPU profile over the measured window. */
  readonly profile: (PhaseProfile & { readonly stopSeconds: number }) | null;
  readonly pages: ReadonlyArray<{
    readonly p50: number;
    readonly p95: number;
    readonly p99: number;
    readonly ticksPerS: number;
    readonly messagesPerS: number;
    readonly bytesPerS: number;
    readonly bytesPerTick: number;
    readonly longMsPerS: number;
  }>;
}

/** utime + stime of a process (or one of its threads), in seconds. */
function cpuSeconds(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / CLK_TCK;
}

/** The processes under `root` (its children, theirs…), leaving out `skip` and everything under it. */
function descendants(root: number, skip: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    for (const c of children.get(pid) ?? []) {
      if (c === skip) continue;
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** CPU seconds of the browser's processes (every page's renderer, the GPU/compositor, the browser). */
function browserCpuSeconds(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += cpuSeconds(`/proc/${pid}/stat`);
    } catch {
      // exited
    }
  }
  return total;
}

/** Calls main over the browser host's bridge as a page does: `{ id, channel, payload }` → `{ id, result }`. */
async function bridgeCall(hostUrl: string, channel: string, payload: unknown): Promise<unknown> {
  const u = new URL(hostUrl);
  const ws = new WebSocket(`ws://${u.host}/bridge?key=${u.searchParams.get('key') ?? ''}`, {
    headers: { Origin: u.origin },
  });
  try {
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return await new Promise((resolve) => {
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as { id?: number; result?: { ok: boolean; data?: unknown } };
        if (m.id === 1) resolve(m.result);
      });
      ws.send(JSON.stringify({ id: 1, channel, payload }));
    });
  } finally {
    ws.close();
  }
}

/** A new desk window holding a watchlist and a chart of its own in colour group 1 (the main window's), as the palette opens them; its id. */
async function newDeskWindow(hostUrl: string): Promise<string> {
  const opened = (panel: string, to: string) =>
    bridgeCall(hostUrl, 'desk.open', {
      panel: { kind: panel, link: 'red', instrument: null, options: {} },
      to,
    }) as Promise<{
      ok: boolean;
      data?: { window: string };
    }>;
  const first = await opened('watchlist', 'new');
  const id = first.data?.window;
  if (!first.ok || id === undefined) throw new Error(`desk.open refused: ${JSON.stringify(first)}`);
  const chart = await opened('chart', id);
  if (!chart.ok) throw new Error(`desk.open refused: ${JSON.stringify(chart)}`);
  return id;
}

/** Opens one page: the main window's (`deskWindow` null) or a pop-out's (`?window=wN`). */
async function openWindow(
  browser: Browser,
  url: string,
  deskWindow: string | null,
  tokens: readonly number[],
  floor: boolean,
): Promise<Page> {
  const context = await watchlistContext(browser, tokens, floor);
  const page = await context.newPage();
  const u = new URL(url);
  if (deskWindow !== null) u.searchParams.set('window', deskWindow);
  try {
    await page.goto(u.toString());
    await page.getByText(/Connected to .+ as \S+/).waitFor({ timeout: 60_000 });
    await page.waitForFunction((n) => document.querySelectorAll('tr[data-watch-row]').length >= n, tokens.length, {
      timeout: 60_000,
    });
    return page;
  } catch (e) {
    // Which window's page did not come up, for the next one to look into; its context goes.
    await context.close();
    throw new Error(`the ${deskWindow === null ? 'main window' : `pop-out ${deskWindow}`}'s page: ${String(e)}`);
  }
}

/** Turns a page's probe off and reads what it counted. */
function readProbe(page: Page): Promise<PageSample> {
  return page.evaluate(() => {
    const probe = (
      window as unknown as {
        __probe: { frames: number[]; messages: number; bytes: number; ticks: number; longTasks: number[]; on: boolean };
      }
    ).__probe;
    probe.on = false;
    return {
      frames: probe.frames,
      messages: probe.messages,
      bytes: probe.bytes,
      ticks: probe.ticks,
      longMs: probe.longTasks.reduce((a, b) => a + b, 0),
    };
  });
}

async function measureCount(
  browser: Browser,
  hostUrl: string,
  hostPid: number,
  paper: PaperBroker,
  tokens: readonly number[],
  windows: number,
  round: number,
  seconds: number,
  windowQuery: boolean,
  mode: CountSample['mode'],
  profileDir: string | null,
): Promise<CountSample> {
  const pages: Page[] = [];
  try {
    // The pop-outs' desk windows are made before any page opens: `bridgeCall`'s socket names no
    // window, so it claims the main window, and a newer claim closes the main page's socket
    // (docs/workstation.md §Which page draws which window) — after it, that page took no ticks.
    const popouts: string[] = [];
    for (let k = 1; k < windows; k += 1) popouts.push(await newDeskWindow(hostUrl));
    // The pop-outs' pages open before the main window's: the main window's page opens every
    // pop-out no page draws yet itself (`window.open`, use-popout-opener.ts), and those pages
    // would tick at full rate, never told they lost the focus, in the main page's own renderer
    // process — its main thread drawing four pages while the bench measured one.
    for (const deskWindow of popouts)
      pages.push(await openWindow(browser, hostUrl, deskWindow, tokens, mode === 'static'));
    pages.unshift(await openWindow(browser, hostUrl, null, tokens, mode === 'static'));
    // Every window but the first loses the focus, as when a trader works in one of them.
    if (mode === 'unfocused')
      await Promise.all(pages.slice(1).map((p) => p.evaluate(() => window.dispatchEvent(new Event('blur')))));
    await new Promise((r) => setTimeout(r, 2_000)); // warm up: subscriptions, first render of every row
    const counter = await brokerCounter(paper.url, tokens);
    const on = (p: Page, value: boolean) =>
      p.evaluate((v) => ((window as unknown as { __probe: { on: boolean } }).__probe.on = v), value);
    const chromium = descendants(process.pid, hostPid);
    let before = 0;
    let browser0 = 0;
    let cpu0 = 0;
    let thread0 = 0;
    let offered = 0;
    let browserCpu = 0;
    let cpu = 0;
    let cpuMainThread = 0;
    // The probes are read as the window ends, before the profiler stops (measured-window.ts).
    const {
      probes: got,
      seconds: wall,
      profile,
      profilerStopSeconds,
    } = await measuredWindow(seconds * 1000, {
      ...(profileDir && pages[0]
        ? { profile: () => startCpuProfile(pages[0] as Page, profileDir, `w${windows}-${mode}-r${round + 1}`) }
        : {}),
      probesOn: async () => void (await Promise.all(pages.map((p) => on(p, true)))),
      probesOff: () => Promise.all(pages.map(readProbe)),
      started: () => {
        before = counter.count();
        browser0 = browserCpuSeconds(chromium);
        cpu0 = cpuSeconds(`/proc/${hostPid}/stat`);
        thread0 = cpuSeconds(`/proc/${hostPid}/task/${hostPid}/stat`);
      },
      ended: (s) => {
        cpu = (cpuSeconds(`/proc/${hostPid}/stat`) - cpu0) / s;
        cpuMainThread = (cpuSeconds(`/proc/${hostPid}/task/${hostPid}/stat`) - thread0) / s;
        browserCpu = (browserCpuSeconds(chromium) - browser0) / s;
        offered = (counter.count() - before) / s;
      },
      wait: (ms) => new Promise((r) => setTimeout(r, ms)),
      now: () => performance.now(),
    });
    const load = loadavg()[0] ?? Number.NaN;
    counter.close();
    const extra = (pages[0]?.context().pages().length ?? 1) - 1;
    if (extra > 0) throw new Error(`the main window's page opened ${extra} pop-out(s) of its own`);
    return {
      mode,
      windows,
      round,
      seconds: wall,
      offered,
      cpu,
      cpuMainThread,
      browserCpu,
      load,
      profile: profile ? { ...profile, stopSeconds: profilerStopSeconds } : null,
      pages: got.map((g) => {
        const frames = g.frames.slice().sort((a, b) => a - b);
        return {
          p50: percentile(frames, 0.5),
          p95: percentile(frames, 0.95),
          p99: percentile(frames, 0.99),
          ticksPerS: g.ticks / wall,
          messagesPerS: g.messages / wall,
          bytesPerS: g.bytes / wall,
          bytesPerTick: g.ticks > 0 ? g.bytes / g.ticks : Number.NaN,
          longMsPerS: g.longMs / wall,
        };
      }),
    };
  } finally {
    await Promise.all(pages.map((p) => p.context().close()));
    if (windowQuery) {
      // The pop-outs go back to the main window, so the next count starts from the same desk.
      const desk = (await bridgeCall(hostUrl, 'desk.view', undefined)) as {
        data?: { desk: { windows: Array<{ id: string }>; panels: Array<{ id: string; kind: string }> } };
      };
      for (const w of desk.data?.desk.windows.slice(1) ?? []) await bridgeCall(hostUrl, 'desk.close', { window: w.id });
      for (const p of desk.data?.desk.panels ?? [])
        if (p.id !== p.kind) await bridgeCall(hostUrl, 'desk.remove', { panel: p.id });
    }
  }
}

/** The median of xs (of an even count, the higher middle: conservative). */
function median(xs: readonly number[]): number {
  const v = xs.filter((n) => Number.isFinite(n)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)]! : Number.NaN;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      counts: { type: 'string', default: '1,2,4' },
      seconds: { type: 'string', default: '8' },
      rows: { type: 'string', default: '200' },
      'tick-ms': { type: 'string', default: '40' },
      rounds: { type: 'string', default: '1' },
      'window-query': { type: 'boolean', default: true },
      floor: { type: 'boolean', default: false },
      unfocused: { type: 'boolean', default: false },
      profile: { type: 'string', default: '' },
      'renderer-dir': { type: 'string', default: '' },
    },
    strict: true,
  });
  const counts = values.counts
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0 && n <= 8);
  const seconds = Math.max(2, Math.min(60, Number(values.seconds) || 8));
  const rows = Math.max(1, Math.min(500, Number(values.rows) || 200));
  const tickMs = Math.max(10, Math.min(1000, Number(values['tick-ms']) || 40));
  const rounds = Math.max(1, Math.min(5, Number(values.rounds) || 1));
  const windowQuery = values['window-query'];
  const profileDir = values.profile ? values.profile : null;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const modes: Array<CountSample['mode']> = [
    ...(values.floor ? (['static'] as const) : []),
    'live',
    ...(values.unfocused ? (['unfocused'] as const) : []),
  ];

  const dir = await mkdtemp(join(tmpdir(), 'td-windows-'));
  const paper = await startPaperBroker({ port: 0, tickIntervalMs: tickMs, rate: { perSecond: 1_000, burst: 1_000 } });
  let host: Awaited<ReturnType<typeof startHost>> | null = null;
  let browser: Browser | null = null;
  const samples: CountSample[] = [];
  try {
    const rendererDir = values['renderer-dir'] ? ['--renderer-dir', values['renderer-dir']] : [];
    host = await startHost(['--broker-url', paper.url, '--api-key', 'paper', ...rendererDir], {
      dataDir: dir,
      env: { TRADEDESK_API_SECRET: 'paper' },
    });
    const hostPid = host.child.pid;
    if (hostPid === undefined) throw new Error('the host has no pid');
    // The first `rows` instruments of the broker's list, as the ticks bench's watchlist.
    const login = (await (
      await fetch(`${paper.url}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
      })
    ).json()) as { access_token: string };
    const listed = (await (
      await fetch(`${paper.url}/instruments`, { headers: { authorization: `Bearer ${login.access_token}` } })
    ).json()) as { instruments: Array<{ instrument_token: number }> };
    const tokens = listed.instruments.slice(0, rows).map((i) => i.instrument_token);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    for (let r = 0; r < rounds; r += 1)
      for (const n of counts)
        for (const mode of modes)
          samples.push(
            await measureCount(
              browser,
              host.handle.url,
              hostPid,
              paper,
              tokens,
              n,
              r,
              seconds,
              windowQuery,
              mode,
              profileDir,
            ),
          );
  } finally {
    await browser?.close();
    await host?.stop();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  }
  report(samples, { rows, tickMs, seconds, windowQuery, renderer: values['renderer-dir'] || 'out/renderer' });
}

function report(
  samples: readonly CountSample[],
  opt: { rows: number; tickMs: number; seconds: number; windowQuery: boolean; renderer: string },
): void {
  const f = (v: number, d = 1): string => (Number.isFinite(v) ? v.toFixed(d) : '–');
  console.log(
    `\n${opt.rows}-row watchlist and the chart per window, paper market stepping every ${opt.tickMs} ms; ${opt.seconds} s per count; ` +
      `pages ${opt.windowQuery ? 'k > 1 as ?window=wk' : "all the app's own page"}; main = the host process (its own, the paper broker runs in the bench's); renderer ${opt.renderer}`,
  );
  console.log(
    '| page | windows | round | window | broker ticks/s | ticks/s at page | tick msgs/s | KB/s | bytes per tick | frame p50 ms | p95 ms | p99 ms | long tasks ms/s | main CPU (process) | main CPU (main thread) | Chromium CPU | load avg |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const s of samples)
    s.pages.forEach((p, k) =>
      console.log(
        `| ${s.mode} | ${s.windows} | ${s.round + 1} | ${k + 1} | ${f(s.offered, 0)} | ${f(p.ticksPerS, 0)} | ${f(p.messagesPerS)} | ${f(p.bytesPerS / 1000)} | ${f(p.bytesPerTick)} | ${f(p.p50)} | ${f(p.p95)} | ${f(p.p99)} | ${f(p.longMsPerS)} | ${k === 0 ? `${f(s.cpu * 100)}%` : ''} | ${k === 0 ? `${f(s.cpuMainThread * 100)}%` : ''} | ${k === 0 ? `${f(s.browserCpu * 100, 0)}%` : ''} | ${k === 0 ? f(s.load) : ''} |`,
      ),
    );
  for (const s of samples) {
    if (!s.profile) continue;
    console.log(
      `\n${s.mode}, ${s.windows} window(s), round ${s.round + 1}: the first window profiled (${s.profile.files.join(', ')}), ${f(s.profile.wallMs, 0)} ms; the profiler took ${f(s.profile.stopSeconds, 1)} s to stop, after the probes were read:`,
    );
    console.log(`  main thread (ms): ${JSON.stringify(s.profile.mainThread)}`);
    for (const t of s.profile.top) console.log(`  ${f(t.ms)} ms (${t.share}%)  ${t.fn}`);
  }
  const counts = [...new Set(samples.map((s) => s.windows))];
  const r2 = (v: number): number | null => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);
  /** Medians over rounds of one count in one mode. */
  const figures = (n: number, mode: CountSample['mode']) => {
    const xs = samples.filter((s) => s.windows === n && s.mode === mode);
    return {
      cpu: median(xs.map((s) => s.cpu)),
      cpuMainThread: median(xs.map((s) => s.cpuMainThread)),
      browserCpu: median(xs.map((s) => s.browserCpu)),
      // The worst window of each run, then the median over rounds.
      worstP95: median(xs.map((s) => Math.max(...s.pages.map((p) => p.p95)))),
      bytesPerTick: median(xs.flatMap((s) => s.pages.map((p) => p.bytesPerTick))),
      bytesPerSPerWindow: median(xs.flatMap((s) => s.pages.map((p) => p.bytesPerS))),
      offered: median(xs.map((s) => s.offered)),
    };
  };
  const one = figures(1, 'live');
  const hasFloor = samples.some((s) => s.mode === 'static');
  const summary: Record<string, unknown> = { suite: 'windows', rows: opt.rows, tick_ms: opt.tickMs };
  for (const n of counts) {
    const c = figures(n, 'live');
    const floor = hasFloor ? figures(n, 'static') : null;
    const blurred = samples.filter((s) => s.windows === n && s.mode === 'unfocused');
    if (blurred.length > 0 && n > 1) {
      const focusedP95 = median(blurred.map((s) => s.pages[0]?.p95 ?? Number.NaN));
      const othersP95 = median(blurred.map((s) => Math.max(...s.pages.slice(1).map((p) => p.p95))));
      console.log(
        `${n} window(s), all but the first unfocused: the focused window's frame p95 ${f(focusedP95)} ms, the worst unfocused one's ${f(othersP95)} ms; Chromium ${f(median(blurred.map((s) => s.browserCpu)) * 100, 0)}% of a core`,
      );
      Object.assign(summary, {
        [`w${n}_unfocused_focused_p95_ms`]: r2(focusedP95),
        [`w${n}_unfocused_others_worst_p95_ms`]: r2(othersP95),
        [`w${n}_unfocused_browser_cpu_pct`]: r2(median(blurred.map((s) => s.browserCpu)) * 100),
      });
    }
    const ratio = c.cpu / one.cpu;
    console.log(
      `${n} window(s): main CPU ${f(c.cpu * 100)}% of a core (main thread ${f(c.cpuMainThread * 100)}%)${n !== 1 ? `, ×${f(ratio, 2)} one window's` : ''}; Chromium ${f(c.browserCpu * 100, 0)}% of a core; worst window's frame p95 ${f(c.worstP95)} ms${floor ? ` (static floor ${f(floor.worstP95)} ms)` : ''}; ${f(c.bytesPerTick)} bytes per tick per window, ${f(c.bytesPerSPerWindow / 1000)} KB/s per window`,
    );
    Object.assign(summary, {
      [`w${n}_main_cpu_pct`]: r2(c.cpu * 100),
      [`w${n}_main_thread_cpu_pct`]: r2(c.cpuMainThread * 100),
      [`w${n}_cpu_over_one`]: r2(ratio),
      [`w${n}_browser_cpu_pct`]: r2(c.browserCpu * 100),
      [`w${n}_worst_p95_ms`]: r2(c.worstP95),
      ...(floor ? { [`w${n}_static_worst_p95_ms`]: r2(floor.worstP95) } : {}),
      [`w${n}_bytes_per_tick`]: r2(c.bytesPerTick),
      [`w${n}_broker_ticks_per_s`]: Math.round(c.offered),
    });
  }
  const most = figures(Math.max(...counts), 'live');
  const live = samples.filter((s) => s.mode === 'live');
  Object.assign(summary, {
    goal_cpu_at_most_2x: most.cpu <= 2 * one.cpu,
    goal_every_p95_within_frame: live.every((s) => s.pages.every((p) => p.p95 <= FRAME_BUDGET_MS)),
  });
  console.log(JSON.stringify(summary));
}
