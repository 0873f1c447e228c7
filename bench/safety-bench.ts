/**
 * `npm run bench -- safety [--orders 200,900] [--faults SPEC] [--broker rest|kite] [--flat REPS] [--part all|cancels|flat|mtm]`
 *
 * The kill switch under throttling (docs/contract.md §Kill switch): N working orders, then the
 * kill switch, through the trading core as the app runs it — its client limits following what
 * the broker publishes, a 429's Retry-After pausing its lane — against a paper broker keeping
 * its own default limits. Each N is run twice on the same book: without faults (the baseline)
 * and with `--faults` (default `rate_limit=0.5`: half of all requests answered 429, Retry-After
 * 1 s), set once the core has logged in and read the book.
 *
 * The figure is **cancels a second against the broker's published limit for them**, as a ratio:
 * on /v1 every request counts against 10/s (docs/api.md §Limits); on /kite a cancel is an order
 * write, 10 a second and 400 a minute (docs/kite.md §Limits), so a run of more than 400 cancels
 * is held to 400/60 a second. Cancels may use the whole published rate, each Kite window lasting
 * a second and a round trip (docs/brokers.md §HTTP client, retries and limits), so just under 1.0
 * is the ceiling without faults; a broker refusing half of the requests at random leaves just
 * under 0.5. Also printed: the ratio to the same run's baseline, the requests sent a second against
 * the limit, the 429s met, percentiles of the time from the click to each order's cancel, and
 * the cancels counted in each whole second. The last line is JSON.
 *
 * Orders are seeded once per N into a paper journal through an unlimited broker; each measured
 * run starts a fresh broker from a copy of that journal, so both modes cancel the same book.
 *
 * **Time to flat** (`--flat REPS`, default 8, on both dialects whatever `--broker` says): the
 * kill switch with "exit every position" over two positions — one filled after main's last
 * positions read, one opened outside the desk — with every read answered 429 (Retry-After 30 s,
 * `read_rate_limit=1`), the stream open, against the same without faults in the same run: the
 * time from the click to the run ending done with the broker flat (checked after each run), p50
 * and p99, and the ratio to the baseline (docs/contract.md §Kill switch).
 *
 * **MTM stop to flat** (`--part mtm`, `--flat REPS` runs on each dialect; docs/contract.md §Risk
 * guard): 25 shares held, a hard MTM stop of ₹250, and the paper broker's price moved 3% down:
 * the time from that breaching price (its tick leaves the broker for main's stream) to the kill
 * switch's first exit order handed to the order service, and to the run ending done with the
 * broker flat, p50 and p99; against the same position flattened by the trader's click in the
 * same run (the baseline: from the click).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest } from '@shared/domain/order';
import type { SafetyRun } from '@shared/domain/safety-run';
import { NO_MTM_SETTINGS } from '@shared/domain/mtm';
import { kiteAdapter } from '../electron/broker/kite/kite-adapter';
import { createCore, marketBuyOf, pool } from '../electron/core/testing/core-fixture';
import type { TradingCore } from '../electron/core/trading-core';
import { startPaperBroker, type PaperBroker } from '../electron/paper';

const MAX_ORDERS = 2_000;
/** A run not finished by then is stopped, and reported as such. */
const RUN_DEADLINE_MS = 15 * 60_000;
const UNLIMITED = 1_000_000;

interface Args {
  readonly orders: readonly number[];
  readonly faults: string;
  readonly dialect: 'rest' | 'kite';
  readonly flatReps: number;
  readonly part: 'all' | 'cancels' | 'flat' | 'mtm';
}

function parseArgs(argv: readonly string[]): Args {
  let orders: number[] = [200, 900];
  let faults = 'rate_limit=0.5';
  let dialect: Args['dialect'] = 'rest';
  let flatReps = 8;
  let part: Args['part'] = 'all';
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === '--orders') {
      orders = value.split(',').map((v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > MAX_ORDERS)
          throw new Error(`--orders takes integers in [1, ${MAX_ORDERS}], comma-separated`);
        return n;
      });
    } else if (key === '--faults') faults = value;
    else if (key === '--broker') {
      if (value !== 'rest' && value !== 'kite') throw new Error(`--broker must be rest or kite, not ${value}`);
      dialect = value;
    } else if (key === '--flat') {
      flatReps = Number(value);
      if (!Number.isInteger(flatReps) || flatReps < 1 || flatReps > 200)
        throw new Error('--flat takes an integer in [1, 200]');
    } else if (key === '--part') {
      if (value !== 'all' && value !== 'cancels' && value !== 'flat' && value !== 'mtm')
        throw new Error(`--part must be all, cancels, flat or mtm, not ${value}`);
      part = value;
    } else throw new Error(`unknown option ${key}`);
  }
  return { orders, faults, dialect, flatReps, part };
}

function percentile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? Number.NaN;
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** A BUY LIMIT 8% under the opening price: it rests, OPEN, since the bench's market never ticks. */
function resting(i: Instrument, quantity = 1): OrderRequest {
  const price = Math.round(Math.ceil((i.lastPrice * 0.92) / i.tickSize) * i.tickSize * 100) / 100;
  return {
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    transactionType: 'BUY',
    quantity,
    orderType: 'LIMIT',
    price,
    product: 'MIS',
    validity: 'DAY',
  };
}

/** Writes `count` working orders into `<dir>/paper` through an unlimited broker; returns the folder. */
async function seed(count: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'td-safety-bench-'));
  const paper = await startPaperBroker({
    port: 0,
    dataDir: join(dir, 'paper'),
    tickIntervalMs: 0,
    rate: { perSecond: UNLIMITED, burst: UNLIMITED },
  });
  const core = await createCore(paper.url, join(dir, 'seed-core'), { rate: null });
  try {
    await core.start();
    // The cheapest one-share equities, so N one-share orders block little of the margin.
    const eq = (await core.broker.listInstruments('NSE'))
      .filter((i) => i.instrumentType === 'EQ' && i.lotSize === 1 && i.lastPrice > 0)
      .sort((a, b) => a.lastPrice - b.lastPrice)
      .slice(0, 12);
    const results = await pool(count, 16, async (n) => {
      const a = await core.orders.place(resting(eq[n % eq.length] as Instrument));
      if (a.state !== 'placed' || a.status !== 'OPEN') throw new Error(`seeding order ${n}: ${a.state}`);
    });
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    return dir;
  } finally {
    await core.close();
    await paper.close();
  }
}

/** A request token from a paper broker's Kite login page (its default redirect carries it). */
async function paperRequestToken(kiteRoot: string): Promise<string> {
  const r = await fetch(`${kiteRoot}/connect/login?v=3&api_key=paper`, { redirect: 'manual' });
  return new URL(r.headers.get('location') ?? '').searchParams.get('request_token') ?? '';
}

interface Measured {
  readonly mode: 'baseline' | 'faults';
  readonly orders: number;
  readonly cancelled: number;
  readonly stillOpen: number;
  readonly state: string;
  readonly seconds: number;
  readonly cancelsPerSecond: number;
  /** Cancels a second ÷ the broker's published limit for them. */
  readonly ratio: number;
  readonly publishedPerSecond: number;
  readonly requestsPerSecond: number;
  readonly rateLimited: number;
  readonly doneP50Ms: number;
  readonly doneP90Ms: number;
  readonly doneP99Ms: number;
  readonly perSecondP10: number;
  readonly perSecondP50: number;
  readonly perSecondP90: number;
}

async function measure(seeded: string, orders: number, args: Args, faulted: boolean): Promise<Measured> {
  const dir = await mkdtemp(join(tmpdir(), 'td-safety-run-'));
  await cp(join(seeded, 'paper'), join(dir, 'paper'), { recursive: true });
  // The broker keeps its own default limits, as a real one does.
  const paper: PaperBroker = await startPaperBroker({ port: 0, dataDir: join(dir, 'paper'), tickIntervalMs: 0 });
  const settledAt = new Map<string, number>();
  let t0 = 0;
  const onSafety = (run: SafetyRun): void => {
    for (const s of run.steps) {
      if (s.kind === 'cancel' && s.state === 'done' && !settledAt.has(s.id))
        settledAt.set(s.id, performance.now() - t0);
    }
  };
  let core: TradingCore | null = null;
  try {
    const kiteRoot = paper.url.replace(/\/v1$/, '/kite');
    core =
      args.dialect === 'rest'
        ? await createCore(paper.url, join(dir, 'core'), { events: { onSafety } })
        : await createCore(kiteRoot, join(dir, 'core'), {
            adapter: kiteAdapter(),
            target: { broker: 'kite', label: 'Kite (paper)', vaultKey: 'kite-bench' },
            credentials: { apiKey: 'paper', apiSecret: 'paper', requestToken: await paperRequestToken(kiteRoot) },
            events: { onSafety },
          });
    await core.start();
    const working = (await core.broker.listOrders()).filter((o) => o.status === 'OPEN').length;
    if (working !== orders) throw new Error(`expected ${orders} working orders, found ${working}`);
    const limits = core.broker.limits();
    // Kite counts order writes a second and a minute: a run of more than a minute's count is
    // held to the minute's (400/60 a second), a shorter one to the second's.
    const w = args.dialect === 'kite' ? limits.orderWindows : undefined;
    const published = w ? (orders > w.perMinute ? w.perMinute / 60 : w.perSecond) : limits.requests.perSecond;
    if (faulted) paper.setFaults(args.faults);
    const sentBefore = core.stats.sent;
    const limitedBefore = core.stats.rateLimited;
    t0 = performance.now();
    core.safety.start({ kind: 'killSwitch', exitPositions: false });
    const deadline = setTimeout(() => stopRun(core), RUN_DEADLINE_MS);
    await core.safety.idle();
    clearTimeout(deadline);
    const seconds = (performance.now() - t0) / 1000;
    const run = core.safety.current();
    paper.setFaults({});
    const times = [...settledAt.values()];
    const lastCancel = Math.max(1, ...times) / 1000;
    const cancelled = times.length;
    const cps = cancelled / lastCancel;
    const buckets = new Array<number>(Math.max(1, Math.floor(lastCancel))).fill(0);
    for (const t of times) {
      const i = Math.floor(t / 1000);
      if (i < buckets.length) buckets[i] = (buckets[i] ?? 0) + 1;
    }
    return {
      mode: faulted ? 'faults' : 'baseline',
      orders,
      cancelled,
      stillOpen: run?.stillOpen?.orders.length ?? -1,
      state: run?.state ?? 'none',
      seconds: round(seconds, 1),
      cancelsPerSecond: round(cps),
      ratio: round(cps / published),
      publishedPerSecond: round(published),
      requestsPerSecond: round((core.stats.sent - sentBefore) / seconds),
      rateLimited: core.stats.rateLimited - limitedBefore,
      doneP50Ms: Math.round(percentile(times, 0.5)),
      doneP90Ms: Math.round(percentile(times, 0.9)),
      doneP99Ms: Math.round(percentile(times, 0.99)),
      perSecondP10: percentile(buckets, 0.1),
      perSecondP50: percentile(buckets, 0.5),
      perSecondP90: percentile(buckets, 0.9),
    };
  } finally {
    await core?.close().catch(() => undefined);
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const FLAT_STORM = 'read_rate_limit=1,retry_after_s=30';

/** A core's options on the paper broker's Kite dialect at `kiteRoot`, logged in as `key`. */
async function kiteCore(kiteRoot: string, key: string): Promise<Parameters<typeof createCore>[2]> {
  return {
    adapter: kiteAdapter(),
    target: { broker: 'kite', label: 'Kite (paper)', vaultKey: key },
    credentials: { apiKey: 'paper', apiSecret: 'paper', requestToken: await paperRequestToken(kiteRoot) },
  };
}

/** Waits until `check` holds, polling every 10 ms, for at most `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * One kill switch to flat: a core with its stream open reads the (flat) positions, buys 25 of one
 * equity itself, another client of the same account buys 10 of another, and once main's book
 * shows both filled the kill switch exits everything. Milliseconds from the click to the run's
 * end, which must be `done` with the broker flat.
 */
async function timeToFlat(dialect: Args['dialect'], faulted: boolean): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'td-safety-flat-'));
  const paper = await startPaperBroker({
    port: 0,
    tickIntervalMs: 0,
    rate: { perSecond: UNLIMITED, burst: UNLIMITED },
  });
  let core: TradingCore | null = null;
  let outside: TradingCore | null = null;
  try {
    const kiteRoot = paper.url.replace(/\/v1$/, '/kite');
    const root = dialect === 'rest' ? paper.url : kiteRoot;
    core = await createCore(root, join(dir, 'core'), {
      stream: true,
      ...(dialect === 'kite' ? await kiteCore(kiteRoot, 'kite-bench') : {}),
    });
    outside = await createCore(paper.url, join(dir, 'outside'), { rate: null });
    await core.start();
    await outside.start();
    const eq = (await core.broker.listInstruments('NSE'))
      .filter((i) => i.instrumentType === 'EQ' && i.lotSize === 1 && i.lastPrice > 0)
      .slice(0, 2) as [Instrument, Instrument];
    await until(() => core?.connection().stream === 'open', 10_000, 'the stream');
    await core.book.sync();
    await core.readPositions();
    const mine = await core.orders.place(marketBuyOf(eq[0], 25));
    const theirs = await outside.orders.place(marketBuyOf(eq[1], 10));
    if (mine.state !== 'placed' || theirs.state !== 'placed') throw new Error('a position was not opened');
    const c = core;
    await until(
      () => [mine.orderId, theirs.orderId].every((id) => c.book.order(id)?.status === 'COMPLETE'),
      10_000,
      'both fills in main’s book',
    );
    if (faulted) paper.setFaults(FLAT_STORM);
    const t0 = performance.now();
    core.safety.start({ kind: 'killSwitch', exitPositions: true });
    const deadline = setTimeout(() => stopRun(c), 120_000);
    await core.safety.idle();
    clearTimeout(deadline);
    const ms = performance.now() - t0;
    paper.setFaults({});
    const run = core.safety.current();
    const open = (await outside.broker.listPositions()).filter((p) => p.quantity !== 0);
    if (run?.state !== 'done' || open.length > 0)
      throw new Error(`not flat: run ${run?.state} (${run?.detail}); ${open.length} positions open at the broker`);
    return ms;
  } finally {
    await core?.close().catch(() => undefined);
    await outside?.close().catch(() => undefined);
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  }
}

interface FlatFigures {
  readonly dialect: Args['dialect'];
  readonly reps: number;
  readonly baselineP50Ms: number;
  readonly baselineP99Ms: number;
  readonly readThrottledP50Ms: number;
  readonly readThrottledP99Ms: number;
  /** Throttled p50 ÷ baseline p50, same run. */
  readonly p50ToBaseline: number;
}

async function measureFlat(reps: number): Promise<FlatFigures[]> {
  const out: FlatFigures[] = [];
  for (const dialect of ['rest', 'kite'] as const) {
    const base: number[] = [];
    const storm: number[] = [];
    // Interleaved, so a slow moment of the machine lands on both.
    for (let i = 0; i < reps; i++) {
      base.push(await timeToFlat(dialect, false));
      storm.push(await timeToFlat(dialect, true));
    }
    const f: FlatFigures = {
      dialect,
      reps,
      baselineP50Ms: Math.round(percentile(base, 0.5)),
      baselineP99Ms: Math.round(percentile(base, 0.99)),
      readThrottledP50Ms: Math.round(percentile(storm, 0.5)),
      readThrottledP99Ms: Math.round(percentile(storm, 0.99)),
      p50ToBaseline: round(percentile(storm, 0.5) / percentile(base, 0.5)),
    };
    console.log(
      `time to flat on ${dialect === 'rest' ? '/v1' : '/kite'} (2 positions, ${reps} runs each): ${FLAT_STORM} p50 ${f.readThrottledP50Ms} ms p99 ${f.readThrottledP99Ms} ms · without faults p50 ${f.baselineP50Ms} ms p99 ${f.baselineP99Ms} ms · ${f.p50ToBaseline}× the baseline`,
    );
    out.push(f);
  }
  return out;
}

/** Ends a run past the bench's deadline (the trader's Stop), where the core offers one. */
function stopRun(core: TradingCore | null): void {
  const safety = core?.safety as { stop?: () => void } | undefined;
  safety?.stop?.();
}

/** Milliseconds from a start to the first exit handed to the order service, and to flat. */
interface ToFlat {
  readonly toExitMs: number;
  readonly toFlatMs: number;
}

/**
 * One position flattened by the MTM stop (`byStop`) or by the trader's click: 25 of one equity
 * held, main's stream open and its positions read, a hard stop of ₹250; then the broker's price
 * moves 3% down (or the kill switch is clicked). Must end `done` with the broker flat.
 */
async function mtmToFlat(dialect: Args['dialect'], byStop: boolean): Promise<ToFlat> {
  const dir = await mkdtemp(join(tmpdir(), 'td-safety-mtm-'));
  const paper = await startPaperBroker({
    port: 0,
    tickIntervalMs: 0,
    rate: { perSecond: UNLIMITED, burst: UNLIMITED },
  });
  let core: TradingCore | null = null;
  let firstExit: number | null = null;
  try {
    const kiteRoot = paper.url.replace(/\/v1$/, '/kite');
    const root = dialect === 'rest' ? paper.url : kiteRoot;
    const c = await createCore(root, join(dir, 'core'), {
      stream: true,
      ...(dialect === 'kite' ? await kiteCore(kiteRoot, 'kite-bench') : {}),
      events: {
        onSafety: (run: SafetyRun) => {
          if (firstExit === null && run.steps.some((s) => s.kind === 'exit' && s.state !== 'pending'))
            firstExit = performance.now();
        },
        // Main's own subscription, as the app makes it.
        onMtmWatch: (tokens: ReadonlySet<number>) => core?.setSubscriptions(tokens),
      },
    });
    core = c;
    await c.start();
    const [eq] = (await c.broker.listInstruments('NSE')).filter(
      (i) => i.instrumentType === 'EQ' && i.lotSize === 1 && i.lastPrice > 0,
    ) as [Instrument];
    paper.setPrice(eq.instrumentToken, 1000);
    await until(() => c.connection().stream === 'open', 10_000, 'the stream');
    const bought = await c.orders.place(marketBuyOf(eq, 25));
    if (bought.state !== 'placed') throw new Error('the position was not opened');
    await until(() => c.book.order(bought.orderId)?.status === 'COMPLETE', 10_000, 'the fill in main’s book');
    c.mtm.setSettings({ ...NO_MTM_SETTINGS, stop: { value: 250, unit: 'rupees' }, hard: true });
    await until(() => c.mtm.state().status.state === 'watching', 10_000, 'the MTM watched');
    const t0 = performance.now();
    if (byStop) paper.setPrice(eq.instrumentToken, 970);
    else c.safety.start({ kind: 'killSwitch', exitPositions: true });
    await until(
      () => c.safety.current()?.state === 'done' || c.safety.current()?.state === 'incomplete',
      60_000,
      'the run',
    );
    const toFlatMs = performance.now() - t0;
    const run = c.safety.current();
    const open = (await c.broker.listPositions()).filter((p) => p.quantity !== 0);
    if (run?.state !== 'done' || open.length > 0 || firstExit === null)
      throw new Error(`not flat: run ${run?.state} (${run?.detail}); ${open.length} positions open at the broker`);
    return { toExitMs: firstExit - t0, toFlatMs };
  } finally {
    await core?.close().catch(() => undefined);
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  }
}

interface MtmFigures {
  readonly dialect: Args['dialect'];
  readonly reps: number;
  readonly stopToExitP50Ms: number;
  readonly stopToExitP99Ms: number;
  readonly stopToFlatP50Ms: number;
  readonly stopToFlatP99Ms: number;
  readonly clickToFlatP50Ms: number;
  readonly clickToFlatP99Ms: number;
  /** Stop-to-flat p50 ÷ click-to-flat p50, same run. */
  readonly p50ToBaseline: number;
}

async function measureMtm(reps: number): Promise<MtmFigures[]> {
  const out: MtmFigures[] = [];
  for (const dialect of ['rest', 'kite'] as const) {
    const click: ToFlat[] = [];
    const stop: ToFlat[] = [];
    // Interleaved, so a slow moment of the machine lands on both.
    for (let i = 0; i < reps; i++) {
      click.push(await mtmToFlat(dialect, false));
      stop.push(await mtmToFlat(dialect, true));
    }
    const p = (xs: ToFlat[], key: keyof ToFlat, q: number): number =>
      Math.round(
        percentile(
          xs.map((x) => x[key]),
          q,
        ),
      );
    const f: MtmFigures = {
      dialect,
      reps,
      stopToExitP50Ms: p(stop, 'toExitMs', 0.5),
      stopToExitP99Ms: p(stop, 'toExitMs', 0.99),
      stopToFlatP50Ms: p(stop, 'toFlatMs', 0.5),
      stopToFlatP99Ms: p(stop, 'toFlatMs', 0.99),
      clickToFlatP50Ms: p(click, 'toFlatMs', 0.5),
      clickToFlatP99Ms: p(click, 'toFlatMs', 0.99),
      p50ToBaseline: round(
        percentile(
          stop.map((x) => x.toFlatMs),
          0.5,
        ) /
          percentile(
            click.map((x) => x.toFlatMs),
            0.5,
          ),
      ),
    };
    console.log(
      `MTM stop on ${dialect === 'rest' ? '/v1' : '/kite'} (${reps} runs each): breach → first exit p50 ${f.stopToExitP50Ms} ms p99 ${f.stopToExitP99Ms} ms · breach → flat p50 ${f.stopToFlatP50Ms} ms p99 ${f.stopToFlatP99Ms} ms · click → flat p50 ${f.clickToFlatP50Ms} ms p99 ${f.clickToFlatP99Ms} ms · ${f.p50ToBaseline}× the click`,
    );
    out.push(f);
  }
  return out;
}

export async function run(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (args.part === 'mtm') {
    const mtm = await measureMtm(args.flatReps);
    console.log(JSON.stringify({ bench: 'safety', mtmToFlat: mtm }));
    return;
  }
  const results: Measured[] = [];
  const flat = args.part === 'cancels' ? [] : await measureFlat(args.flatReps);
  if (args.part === 'flat') {
    console.log(JSON.stringify({ bench: 'safety', timeToFlat: flat }));
    return;
  }
  console.log(
    `kill switch over N working orders on ${args.dialect === 'rest' ? '/v1' : '/kite'}, the app's client limits against the broker's own; faults: ${args.faults}`,
  );
  for (const n of args.orders) {
    const seeded = await seed(n);
    try {
      for (const faulted of [false, true]) {
        const m = await measure(seeded, n, args, faulted);
        results.push(m);
        console.log(
          `N=${String(n).padStart(4)} ${m.mode.padEnd(8)} ${m.cancelled}/${n} cancelled in ${m.seconds} s (${m.state}, ${m.stillOpen} still open)` +
            ` · ${m.cancelsPerSecond} cancels/s = ${m.ratio} of the published ${m.publishedPerSecond}/s` +
            ` · ${m.requestsPerSecond} requests/s, ${m.rateLimited} × 429` +
            ` · cancelled after p50 ${m.doneP50Ms} ms p90 ${m.doneP90Ms} ms p99 ${m.doneP99Ms} ms` +
            ` · per second p10 ${m.perSecondP10} p50 ${m.perSecondP50} p90 ${m.perSecondP90}`,
        );
      }
    } finally {
      await rm(seeded, { recursive: true, force: true });
    }
  }
  const byN = args.orders.map((n) => {
    const base = results.find((r) => r.orders === n && r.mode === 'baseline');
    const faults = results.find((r) => r.orders === n && r.mode === 'faults');
    const toBaseline = base && faults ? round(faults.cancelsPerSecond / base.cancelsPerSecond) : Number.NaN;
    console.log(
      `N=${n}: under faults ${faults?.ratio} of the published limit, ${toBaseline} of the baseline's ${base?.cancelsPerSecond} cancels/s`,
    );
    return {
      orders: n,
      ratioToPublished: { baseline: base?.ratio, faults: faults?.ratio },
      faultsToBaseline: toBaseline,
    };
  });
  console.log(
    JSON.stringify({
      bench: 'safety',
      dialect: args.dialect,
      faults: args.faults,
      byN,
      runs: results,
      timeToFlat: flat,
    }),
  );
}
