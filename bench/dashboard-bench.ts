/**
 * `npm run bench -- dashboard [--orders N] [--changes N] [--interval-ms MS] [--rounds N]
 *  [--scroll-frames N] [--placements N] [--modes virtual,plain]`
 *
 * The dashboard in Debian Chromium against the browser host (out/host.mjs), with 10,000
 * working orders on its embedded paper broker and 1% of them changing per poll interval
 * (100 modify/cancel per second by default, sent with the broker's own tokens, not the app's).
 * Measured twice in the same run, on the same host and orders: the real (virtualized) blotter
 * and the same blotter rendering every row (`?blotter=plain`, the baseline in
 * renderer/features/orders/blotter.tsx). Both modes and the paint probe exist only in the bench's
 * own build of the renderer (`npm run build:bench-renderer` → out/bench/renderer, which the host
 * serves with `--renderer-dir`); the app's build has neither. The churn runs through every phase,
 * as it would for a trader. Per mode:
 *
 * - update → paint: each order-data update (poll reply or pushed order) from react-query storing
 *   it to the paint of the frame that shows it (renderer/features/orders/blotter-paint-probe.ts);
 * - poll reply → paint: the same, but from the `orders.sync` reply's arrival on the page's
 *   WebSocket, so JSON and zod parsing of what the poll carried are included;
 * - main-thread long tasks (ms per second) over the update window: how busy the page was;
 * - scroll frames: requestAnimationFrame deltas while the blotter is scrolled 3 rows per frame;
 * - click → acknowledged: a real click on "Place order" (the click event's own timestamp) to
 *   the paint of the frame showing the new order id in the ticket.
 *
 * Then, in the virtualized mode only (the app's own blotter), the price ladder's phase
 * (bench/dashboard-ladder.ts): its click → acknowledged beside the ticket's, and its repaint at
 * 20 depth updates a second beside the Depth tab's.
 *
 * Absolute figures are noisy on a shared 2-core machine; the plain/virtual ratios are the point.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startPaperBroker } from '../electron/paper';
import { chromiumLaunchOptions } from '../e2e/chromium';
import { startHost } from '../e2e/host-process';
import { startCpuProfile, type PhaseProfile } from './chromium-profile';
import { describeBusy, startBusyLoad, type BusyLoad, type BusyReport } from './busy-load';
import { emptyLadder, measureLadder, type LadderResult, type PageClickParts } from './dashboard-ladder';

// performance.memory to the byte, not bucketed: the page's JS heap is one of the figures.
const CHROMIUM_EXTRA_ARGS = ['--enable-precise-memory-info'];
const MODES = ['virtual', 'plain'] as const;
type Mode = (typeof MODES)[number];
const PAINT_MARK = 'blotter-painted'; // renderer/features/orders/blotter-paint-probe.ts
const ROW_PX = 26; // the blotter's fixed row height
/** A saturated page must not stretch a phase (placements, scrolling) past this. */
const PHASE_CAP_MS = 30_000;
/** …and loading the page with its orders must not take longer than this. */
const LOAD_CAP_MS = 90_000;

interface Options {
  orders: number;
  changes: number;
  intervalMs: number;
  rounds: number;
  scrollFrames: number;
  placements: number;
  modes: Mode[];
  /** Writes a Chromium trace and a CPU profile of the ladder's repaint windows here. */
  profileDir: string | null;
  /** Busy processes beside the page while it is measured (`busy-load.ts`). */
  busy: number;
  /** Only the first paints (the main window's, a second window's): the later phases are skipped. */
  firstPaintOnly: boolean;
  /**
   * The bench build of the renderer to serve (default `out/bench/renderer`): another build (a
   * baseline's) is measured against the same host in the same way.
   */
  rendererDir: string;
}

function options(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      orders: { type: 'string', default: '10000' },
      changes: { type: 'string', default: '' },
      'interval-ms': { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '10' },
      'scroll-frames': { type: 'string', default: '240' },
      placements: { type: 'string', default: '30' },
      modes: { type: 'string', default: MODES.join(',') },
      profile: { type: 'string', default: '' },
      busy: { type: 'string', default: '0' },
      'first-paint-only': { type: 'boolean', default: false },
      'renderer-dir': { type: 'string', default: 'out/bench/renderer' },
    },
    strict: true,
  });
  const int = (name: string, v: string, min: number, max: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in [${min}, ${max}]`);
    return n;
  };
  const orders = int('orders', values.orders, 100, 50_000);
  return {
    orders,
    // 1% of the orders per poll interval unless told otherwise.
    changes: values.changes ? int('changes', values.changes, 0, 1000) : Math.round(orders / 100),
    intervalMs: int('interval-ms', values['interval-ms'], 100, 10_000),
    rounds: int('rounds', values.rounds, 1, 120),
    scrollFrames: int('scroll-frames', values['scroll-frames'], 30, 2000),
    placements: int('placements', values.placements, 1, 200),
    modes: values.modes.split(',').map((m) => {
      if (!(MODES as readonly string[]).includes(m)) throw new Error(`--modes takes ${MODES.join(', ')}`);
      return m as Mode;
    }),
    profileDir: values.profile ? values.profile : null,
    busy: int('busy', values.busy, 0, 16),
    firstPaintOnly: values['first-paint-only'],
    rendererDir: values['renderer-dir'],
  };
}

function percentile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A paper broker REST client on one keep-alive pool: just what seeding and churning need. */
class PaperRest {
  readonly #pool: Pool;
  readonly #prefix: string;
  readonly #control: string;

  /** `control`: the control secret the host printed, for /_control requests. */
  public constructor(baseUrl: string, control = '') {
    this.#control = control;
    const u = new URL(baseUrl);
    this.#pool = new Pool(u.origin, { connections: 16 });
    this.#prefix = u.pathname;
  }

  public async call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<{ status: number; json: unknown; retryAfter: number }> {
    const res = await this.#pool.request({
      method,
      path: `${this.#prefix}${path}`,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(path.startsWith('/_control') ? { 'x-paper-control': this.#control } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      json: text ? (JSON.parse(text) as unknown) : null,
      retryAfter: Number(res.headers['retry-after'] ?? 1),
    };
  }

  /** A fresh trade token (each has its own rate-limit buckets); waits out per-address 429s. */
  public async login(): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const r = await this.call('POST', '/session', null, { api_key: 'paper', api_secret: 'paper' });
      if (r.status === 201) return (r.json as { access_token: string }).access_token;
      if (r.status !== 429) throw new Error(`paper login → HTTP ${r.status}`);
      await sleep(r.retryAfter * 1000);
    }
    throw new Error('paper login kept answering 429');
  }

  public close(): Promise<void> {
    return this.#pool.close();
  }
}

interface Seeded {
  readonly id: string;
  readonly price: number;
  readonly tick: number;
}

interface Instrument {
  instrument_token: number;
  tradingsymbol: string;
  instrument_type: string;
  last_price: number;
  tick_size: number;
  lot_size: number;
}

/** A BUY limit 8% under the opening price: inside the day's band, far from where the market trades. */
const restingPrice = (i: Instrument): number =>
  Math.round(Math.ceil((i.last_price * 0.92) / i.tick_size) * i.tick_size * 100) / 100;

/**
 * Writes `count` working LIMIT orders into `<dataDir>/paper` through a throwaway paper broker
 * with the host's defaults (same seed, so the same instruments and prices) but no rate limit
 * and no ticks. The host's embedded broker replays that journal at start, so seeding costs one
 * local POST per order instead of 10 placements/s through the app's limits.
 */
export async function seedOrders(
  dataDir: string,
  count: number,
): Promise<{ orders: Seeded[]; cheapest: Instrument; ms: number }> {
  const t0 = performance.now();
  const broker = await startPaperBroker({
    port: 0,
    dataDir: join(dataDir, 'paper'),
    tickIntervalMs: 0,
    rate: { perSecond: 1e9, burst: 1e9 },
  });
  const rest = new PaperRest(broker.url);
  try {
    const token = await rest.login();
    const listed = (await rest.call('GET', '/instruments?exchange=NSE', token)).json as { instruments: Instrument[] };
    // The cheapest equities, so 10,000 one-share orders block little of the ₹10 lakh margin.
    const pool = listed.instruments
      .filter((i) => i.instrument_type === 'EQ' && i.lot_size === 1)
      .sort((a, b) => a.last_price - b.last_price)
      .slice(0, 12);
    const cheapest = pool[0];
    if (!cheapest) throw new Error('the paper broker lists no NSE equity');
    const orders: Seeded[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        const n = next++;
        const i = pool[n % pool.length] as Instrument;
        const price = restingPrice(i);
        const r = await rest.call('POST', '/orders', token, {
          exchange: 'NSE',
          tradingsymbol: i.tradingsymbol,
          transaction_type: 'BUY',
          quantity: 1,
          order_type: 'LIMIT',
          price,
          product: 'MIS',
          validity: 'DAY',
          client_order_id: `seed-${n}`,
        });
        const body = r.json as { order_id?: string; status?: string };
        if (r.status !== 201 || body.status !== 'OPEN' || !body.order_id)
          throw new Error(`seeding order ${n} → HTTP ${r.status} ${JSON.stringify(body)}`);
        orders.push({ id: body.order_id, price, tick: i.tick_size });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    return { orders, cheapest, ms: performance.now() - t0 };
  } finally {
    await rest.close();
    await broker.close();
  }
}

/**
 * 1% of the orders changing per poll: every interval, `perRound` random working orders are
 * modified (price one tick down or back up) or, one in ten, cancelled. Sent over the broker's
 * REST API with tokens of its own, spread so none nears the per-token limit, so the app's
 * session and rate budget are untouched and its only view of the churn is what it polls and
 * what the stream pushes.
 */
class Churn {
  public sent = 0;
  public failed = 0;
  public late = 0;
  readonly #working: Seeded[];
  readonly #lowered = new Set<string>();
  #running = false;
  #paused = false;
  #loop: Promise<void> | null = null;
  /** Time spent paused, so the reported rate is the rate while changing. */
  #pausedMs = 0;
  #pausedAt = 0;

  public constructor(
    private readonly rest: PaperRest,
    private readonly tokens: readonly string[],
    orders: readonly Seeded[],
    private readonly perRound: number,
    private readonly intervalMs: number,
  ) {
    this.#working = [...orders];
  }

  public start(): void {
    this.#running = true;
    this.#loop = (async () => {
      let k = 0;
      while (this.#running) {
        if (this.#paused) {
          await sleep(this.intervalMs);
          continue;
        }
        const t0 = performance.now();
        await Promise.all(Array.from({ length: this.perRound }, () => this.#changeOne(k++)));
        const left = this.intervalMs - (performance.now() - t0);
        if (left > 0) await sleep(left);
        else this.late += 1;
      }
    })();
  }

  /** Stops changing orders (for the idle-poll phase) until `resume`. */
  public pause(): void {
    this.#paused = true;
    this.#pausedAt = Date.now();
  }

  public resume(): void {
    this.#paused = false;
    this.#pausedMs += Date.now() - this.#pausedAt;
  }

  public get pausedMs(): number {
    return this.#pausedMs;
  }

  public async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
  }

  async #changeOne(k: number): Promise<void> {
    const at = Math.floor(Math.random() * this.#working.length);
    const o = this.#working[at];
    if (!o) return;
    const token = this.tokens[k % this.tokens.length] as string;
    this.sent += 1;
    let r: { status: number };
    if (k % 10 === 9) {
      this.#working.splice(at, 1);
      r = await this.rest.call('DELETE', `/orders/${o.id}`, token);
    } else {
      const lowered = this.#lowered.has(o.id);
      if (lowered) this.#lowered.delete(o.id);
      else this.#lowered.add(o.id);
      const price = Math.round((lowered ? o.price : o.price - o.tick) * 100) / 100;
      r = await this.rest.call('PATCH', `/orders/${o.id}`, token, { price });
    }
    if (r.status !== 200) this.failed += 1;
  }
}

/**
 * Installed before the app's scripts: notes when each `orders.sync` reply (the page's poll of
 * main's order book) arrives on the bridge WebSocket (matched by request id) and its size, and
 * every long task, for the page to hand back.
 */
function pageTaps(names: { readonly mark: string; readonly log: string }): void {
  const w = window as unknown as {
    __bench: {
      replies: Array<{ at: number; bytes: number }>;
      longTasks: Array<{ start: number; duration: number }>;
      places: Array<{ sent: number; replied: number | null }>;
      bridgeOpen: number | null;
      firstSync: { sent: number; replied: number | null } | null;
      /** When each `market.ticks` event arrived (the ladder's repaint pairs its paints with them). */
      ticks: number[];
      clickParts: typeof clickParts;
    };
  };
  /**
   * A click seen on screen (the ticket's or the ladder's): waits for the paint of the frame
   * showing it, and splits the time from the click's own timestamp `from` into the parts around
   * the first `orders.place` call after it (`places[placeIndex]`).
   */
  function clickParts(
    from: number,
    placeIndex: number,
  ): Promise<{ ms: number; toSend: number; roundTrip: number; toPaint: number }> {
    return new Promise((resolve) => {
      requestAnimationFrame(() => {
        const after = new MessageChannel();
        after.port1.onmessage = () => {
          const painted = performance.now();
          const place = w.__bench.places[placeIndex];
          const replied = place?.replied ?? Number.NaN;
          resolve({
            ms: painted - from,
            toSend: (place?.sent ?? Number.NaN) - from,
            roundTrip: replied - (place?.sent ?? Number.NaN),
            toPaint: painted - replied,
          });
        };
        after.port2.postMessage(null);
      });
    });
  }
  w.__bench = { replies: [], longTasks: [], places: [], bridgeOpen: null, firstSync: null, ticks: [], clickParts };
  const channels = new Map<number, string>();
  const placing = new Map<number, { sent: number; replied: number | null }>();
  const Native = window.WebSocket;
  class Tapped extends Native {
    public constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('open', (e) => (w.__bench.bridgeOpen ??= e.timeStamp), { once: true });
      // Added before the app sets onmessage, so it runs first for every message.
      this.addEventListener('message', (e: MessageEvent) => {
        if (typeof e.data !== 'string') return;
        if (e.data.startsWith('{"event":"market.ticks"')) w.__bench.ticks.push(e.timeStamp);
        const m = /^\{"id":(\d+),/.exec(e.data.slice(0, 24));
        if (!m) return;
        const id = Number(m[1]);
        if (channels.get(id) === 'orders.sync') {
          w.__bench.replies.push({ at: e.timeStamp, bytes: e.data.length });
          const first = w.__bench.firstSync;
          if (first && first.replied === null) first.replied = e.timeStamp;
        }
        const place = placing.get(id);
        if (place) place.replied = e.timeStamp;
        placing.delete(id);
        channels.delete(id);
      });
    }
    public override send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
      if (typeof data === 'string') {
        const m = /^\{"id":(\d+),"channel":"([^"]+)"/.exec(data);
        if (m) channels.set(Number(m[1]), m[2] ?? '');
        if (m?.[2] === 'orders.sync') w.__bench.firstSync ??= { sent: performance.now(), replied: null };
        if (m?.[2] === 'orders.place') {
          const place = { sent: performance.now(), replied: null };
          placing.set(Number(m[1]), place);
          w.__bench.places.push(place);
        }
      }
      super.send(data);
    }
  }
  window.WebSocket = Tapped;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // The first paint is told to the bench as a console message (FIRST_PAINT_LOG; the blotter's
  // probe mark, PAINT_MARK): waiting for it in the page instead would run Playwright's own
  // script there, compiled and polled beside the first render it times.
  const paints = new PerformanceObserver((list) => {
    if (!list.getEntries().some((e) => e.name === names.mark)) return;
    paints.disconnect();
    console.debug(names.log);
  });
  paints.observe({ type: 'mark' });
}

/** What pageTaps logs when the blotter's first paint mark is set. */
const FIRST_PAINT_LOG = 'bench:first-paint';
/** pageTaps runs in the page, so the names it needs are passed to it. */
const TAP_NAMES = { mark: PAINT_MARK, log: FIRST_PAINT_LOG };

/** Each click's parts (ClickSample), in click order. */
interface ClickParts {
  toSend: number[];
  roundTrip: number[];
  toPaint: number[];
}

interface PaintSample {
  data: number;
  committed: number;
  frame: number;
  painted: number;
}

/** Where a first paint's time went, each from navigation start (see ModeResult.firstPaintParts). */
interface FirstPaintParts {
  /** The last of the page's scripts and styles asked for before its code ran has arrived (Resource Timing). */
  assetsHere: number;
  codeRun: number;
  /** The app's own marks (renderer/start.tsx): its code has run; React committed its first render. NaN in a build without them. */
  appCodeRun: number;
  firstRender: number;
  bridgeOpen: number;
  syncSent: number;
  syncReplied: number;
}

const NO_FIRST_PAINT: { ms: number; parts: FirstPaintParts } = {
  ms: Number.NaN,
  parts: {
    assetsHere: Number.NaN,
    codeRun: Number.NaN,
    appCodeRun: Number.NaN,
    firstRender: Number.NaN,
    bridgeOpen: Number.NaN,
    syncSent: Number.NaN,
    syncReplied: Number.NaN,
  },
};

/**
 * Loads the desk in `page` (its taps installed) and returns navigation start → the paint after
 * the first list commits (a busy book's first page, docs/live-data.md §The first screen first),
 * with its parts.
 */
async function firstPaint(
  page: Page,
  url: string,
  left: () => number,
): Promise<{ ms: number; parts: FirstPaintParts }> {
  // Nothing of the bench's runs in the page until it has painted (pageTaps tells it on the
  // console): a locator or `waitForFunction` here would compile and poll Playwright's script in
  // the page beside the very render being timed.
  const painted = page.waitForEvent('console', { predicate: (m) => m.text() === FIRST_PAINT_LOG, timeout: left() });
  painted.catch(() => undefined); // a failed goto is the error to report
  await page.goto(url, { timeout: left() });
  await painted;
  const ms = await page.evaluate(
    (m) => ((performance.getEntriesByName(m)[0] as PerformanceMark).detail as PaintSample).painted,
    PAINT_MARK,
  );
  await page
    .getByRole('status')
    .filter({ hasText: /Connected to/ })
    .first()
    .waitFor({ timeout: left() });
  const parts = await page.evaluate(() => {
    const b = (
      window as unknown as {
        __bench: { bridgeOpen: number | null; firstSync: { sent: number; replied: number | null } | null };
      }
    ).__bench;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const mark = (name: string): number => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN;
    const codeRun = nav?.domContentLoadedEventStart ?? Number.NaN;
    const assets = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (r) => r.startTime < codeRun && /\.(js|css)$/.test(new URL(r.name).pathname),
    );
    return {
      assetsHere: assets.length > 0 ? Math.max(...assets.map((r) => r.responseEnd)) : Number.NaN,
      codeRun,
      appCodeRun: mark('desk:code-run'),
      firstRender: mark('desk:first-render'),
      bridgeOpen: b.bridgeOpen ?? Number.NaN,
      syncSent: b.firstSync?.sent ?? Number.NaN,
      syncReplied: b.firstSync?.replied ?? Number.NaN,
    };
  });
  return { ms, parts };
}

interface ModeResult {
  mode: Mode;
  firstPaintMs: number;
  /**
   * Where the first paint's time went, each from navigation start: the page's code run
   * (DOMContentLoaded: module scripts are evaluated before it), the bridge's socket open, the
   * first `orders.sync` sent and its reply arrived.
   */
  firstPaintParts: FirstPaintParts;
  /** With `--profile`: the trace and CPU profile from navigation to the first paint. */
  firstPaintProfile?: PhaseProfile;
  /** A second window's first paint, opened once the first holds the whole book (same browser, cache warm). */
  secondWindow: { ms: number; parts: FirstPaintParts };
  /** Navigation start → the blotter holds the whole book (no "Loading N of M" left). */
  wholeBookMs: number;
  updates: number[];
  pollToPaint: number[];
  replyMb: number;
  repliesPerS: number;
  longTaskMsPerS: number;
  longTaskMaxMs: number;
  windowS: number;
  scroll: number[];
  clicks: number[];
  clickParts: ClickParts;
  clickErrors: number;
  /** Bytes of the page's order polls once nothing changes (the churn paused): the median reply. */
  idleReplyBytes: number;
  /** The first orders.sync reply (the whole book), bytes. */
  firstReplyBytes: number;
  /** The page's JS heap and the host's RSS (main + embedded paper broker), MB, at the start and end of the update window. */
  heapMb: [number, number];
  rssMb: [number, number];
  /** The price ladder's phase (the virtualized mode only; empty in the other). */
  ladder: LadderResult;
}

async function collectPaints(page: Page): Promise<{
  samples: PaintSample[];
  replies: Array<{ at: number; bytes: number }>;
  longTasks: Array<{ start: number; duration: number }>;
  now: number;
}> {
  return page.evaluate((mark) => {
    const w = window as unknown as {
      __bench: { replies: Array<{ at: number; bytes: number }>; longTasks: Array<{ start: number; duration: number }> };
    };
    const samples = performance.getEntriesByName(mark).map((e) => (e as PerformanceMark).detail as PaintSample);
    performance.clearMarks(mark);
    const out = { samples, replies: w.__bench.replies, longTasks: w.__bench.longTasks, now: performance.now() };
    w.__bench.replies = [];
    w.__bench.longTasks = [];
    return out;
  }, PAINT_MARK);
}

/** Each orders.sync reply → the first paint sample whose data landed at or after it. */
function pollToPaint(samples: readonly PaintSample[], replies: ReadonlyArray<{ at: number }>): number[] {
  const out: number[] = [];
  const sorted = [...samples].sort((a, b) => a.data - b.data);
  let j = 0;
  for (const r of [...replies].sort((a, b) => a.at - b.at)) {
    // dataUpdatedAt is whole milliseconds: allow it to read up to 1 ms before the reply.
    while (j < sorted.length && (sorted[j] as PaintSample).data < r.at - 1) j += 1;
    const s = sorted[j];
    if (s && s.data - r.at < 2000) {
      out.push(s.painted - r.at);
      j += 1;
    }
  }
  return out;
}

/** rAF deltas while scrolling 3 rows per frame, for `frames` frames or `capMs`, whichever ends first. */
async function scrollFrames(page: Page, frames: number, capMs: number): Promise<number[]> {
  return page.evaluate(
    ({ frames, step, capMs }) =>
      new Promise<number[]>((resolve) => {
        const el = document.querySelector<HTMLElement>('[data-testid="orders-scroll"]');
        if (!el) throw new Error('no blotter scroll container');
        el.scrollTop = 0;
        const deltas: number[] = [];
        let last: number | null = null;
        let dir = 1;
        const start = performance.now();
        const frame = (t: number): void => {
          if (last !== null) deltas.push(t - last);
          last = t;
          if (deltas.length >= frames || performance.now() - start > capMs) return resolve(deltas);
          if (el.scrollTop + el.clientHeight >= el.scrollHeight - step) dir = -1;
          else if (el.scrollTop <= 0) dir = 1;
          el.scrollTop += dir * step;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    { frames, step: 3 * ROW_PX, capMs },
  );
}

async function prepareTicket(page: Page, symbol: string, price: number): Promise<void> {
  const form = page.getByRole('form', { name: 'Order ticket' });
  const box = form.getByRole('combobox', { name: 'Symbol' });
  await box.click();
  await box.fill(symbol);
  await form.getByRole('listbox').getByRole('option').first().waitFor();
  await box.press('Enter');
  await form.getByRole('radio', { name: 'Buy' }).check({ force: true });
  await form.getByLabel('Order type').selectOption('LIMIT');
  await form.getByLabel('Product').selectOption('MIS');
  await form.getByLabel('Quantity').fill('1');
  await form.getByLabel('Price', { exact: true }).fill(String(price));
}

/**
 * One click's latency and its parts: the page until it sends `orders.place` (the ticket's own
 * checks), the bridge round trip (main's rules and intents ledger, the broker's POST and its
 * journal sync), and the reply until the frame showing the id is painted.
 */
interface ClickSample {
  ms: number;
  id: string;
  toSend: number;
  roundTrip: number;
  toPaint: number;
}

/** One real click on Place order → the paint of the frame showing a new order id. */
async function clickToAck(page: Page, previousId: string): Promise<ClickSample> {
  await page.evaluate((prev) => {
    const w = window as unknown as {
      __ack: Promise<ClickSample>;
      __bench: { places: Array<{ sent: number; replied: number | null }>; clickParts: PageClickParts };
    };
    const placesBefore = w.__bench.places.length;
    const form = document.querySelector('form[aria-label="Order ticket"]');
    const button = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!form || !button) throw new Error('no order ticket');
    w.__ack = new Promise((resolve) => {
      let clickedAt: number | null = null;
      // The trusted click's own timestamp: when the input reached the page, queueing included.
      button.addEventListener('click', (e) => (clickedAt = e.timeStamp), { capture: true, once: true });
      const seen = new MutationObserver(() => {
        const id = form.querySelector('[data-testid="ticket-order-id"]')?.textContent ?? '';
        if (clickedAt === null || !id || id === prev) return;
        seen.disconnect();
        // The bridge call this click made (the first after it), for where the time went.
        void w.__bench.clickParts(clickedAt, placesBefore).then((parts) => resolve({ ...parts, id }));
      });
      seen.observe(form, { subtree: true, childList: true, characterData: true });
    });
  }, previousId);
  await page
    .getByRole('form', { name: 'Order ticket' })
    .getByRole('button', { name: 'Place order' })
    .click({ timeout: 10_000 });
  return page.evaluate(() =>
    Promise.race([
      (window as unknown as { __ack: Promise<ClickSample> }).__ack,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no order id within 10 s')), 10_000)),
    ]),
  );
}

/** How long the ladder's repaint is watched, with the ladder shown and then the depth. */
const LADDER_WINDOW_MS = 6000;

/** How long the idle phase watches the page's polls (the stream is live and orders work: a poll every 2 s). */
const IDLE_WINDOW_MS = 6000;

/** The page's JS heap in use, MB (Chromium's performance.memory, precise with the flag above). */
async function heapMb(page: Page): Promise<number> {
  const bytes = await page.evaluate(
    () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? Number.NaN,
  );
  return bytes / 1e6;
}

/** A process's resident set, MB, from /proc (Linux; NaN elsewhere). */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1000 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A mode whose page never showed its orders: every figure NaN, every placement failed. */
function emptyResult(mode: Mode, opt: Options): ModeResult {
  return {
    mode,
    firstPaintMs: Number.NaN,
    firstPaintParts: NO_FIRST_PAINT.parts,
    secondWindow: NO_FIRST_PAINT,
    wholeBookMs: Number.NaN,
    updates: [],
    pollToPaint: [],
    repliesPerS: Number.NaN,
    replyMb: Number.NaN,
    longTaskMsPerS: Number.NaN,
    longTaskMaxMs: Number.NaN,
    windowS: Number.NaN,
    scroll: [],
    clicks: [],
    clickParts: { toSend: [], roundTrip: [], toPaint: [] },
    clickErrors: opt.placements,
    idleReplyBytes: Number.NaN,
    firstReplyBytes: Number.NaN,
    heapMb: [Number.NaN, Number.NaN],
    rssMb: [Number.NaN, Number.NaN],
    ladder: emptyLadder(opt.placements),
  };
}

/**
 * A second window of the desk, opened last: another page of the same browser (its cache warm),
 * its own bridge socket, main holding the book. It is the main window's page again, and a newer
 * page of the main window takes the window over and closes the older one's socket
 * (docs/workstation.md), so every phase on the first page comes before it.
 */
async function secondWindow(
  context: BrowserContext,
  url: URL,
  mode: Mode,
): Promise<{ ms: number; parts: FirstPaintParts } | null> {
  const deadline = Date.now() + LOAD_CAP_MS;
  const other = await context.newPage();
  try {
    await other.addInitScript(pageTaps, TAP_NAMES);
    return await firstPaint(other, url.toString(), () => Math.max(1000, deadline - Date.now()));
  } catch (e) {
    phaseFailed(mode, "a second window's first paint", e);
    return null;
  } finally {
    await other.close();
  }
}

/** A phase the page was too busy for is reported (its figures come out NaN), not fatal. */
function phaseFailed(mode: Mode, phase: string, e: unknown): void {
  console.error(`${mode}: ${phase} failed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0] ?? ''}`);
}

async function measureMode(
  browser: Browser,
  url: string,
  mode: Mode,
  opt: Options,
  ticketSymbol: string,
  ticketPrice: number,
  churn: Churn,
  hostPid: number,
  setPrice: (lastPrice: number) => Promise<void>,
  tick: number,
): Promise<ModeResult> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(pageTaps, TAP_NAMES);
    const u = new URL(url);
    u.searchParams.set('blotter', mode);
    // Navigation start → the first paint sample: the book's first screen (a busy book's first
    // page, docs/live-data.md §The first screen first), then → the whole book held.
    const deadline = Date.now() + LOAD_CAP_MS;
    const left = (): number => Math.max(1000, deadline - Date.now());
    // Profiled, the page's start is measured in its parts (parse, script, style, layout, paint),
    // at the cost of the profiler's own overhead on the first paint it times.
    const stopProfile = opt.profileDir ? await startCpuProfile(page, opt.profileDir, `${mode}-first-paint`) : null;
    const first = await firstPaint(page, u.toString(), left).catch(
      (e: unknown) => (phaseFailed(mode, `loading the orders (cap ${LOAD_CAP_MS / 1000} s)`, e), null),
    );
    const firstPaintProfile = stopProfile ? await stopProfile() : undefined;
    if (first === null) return emptyResult(mode, opt);
    const { ms: firstPaintMs, parts: firstPaintParts } = first;
    const profiled = firstPaintProfile ? { firstPaintProfile } : {};
    const wholeBookMs = await page
      .waitForFunction(
        () => {
          const text = document.querySelector('[data-testid="orders-count"]')?.textContent ?? 'Loading';
          return text.startsWith('Loading') ? null : performance.now();
        },
        undefined,
        { timeout: left() },
      )
      .then(async (h) => (await h.jsonValue()) as number)
      .catch((e: unknown) => (phaseFailed(mode, 'loading the whole book', e), Number.NaN));
    if (opt.firstPaintOnly) {
      const second = await secondWindow(context, u, mode);
      return {
        ...emptyResult(mode, opt),
        firstPaintMs,
        firstPaintParts,
        ...profiled,
        secondWindow: second ?? NO_FIRST_PAINT,
        wholeBookMs,
        clickErrors: 0,
        ladder: emptyLadder(0),
      };
    }
    await sleep(2 * opt.intervalMs); // let both polling and the churn reach their steady state
    const loaded = await collectPaints(page);
    const firstReplyBytes = loaded.replies[0]?.bytes ?? Number.NaN;
    const from = loaded.now;
    const heap0 = await heapMb(page);
    const rss0 = rssMb(hostPid);
    await sleep(opt.rounds * opt.intervalMs);
    const got = await collectPaints(page);
    const heap1 = await heapMb(page);
    const rss1 = rssMb(hostPid);
    // Per-second figures use the page's own clock: a saturated page answers late, so its
    // window runs from one collection to the next as the page ran them.
    const windowS = (got.now - from) / 1000;
    const updates = got.samples.map((s) => s.painted - s.data);
    // A saturated page reports long tasks late: count only the part of each inside the window.
    const inWindow = got.longTasks
      .map((t) => Math.min(t.start + t.duration, got.now) - Math.max(t.start, from))
      .filter((ms) => ms > 0);
    const longMs = inWindow.reduce((a, ms) => a + ms, 0);
    const scroll = await scrollFrames(page, opt.scrollFrames, PHASE_CAP_MS / 3).catch(
      (e: unknown) => (phaseFailed(mode, 'scrolling', e), []),
    );

    await page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('[data-testid="orders-scroll"]');
      if (el) el.scrollTop = 0;
    });
    const ready = await prepareTicket(page, ticketSymbol, ticketPrice).then(
      () => true,
      (e: unknown) => (phaseFailed(mode, 'filling the ticket', e), false),
    );
    const clicks: number[] = [];
    const clickParts: ClickParts = { toSend: [], roundTrip: [], toPaint: [] };
    let clickErrors = 0;
    let previous = '';
    const clicksStart = Date.now();
    for (let i = 0; ready && i < opt.placements && Date.now() - clicksStart < PHASE_CAP_MS; i += 1) {
      try {
        const r = await clickToAck(page, previous);
        clicks.push(r.ms);
        clickParts.toSend.push(r.toSend);
        clickParts.roundTrip.push(r.roundTrip);
        clickParts.toPaint.push(r.toPaint);
        previous = r.id;
      } catch (e) {
        clickErrors += 1;
        phaseFailed(mode, `placement ${i + 1}`, e);
      }
      await sleep(200);
    }
    const ladder =
      ready && mode === 'virtual'
        ? await measureLadder(page, {
            placements: opt.placements,
            capMs: PHASE_CAP_MS,
            setPrice,
            tick,
            windowMs: LADDER_WINDOW_MS,
            ticketClick: async () => {
              const r = await clickToAck(page, previous);
              previous = r.id;
              return r.ms;
            },
            profileDir: opt.profileDir,
          }).catch((e: unknown) => (phaseFailed(mode, 'the ladder', e), emptyLadder(opt.placements)))
        : emptyLadder(opt.placements);
    // Idle: the churn paused, what the desk's order polls move once its pushes have drained.
    churn.pause();
    await sleep(4000);
    await collectPaints(page);
    await sleep(IDLE_WINDOW_MS);
    const idle = (await collectPaints(page)).replies.map((r) => r.bytes);
    churn.resume();
    const second = await secondWindow(context, u, mode);
    return {
      mode,
      firstPaintMs,
      firstPaintParts,
      ...profiled,
      secondWindow: second ?? NO_FIRST_PAINT,
      wholeBookMs,
      idleReplyBytes: percentile(idle, 0.5),
      firstReplyBytes,
      heapMb: [heap0, heap1],
      rssMb: [rss0, rss1],
      updates,
      pollToPaint: pollToPaint(got.samples, got.replies),
      repliesPerS: got.replies.length / windowS,
      replyMb: got.replies.length
        ? got.replies.reduce((a, r) => a + r.bytes, 0) / got.replies.length / 1e6
        : Number.NaN,
      longTaskMsPerS: longMs / windowS,
      longTaskMaxMs: got.longTasks
        .filter((t) => t.start + t.duration > from)
        .reduce((a, t) => Math.max(a, t.duration), 0),
      windowS,
      scroll,
      clicks,
      clickParts,
      clickErrors: ready ? clickErrors : opt.placements,
      ladder,
    };
  } finally {
    await context.close();
  }
}

function report(
  results: readonly ModeResult[],
  churn: { sent: number; failed: number; late: number; perS: number },
  opt: Options,
  seedMs: number,
  background: BusyReport,
): void {
  // A mode left out with --modes reports NaN, like one whose page never loaded.
  const v = results.find((r) => r.mode === 'virtual') ?? emptyResult('virtual', opt);
  const p = results.find((r) => r.mode === 'plain') ?? emptyResult('plain', opt);
  const rows: Array<[string, (r: ModeResult) => number]> = [
    ['first paint of the book (ms)', (r) => r.firstPaintMs],
    ["  the page's scripts and styles here (ms)", (r) => r.firstPaintParts.assetsHere],
    ["  the page's code run (DOMContentLoaded, ms)", (r) => r.firstPaintParts.codeRun],
    ["  the app's code run (desk:code-run, ms)", (r) => r.firstPaintParts.appCodeRun],
    ['  first render committed (desk:first-render, ms)', (r) => r.firstPaintParts.firstRender],
    ['  bridge open (ms)', (r) => r.firstPaintParts.bridgeOpen],
    ['  first orders.sync sent (ms)', (r) => r.firstPaintParts.syncSent],
    ['  first orders.sync replied (ms)', (r) => r.firstPaintParts.syncReplied],
    ["a second window's first paint (ms)", (r) => r.secondWindow.ms],
    ['  its code run (ms)', (r) => r.secondWindow.parts.codeRun],
    ["  its app's code run (ms)", (r) => r.secondWindow.parts.appCodeRun],
    ['  its first render committed (ms)', (r) => r.secondWindow.parts.firstRender],
    ['  its bridge open (ms)', (r) => r.secondWindow.parts.bridgeOpen],
    ['  its first orders.sync replied (ms)', (r) => r.secondWindow.parts.syncReplied],
    ['whole book held (ms)', (r) => r.wholeBookMs],
    ['update → paint p50 (ms)', (r) => percentile(r.updates, 0.5)],
    ['update → paint p99 (ms)', (r) => percentile(r.updates, 0.99)],
    ['updates painted per s', (r) => r.updates.length / r.windowS],
    ['orders.sync replies per s', (r) => r.repliesPerS],
    ['orders.sync reply, mean under churn (KB)', (r) => r.replyMb * 1000],
    ['orders.sync reply, idle (bytes)', (r) => r.idleReplyBytes],
    ['first orders.sync reply, the whole book (MB)', (r) => r.firstReplyBytes / 1e6],
    ['poll reply → paint p50 (ms)', (r) => percentile(r.pollToPaint, 0.5)],
    ['poll reply → paint p99 (ms)', (r) => percentile(r.pollToPaint, 0.99)],
    ['long tasks (ms per s)', (r) => r.longTaskMsPerS],
    ['longest task (ms)', (r) => r.longTaskMaxMs],
    ['scroll frame p50 (ms)', (r) => percentile(r.scroll, 0.5)],
    ['scroll frame p95 (ms)', (r) => percentile(r.scroll, 0.95)],
    ['scroll frame p99 (ms)', (r) => percentile(r.scroll, 0.99)],
    ['click → acknowledged p50 (ms)', (r) => percentile(r.clicks, 0.5)],
    ['click → acknowledged p99 (ms)', (r) => percentile(r.clicks, 0.99)],
    ['  click → orders.place sent p50 (ms)', (r) => percentile(r.clickParts.toSend, 0.5)],
    ['  orders.place round trip p50 (ms)', (r) => percentile(r.clickParts.roundTrip, 0.5)],
    ['  orders.place round trip p99 (ms)', (r) => percentile(r.clickParts.roundTrip, 0.99)],
    ['  reply → id painted p50 (ms)', (r) => percentile(r.clickParts.toPaint, 0.5)],
    ['  reply → id painted p99 (ms)', (r) => percentile(r.clickParts.toPaint, 0.99)],
    ['page JS heap, window start (MB)', (r) => r.heapMb[0]],
    ['page JS heap, window end (MB)', (r) => r.heapMb[1]],
    ['host RSS (main + paper broker), window start (MB)', (r) => r.rssMb[0]],
    ['host RSS (main + paper broker), window end (MB)', (r) => r.rssMb[1]],
  ];
  console.log(
    `${opt.orders} orders seeded in ${(seedMs / 1000).toFixed(1)} s; churn ${churn.perS.toFixed(0)} changes/s (${churn.sent} sent, ${churn.failed} failed, ${churn.late} late rounds); ` +
      `update window ${v.windowS.toFixed(0)} s per mode; placements failed ${v.clickErrors}/${p.clickErrors}; orders.sync reply ≈ ${(v.replyMb * 1000).toFixed(1)} KB under churn, ${v.idleReplyBytes} B idle; n: updates ${v.updates.length}/${p.updates.length}, polls ${v.pollToPaint.length}/${p.pollToPaint.length}, frames ${v.scroll.length}/${p.scroll.length}, clicks ${v.clicks.length}/${p.clicks.length}`,
  );
  console.log(`background while measured: ${describeBusy(background)}`);
  console.log('| metric | virtualized | plain (no virtualization) | plain / virtualized |');
  console.log('|---|---|---|---|');
  for (const [name, f] of rows)
    console.log(`| ${name} | ${f(v).toFixed(1)} | ${f(p).toFixed(1)} | ×${(f(p) / f(v)).toFixed(2)} |`);
  if (v.firstPaintProfile) {
    const fp = v.firstPaintProfile;
    console.log(
      `\nfirst paint profiled (${fp.files.join(', ')}), navigation → first paint ${v.firstPaintMs.toFixed(1)} ms with the profiler on:`,
    );
    console.log(`  main thread (ms): ${JSON.stringify(fp.mainThread)}`);
    for (const t of fp.top) console.log(`  ${t.ms.toFixed(1)} ms (${t.share}%)  ${t.fn}`);
  }
  reportLadder(v);
  const summary: Record<string, number | string> = {
    orders: opt.orders,
    changes_per_round: opt.changes,
    interval_ms: opt.intervalMs,
    busy_processes: background.processes,
    busy_core_share: background.coreShare.join(','),
    load_average_start: round1(background.loadAverageStart),
    load_average_end: round1(background.loadAverageEnd),
  };
  const l = v.ladder;
  Object.assign(summary, {
    ticket_click_ack_p95_ms: round1(percentile(v.clicks, 0.95)),
    ticket_paired_click_ack_p50_ms: round1(percentile(l.pairedTicket, 0.5)),
    ticket_paired_click_ack_p95_ms: round1(percentile(l.pairedTicket, 0.95)),
    ladder_click_ack_p50_ms: round1(percentile(l.clicks, 0.5)),
    ladder_click_ack_p95_ms: round1(percentile(l.clicks, 0.95)),
    ladder_click_round_trip_p50_ms: round1(percentile(l.roundTrip, 0.5)),
    ladder_clicks: l.clicks.length,
    ladder_click_errors: l.clickErrors,
    ladder_depth_updates_per_s: round1(l.updatesPerS),
    ladder_books_painted_per_s: round1(l.paintsPerS),
    ladder_book_to_paint_p50_ms: round1(percentile(l.bookToPaint, 0.5)),
    ladder_book_to_paint_p95_ms: round1(percentile(l.bookToPaint, 0.95)),
    ladder_commit_to_paint_p95_ms: round1(percentile(l.commitToPaint, 0.95)),
    ladder_frame_p95_ms: round1(percentile(l.frames.ladder, 0.95)),
    depth_frame_p95_ms: round1(percentile(l.frames.depth, 0.95)),
    chart_frame_p95_ms: round1(percentile(l.frames.chart, 0.95)),
  });
  for (const r of [v, p]) {
    const k = r.mode;
    Object.assign(summary, {
      [`${k}_first_paint_ms`]: round1(r.firstPaintMs),
      [`${k}_first_paint_assets_here_ms`]: round1(r.firstPaintParts.assetsHere),
      [`${k}_first_paint_code_run_ms`]: round1(r.firstPaintParts.codeRun),
      [`${k}_first_paint_app_code_run_ms`]: round1(r.firstPaintParts.appCodeRun),
      [`${k}_first_paint_first_render_ms`]: round1(r.firstPaintParts.firstRender),
      [`${k}_first_paint_bridge_open_ms`]: round1(r.firstPaintParts.bridgeOpen),
      [`${k}_first_paint_sync_sent_ms`]: round1(r.firstPaintParts.syncSent),
      [`${k}_first_paint_sync_replied_ms`]: round1(r.firstPaintParts.syncReplied),
      [`${k}_second_window_first_paint_ms`]: round1(r.secondWindow.ms),
      [`${k}_second_window_sync_replied_ms`]: round1(r.secondWindow.parts.syncReplied),
      [`${k}_whole_book_ms`]: round1(r.wholeBookMs),
      [`${k}_update_p50_ms`]: round1(percentile(r.updates, 0.5)),
      [`${k}_update_p99_ms`]: round1(percentile(r.updates, 0.99)),
      [`${k}_poll_p50_ms`]: round1(percentile(r.pollToPaint, 0.5)),
      [`${k}_poll_p99_ms`]: round1(percentile(r.pollToPaint, 0.99)),
      [`${k}_longtask_ms_per_s`]: round1(r.longTaskMsPerS),
      [`${k}_scroll_p50_ms`]: round1(percentile(r.scroll, 0.5)),
      [`${k}_scroll_p95_ms`]: round1(percentile(r.scroll, 0.95)),
      [`${k}_scroll_p99_ms`]: round1(percentile(r.scroll, 0.99)),
      [`${k}_click_ack_p50_ms`]: round1(percentile(r.clicks, 0.5)),
      [`${k}_click_ack_p99_ms`]: round1(percentile(r.clicks, 0.99)),
      [`${k}_click_to_send_p50_ms`]: round1(percentile(r.clickParts.toSend, 0.5)),
      [`${k}_click_round_trip_p50_ms`]: round1(percentile(r.clickParts.roundTrip, 0.5)),
      [`${k}_click_round_trip_p99_ms`]: round1(percentile(r.clickParts.roundTrip, 0.99)),
      [`${k}_click_reply_to_paint_p50_ms`]: round1(percentile(r.clickParts.toPaint, 0.5)),
      [`${k}_click_reply_to_paint_p99_ms`]: round1(percentile(r.clickParts.toPaint, 0.99)),
      [`${k}_longest_task_ms`]: round1(r.longTaskMaxMs),
      [`${k}_idle_poll_bytes`]: round1(r.idleReplyBytes),
      [`${k}_first_reply_mb`]: round1(r.firstReplyBytes / 1e5) / 10,
      [`${k}_heap_mb`]: round1(r.heapMb[1]),
      [`${k}_rss_mb`]: round1(r.rssMb[1]),
    });
  }
  console.log(JSON.stringify(summary));
}

/**
 * The price ladder's figures (the virtualized mode's page): its click beside the ticket's, and
 * its frames at 20 depth updates a second beside the Depth tab's under the same updates.
 */
function reportLadder(v: ModeResult): void {
  const l = v.ladder;
  const f = (n: number): string => n.toFixed(1);
  const q = (xs: readonly number[], at: number): string => f(percentile(xs, at));
  console.log(
    `\nprice ladder: ${l.clicks.length} clicks (${l.clickErrors} failed); ${f(l.updatesPerS)} depth updates/s sent, ${f(l.paintsPerS)} books painted/s (main sends a page ticks at most every 100 ms)`,
  );
  console.log('| click → acknowledged on paper | ticket (its phase) | ticket (paired) | ladder |');
  console.log('|---|---|---|---|');
  const p = l.pairedTicket;
  console.log(`| p50 (ms) | ${q(v.clicks, 0.5)} | ${q(p, 0.5)} | ${q(l.clicks, 0.5)} |`);
  console.log(`| p95 (ms) | ${q(v.clicks, 0.95)} | ${q(p, 0.95)} | ${q(l.clicks, 0.95)} |`);
  console.log(`|   click → orders.place sent p50 (ms) | ${q(v.clickParts.toSend, 0.5)} | | ${q(l.toSend, 0.5)} |`);
  console.log(`|   orders.place round trip p50 (ms) | ${q(v.clickParts.roundTrip, 0.5)} | | ${q(l.roundTrip, 0.5)} |`);
  console.log(`|   reply → painted p50 (ms) | ${q(v.clickParts.toPaint, 0.5)} | | ${q(l.toPaint, 0.5)} |`);
  console.log('| at 20 depth updates/s | ladder shown | depth shown | chart in the ladder’s place |');
  console.log('|---|---|---|---|');
  for (const [name, p] of [
    ['p50', 0.5],
    ['p95', 0.95],
    ['p99', 0.99],
  ] as const) {
    const fr = l.frames;
    console.log(`| frame ${name} (ms) | ${q(fr.ladder, p)} | ${q(fr.depth, p)} | ${q(fr.chart, p)} |`);
  }
  console.log(`| book arrival → painted p50 (ms) | ${q(l.bookToPaint, 0.5)} | — | — |`);
  console.log(`| book arrival → painted p95 (ms) | ${q(l.bookToPaint, 0.95)} | — | — |`);
  console.log(`| book commit → painted p50 (ms) | ${q(l.commitToPaint, 0.5)} | — | — |`);
  console.log(`| book commit → painted p95 (ms) | ${q(l.commitToPaint, 0.95)} | — | — |`);
  for (const [panel, p] of Object.entries(l.profiles)) {
    console.log(`\n${panel} repaint window profiled (${p.files.join(', ')}), ${f(p.wallMs)} ms:`);
    console.log(`  main thread (ms): ${JSON.stringify(p.mainThread)}`);
    for (const t of p.top) console.log(`  ${f(t.ms)} ms (${t.share}%)  ${t.fn}`);
  }
}

export async function run(args: string[]): Promise<void> {
  const opt = options(args);
  // The bench's own renderer build: the only one with the paint probe and the plain blotter.
  const renderer = opt.rendererDir;
  if (!existsSync(join(renderer, 'index.html'))) {
    throw new Error(`${renderer} is missing: npm run build:bench-renderer builds it (npm run bench does)`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'td-dash-bench-'));
  let host: Awaited<ReturnType<typeof startHost>> | null = null;
  let browser: Browser | null = null;
  let rest: PaperRest | null = null;
  let churn: Churn | null = null;
  let hostDied: ((code: number | null, signal: string | null) => void) | null = null;
  let busy: BusyLoad | null = null;
  try {
    const seeded = await seedOrders(dataDir, opt.orders);
    // The host replays the seeded journal before READY; it serves the bench's own renderer build.
    host = await startHost(['--renderer-dir', renderer], { dataDir, readyTimeoutMs: 60_000 });
    if (!host.handle.paperUrl) throw new Error('host printed no PAPER line (is --paper-control honoured?)');
    const died = (code: number | null, signal: string | null): void =>
      console.error(`dashboard bench: the host exited mid-run (${code ?? signal}); figures after this are void`);
    host.child.once('exit', died);
    hostDied = died;
    rest = new PaperRest(host.handle.paperUrl, host.handle.paperControl);
    // Enough tokens that each sends well under the broker's 10 requests/s.
    const tokens: string[] = [];
    for (let i = 0; i < Math.max(1, Math.ceil(opt.changes / 5)) && i < 40; i += 1) tokens.push(await rest.login());
    const ticketSymbol = seeded.cheapest.tradingsymbol;
    const ticketPrice = restingPrice(seeded.cheapest);
    churn = new Churn(rest, tokens, seeded.orders, opt.changes, opt.intervalMs);
    const churnStart = Date.now();
    churn.start();
    browser = await chromium.launch(chromiumLaunchOptions(CHROMIUM_EXTRA_ARGS));
    // The ladder's depth updates: the paper market's price of the ticket's instrument, set
    // through the control interface (each a new book on the stream).
    const control = rest;
    const setPrice = async (lastPrice: number): Promise<void> => {
      const r = await control.call('POST', '/_control/price', null, {
        instrument_token: seeded.cheapest.instrument_token,
        last_price: lastPrice,
      });
      if (r.status !== 200) throw new Error(`control/price → HTTP ${r.status}`);
    };
    const results: ModeResult[] = [];
    busy = startBusyLoad(opt.busy);
    for (const mode of opt.modes)
      results.push(
        await measureMode(
          browser,
          host.handle.url,
          mode,
          opt,
          ticketSymbol,
          ticketPrice,
          churn,
          host.child.pid ?? -1,
          setPrice,
          seeded.cheapest.tick_size,
        ),
      );
    const background = busy.stop();
    busy = null;
    await churn.stop();
    const churnS = (Date.now() - churnStart - churn.pausedMs) / 1000;
    const stats = { sent: churn.sent, failed: churn.failed, late: churn.late, perS: churn.sent / churnS };
    churn = null;
    report(results, stats, opt, seeded.ms, background);
  } finally {
    busy?.stop();
    await churn?.stop();
    await browser?.close();
    await rest?.close();
    if (host) {
      if (hostDied) host.child.off('exit', hostDied);
      await host.stop();
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}
