/**
 * `npm run bench -- orders [--broker kite|upstox] [--broker-url URL] [--api-key K] [--access-token-file PATH|-]
 *  [--orders N] [--concurrency C | --clicks-per-second R] [--faults SPEC] [--no-idempotency] [--orderbook-lag-ms N]
 *  [--rate R | --app-limits]`
 *
 * `--broker kite` drives the Kite adapter (docs/kite.md): against `--broker-url` (Kite's API
 * root, or a paper broker's `…/kite`) with `--api-key` and the day's access token (`TRADEDESK_ACCESS_TOKEN` or
 * `--access-token-file`, never an argument: README.md); without a
 * URL, against the embedded paper broker's `/kite`, logged in through its login page.
 * `--broker upstox` drives the Upstox adapter (docs/upstox.md §The adapter) the same way: its API
 * root, or a paper broker's `…/upstox`, with the day's access token; without a URL, the embedded
 * paper broker's `/upstox`, logged in through its login dialog's authorization code.
 *
 * Load driver: places N distinct orders through the trading core — the same TradingCore,
 * ledger, order service and transport the app runs — and measures **time to certainty**: from
 * the click until the trader knows (placed or refused), whether the answer came at once or the
 * intent was answered "not yet confirmed" and settled later. Prints a one-line JSON summary
 * last. Without `--broker-url` it starts its own paper broker with `--faults`,
 * `--no-idempotency` and `--orderbook-lag-ms` (its order reads trail its orders by N ms,
 * docs/api.md §A lagging order book) applied. `--app-limits` runs the client as the app does (its
 * default limits, following what the broker publishes; a 429's Retry-After pauses its lane) against
 * an embedded broker keeping its own default limits, instead of both unlimited.
 * `--clicks-per-second R` clicks at a steady R a second (open loop) instead of keeping C in flight.
 * The summary splits each intent's time to certainty into checks and journal, sending, looking up
 * and waiting (Retry-After, pacing, the window), and says how long requests queued for the limits.
 *
 * With no arguments, a comparison run: click-free placement latency through the core versus a
 * bare undici POST to the same embedded paper broker in the same run (the ratio is the core's
 * overhead), placements/s at concurrency 1, 8 and 32, and time to certainty at 300 orders with
 * no faults (the baseline), with 20% of replies dropped (connection closed) and with 20% of
 * replies lost (no reply at all). Loopback only, bounded in count and time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { AppError } from '@shared/ipc/app-error';
import type { OrderRequest } from '@shared/domain/order';
import { newClientOrderId } from '../electron/core/orders/client-order-id';
import { kiteAdapter } from '../electron/broker/kite/kite-adapter';
import { upstoxAdapter } from '../electron/broker/upstox/upstox-adapter';
import { paperUpstoxCode, UPSTOX_TEST_REDIRECT } from '../electron/core/testing/dialects';
import type { RequestKind } from '../electron/broker/rest/rest-transport';
import { createCore, marketBuy } from '../electron/core/testing/core-fixture';
import type { TradingCore, TradingCoreEvents } from '../electron/core/trading-core';
import { MAX_ORDERBOOK_LAG_MS, startPaperBroker, type PaperBroker } from '../electron/paper';
import { ACCESS_TOKEN, readSecret, refusedFlagMessage } from '../electron/wire/secret-input';

const MAX_ORDERS = 20_000;
const MAX_CONCURRENCY = 256;
const DEADLINE_MS = 180_000;
/** An answer slower than this is counted by why in `answers_slow`. */
const SLOW_ANSWER_MS = 250;

interface Args {
  dialect: 'rest' | 'kite' | 'upstox';
  brokerUrl?: string;
  apiKey?: string;
  accessToken?: string;
  /** `--access-token-file PATH|-`: read into `accessToken` before the run (README.md). */
  accessTokenFile?: string;
  orders: number;
  concurrency: number;
  faults?: string;
  rate?: number;
  /** The embedded paper broker accepts a reused client_order_id as a new order. */
  noIdempotency: boolean;
  /** The embedded paper broker's order reads trail its orders by this many ms (docs/api.md §A lagging order book). */
  orderbookLagMs?: number;
  /** The client's limits as the app's, against a broker keeping its own. */
  appLimits: boolean;
  /** Open loop: clicks at this steady rate instead of `concurrency` in flight. */
  clicksPerSecond?: number;
}

function parseArgs(argv: readonly string[]): Args {
  const out: Args = { dialect: 'rest', orders: 1000, concurrency: 8, noIdempotency: false, appLimits: false };
  for (let i = 0; i < argv.length; i += 1) {
    const key = argv[i];
    if (key === '--no-idempotency') {
      out.noIdempotency = true;
      continue;
    }
    if (key === '--app-limits') {
      out.appLimits = true;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${key} needs a value`);
    i += 1;
    if (key === '--broker') {
      if (value !== 'rest' && value !== 'kite' && value !== 'upstox')
        throw new Error(`--broker must be rest, kite or upstox, not ${value}`);
      out.dialect = value;
    } else if (key === '--api-key') out.apiKey = value;
    else if (key === '--access-token') throw new Error(refusedFlagMessage(ACCESS_TOKEN));
    else if (key === '--access-token-file') out.accessTokenFile = value;
    else if (key === '--broker-url') out.brokerUrl = value;
    else if (key === '--orders') out.orders = boundedInt(key, value, 1, MAX_ORDERS);
    else if (key === '--concurrency') out.concurrency = boundedInt(key, value, 1, MAX_CONCURRENCY);
    else if (key === '--faults') out.faults = value;
    else if (key === '--orderbook-lag-ms') out.orderbookLagMs = boundedInt(key, value, 0, MAX_ORDERBOOK_LAG_MS);
    else if (key === '--rate') out.rate = boundedInt(key, value, 1, 100_000);
    else if (key === '--clicks-per-second') out.clicksPerSecond = boundedInt(key, value, 1, 1_000);
    else throw new Error(`unknown option ${key}`);
  }
  // Any broker speaking the wire contract of docs/api.md will do; a remote one
  // keeps the client-side bucket on (see loadDriver), so the driver never floods it.
  if (out.brokerUrl && !/^https?:$/.test(new URL(out.brokerUrl).protocol)) {
    throw new Error(`--broker-url must be an http(s) URL such as http://127.0.0.1:PORT/v1, not ${out.brokerUrl}`);
  }
  const envToken = process.env[ACCESS_TOKEN.envName];
  if (envToken) out.accessToken = envToken;
  if (out.dialect !== 'rest' && out.brokerUrl && (!out.apiKey || (!out.accessToken && !out.accessTokenFile))) {
    throw new Error(
      `--broker ${out.dialect} --broker-url needs --api-key and the day’s access token (${ACCESS_TOKEN.envName} or --access-token-file)`,
    );
  }
  if (out.brokerUrl && (out.faults || out.noIdempotency || out.orderbookLagMs !== undefined)) {
    throw new Error(
      '--faults, --no-idempotency and --orderbook-lag-ms configure the embedded paper broker; start yours with them instead',
    );
  }
  return out;
}

function boundedInt(key: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${key} must be an integer in [${min}, ${max}]`);
  return n;
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

const round = (n: number): number => Math.round(n * 100) / 100;

/**
 * A generous embedded broker, so the bench measures the client, not the broker's limiter; with
 * `ownLimits`, one that keeps its default limits (as a real broker does).
 */
function startLocalPaper(
  faults?: string,
  noIdempotency = false,
  orderbookLagMs = 0,
  ownLimits = false,
): Promise<PaperBroker> {
  const unlimited = 1_000_000;
  return startPaperBroker({
    port: 0,
    tickIntervalMs: 0,
    ...(ownLimits
      ? {}
      : {
          rate: { perSecond: unlimited, burst: unlimited },
          kiteRates: {
            quotePerSecond: unlimited,
            historicalPerSecond: unlimited,
            ordersPerSecond: unlimited,
            ordersPerMinute: unlimited,
            ordersPerDay: unlimited,
            defaultPerSecond: unlimited,
          },
          upstoxRates: {
            orders: { perSecond: unlimited, perMinute: unlimited, perHalfHour: unlimited },
            standard: { perSecond: unlimited, perMinute: unlimited, perHalfHour: unlimited },
          },
        }),
    startingCash: 1e12,
    ...(faults ? { faults } : {}),
    ...(noIdempotency ? { idempotency: false } : {}),
    ...(orderbookLagMs > 0 ? { orderbookLagMs } : {}),
  });
}

/** How the bench logs in to Kite or Upstox: the given key and token, or the embedded paper broker's login page. */
export interface KiteLogin {
  readonly dialect: 'kite' | 'upstox';
  readonly apiKey: string;
  readonly accessToken?: string;
}

/** A request token from a paper broker's Kite login page (its default redirect carries it). */
async function paperRequestToken(kiteRoot: string): Promise<string> {
  const r = await fetch(`${kiteRoot}/connect/login?v=3&api_key=paper`, { redirect: 'manual' });
  return new URL(r.headers.get('location') ?? '').searchParams.get('request_token') ?? '';
}

/** The client's limits: a rate (burst twice it), none, or the app's own (`'app'`). */
type ClientRate = number | null | 'app';

async function newCore(
  baseUrl: string,
  dir: string,
  rate: ClientRate,
  extra: { events?: TradingCoreEvents; newClientOrderId?: () => string } = {},
  kite: KiteLogin | null = null,
): Promise<TradingCore> {
  const kiteOptions =
    kite?.dialect === 'upstox'
      ? {
          adapter: upstoxAdapter(),
          target: { broker: 'upstox' as const, label: 'bench', vaultKey: 'bench-upstox' },
          credentials: kite.accessToken
            ? { apiKey: kite.apiKey, apiSecret: '', accessToken: kite.accessToken }
            : {
                apiKey: 'paper',
                apiSecret: 'paper',
                requestToken: await paperUpstoxCode(baseUrl),
                redirectUri: UPSTOX_TEST_REDIRECT,
              },
        }
      : kite
        ? {
            adapter: kiteAdapter(),
            target: { broker: 'kite' as const, label: 'bench', vaultKey: 'bench-kite' },
            credentials: kite.accessToken
              ? { apiKey: kite.apiKey, apiSecret: '', accessToken: kite.accessToken }
              : { apiKey: 'paper', apiSecret: 'paper', requestToken: await paperRequestToken(baseUrl) },
          }
        : {};
  const core = await createCore(baseUrl, dir, {
    target: { broker: 'rest', label: 'bench', vaultKey: 'bench' },
    ...kiteOptions,
    ...(rate === 'app'
      ? {}
      : {
          rate: rate === null ? null : { perSecond: rate, burst: rate * 2 },
          // Injected 429s are random, not a real limit: each placement waits its own Retry-After.
          pauseAllOnRetryAfter: false,
        }),
    connections: 32,
    ...extra,
  });
  await core.start();
  return core;
}

async function benchOrder(core: TradingCore): Promise<OrderRequest> {
  return marketBuy(await core.broker.listInstruments('NSE'));
}

/** Runs `count` jobs at `concurrency`, stopping new ones at the deadline; returns per-job ms or null. */
async function drive(
  count: number,
  concurrency: number,
  job: () => Promise<boolean>,
): Promise<{ ms: Array<number | null>; wallMs: number }> {
  const ms: Array<number | null> = [];
  let next = 0;
  const start = performance.now();
  const deadline = start + DEADLINE_MS;
  const worker = async (): Promise<void> => {
    while (next < count && performance.now() < deadline) {
      next += 1;
      const t0 = performance.now();
      const ok = await job().catch(() => false);
      ms.push(ok ? performance.now() - t0 : null);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { ms, wallMs: performance.now() - start };
}

/** What a time-to-certainty run found. */
interface Certainty {
  intended: number;
  placed: number;
  /** Placed from the POST's own reply. */
  acknowledged: number;
  /** Placed from a lookup or a 409. */
  recovered: number;
  /** Refused (nothing created), at once or after a "not yet confirmed" answer. */
  refused: number;
  /** Answered "not yet confirmed" (settled later, in the background). */
  unconfirmed_at_answer: number;
  /** Still not certain when the run ended (should be 0). */
  never_certain: number;
  /** References the broker holds more than one order for (must be 0). */
  duplicates: number;
  answer_p50_ms: number;
  answer_p99_ms: number;
  /** The answer's quartiles, p25 and p75: how far the median is from a knee. */
  answer_p25_ms: number;
  answer_p75_ms: number;
  /** The answer p50 of the intents no POST of which was answered 5xx, and of those (`with_5xx`). */
  answer_p50_without_5xx_ms: number;
  answer_p50_with_5xx_ms: number;
  /**
   * Answers slower than `over_ms`, by why: a POST of the intent's own answered 429 (re-sent after
   * its Retry-After), or 5xx, or neither (held behind another write's 429, a lookup, the machine).
   */
  answers_slow: { over_ms: number; own_429: number; with_5xx: number; other: number };
  certainty_p50_ms: number;
  certainty_p99_ms: number;
  /**
   * Intents a POST of which was answered 5xx: on a broker that does not deduplicate references
   * (Kite) each must wait out its landing horizon before it may end "not placed"; apart from the
   * rest, whose certainty is the client's own doing.
   */
  with_5xx: number;
  certainty_p99_without_5xx_ms: number;
  certainty_p99_with_5xx_ms: number;
  /**
   * Where the time to certainty went, averaged over every intent (`mean_…`) and over the slowest
   * 1% (`slow_…`): the checks and the journal before the first POST, a POST on its way, a lookup
   * on its way (no POST), and nothing on its way (a Retry-After, the lookups' pacing, the window).
   */
  split_mean_ms: Split;
  split_slowest_1pct_ms: Split;
  /** How long a request waited for the client's own limits (bucket, order pacer), on average. */
  limiter_wait_per_request_ms: number;
  /**
   * The same wait by kind of request (order writes, order actions' own reads such as a
   * placement's lookup, the rest) and by limiter: how many, and the mean ms in the order pacer
   * and in the client bucket.
   */
  limiter_waits: Record<RequestKind, { requests: number; pacer_ms: number; bucket_ms: number }>;
  requests: number;
  rate_limited: number;
}

interface Split {
  checks: number;
  sending: number;
  looking_up: number;
  waiting: number;
}

/** How the clicks come: `concurrency` kept in flight (closed loop), or a steady rate (open loop). */
type Load = { readonly concurrency: number } | { readonly clicksPerSecond: number };

/** Merged length of intervals clipped to [from, to]. */
function covered(intervals: ReadonlyArray<readonly [number, number]>, from: number, to: number): number {
  const clipped = intervals
    .map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [a, b] of clipped) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

/**
 * N placements through a core; for each, how long until the trader was told placed or refused
 * (the answer itself, or the `placements.changed` event that settled a "not yet confirmed"), and
 * where that time went.
 */
async function timeToCertainty(
  baseUrl: string,
  n: number,
  load: Load,
  rate: ClientRate,
  kite: KiteLogin | null = null,
): Promise<Certainty> {
  const dir = await mkdtemp(join(tmpdir(), 'td-bench-'));
  const settledAt = new Map<string, { at: number; state: string; recovered: boolean }>();
  const references: string[] = [];
  const core = await newCore(
    baseUrl,
    dir,
    rate,
    {
      events: {
        onPlacements: (list) => {
          for (const p of list) {
            if (p.state === 'checking' || settledAt.has(p.clientOrderId)) continue;
            settledAt.set(p.clientOrderId, {
              at: performance.now(),
              state: p.state,
              recovered: p.detail.includes('asking'),
            });
          }
        },
      },
      newClientOrderId: () => {
        const id = newClientOrderId();
        references.push(id);
        return id;
      },
    },
    kite,
  );
  // Each intent's POSTs and lookups, as intervals (the order service calls this same broker).
  const posts = new Map<string, Array<[number, number]>>();
  const lookups = new Map<string, Array<[number, number]>>();
  const timed = <A extends unknown[], R>(
    into: Map<string, Array<[number, number]>>,
    cidOf: (...a: A) => string,
    fn: (...a: A) => Promise<R>,
  ) => {
    return async (...a: A): Promise<R> => {
      const t0 = performance.now();
      try {
        return await fn(...a);
      } finally {
        const cid = cidOf(...a);
        into.set(cid, [...(into.get(cid) ?? []), [t0, performance.now()]]);
      }
    };
  };
  const broker = core.broker;
  const fiveXX = new Set<string>();
  const own429 = new Set<string>();
  const place = broker.placeOrder.bind(broker);
  broker.placeOrder = timed(
    posts,
    (cmd) => cmd.clientOrderId,
    async (...a: Parameters<typeof place>) => {
      try {
        return await place(...a);
      } catch (e) {
        if (e instanceof AppError && e.info.kind === 'server_error') fiveXX.add(a[0].clientOrderId);
        if (e instanceof AppError && e.info.kind === 'rate_limited') own429.add(a[0].clientOrderId);
        throw e;
      }
    },
  );
  broker.findOrders = timed(lookups, (cid) => cid, broker.findOrders.bind(broker));
  try {
    const order = await benchOrder(core);
    await core.catalog.find(order.exchange, order.tradingsymbol);
    const sentBefore = core.stats.sent;
    const waitedBefore = core.stats.limiterWaitMs;
    const waitsBefore = structuredClone(core.stats.waits);
    const limitedBefore = core.stats.rateLimited;
    const clicks: Array<{ t0: number; answeredAt: number; cid: string | null; state: string; recovered: boolean }> = [];
    const click = async (): Promise<void> => {
      const t0 = performance.now();
      try {
        const a = await core.orders.place(order);
        const recovered = a.state === 'placed' && a.recovered;
        clicks.push({ t0, answeredAt: performance.now(), cid: a.clientOrderId, state: a.state, recovered });
      } catch {
        clicks.push({ t0, answeredAt: performance.now(), cid: null, state: 'refused', recovered: false });
      }
    };
    if ('concurrency' in load) {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < n) {
          next += 1;
          await click();
        }
      };
      await Promise.all(Array.from({ length: Math.min(load.concurrency, n) }, worker));
    } else {
      const gap = 1000 / load.clicksPerSecond;
      const start = performance.now();
      const all: Promise<void>[] = [];
      for (let i = 0; i < n; i += 1) {
        const due = start + i * gap - performance.now();
        if (due > 0) await new Promise((r) => setTimeout(r, due));
        all.push(click());
      }
      await Promise.all(all);
    }
    await Promise.race([core.orders.idle(), new Promise((r) => setTimeout(r, DEADLINE_MS).unref())]);
    const answers: number[] = [];
    const certain: Array<{ ms: number; split: Split; fiveXX: boolean }> = [];
    const out: Certainty = {
      intended: n,
      placed: 0,
      acknowledged: 0,
      recovered: 0,
      refused: 0,
      unconfirmed_at_answer: 0,
      never_certain: 0,
      duplicates: 0,
      answer_p50_ms: 0,
      answer_p99_ms: 0,
      answer_p25_ms: 0,
      answer_p75_ms: 0,
      answer_p50_without_5xx_ms: 0,
      answer_p50_with_5xx_ms: 0,
      answers_slow: { over_ms: SLOW_ANSWER_MS, own_429: 0, with_5xx: 0, other: 0 },
      certainty_p50_ms: 0,
      certainty_p99_ms: 0,
      with_5xx: 0,
      certainty_p99_without_5xx_ms: 0,
      certainty_p99_with_5xx_ms: 0,
      split_mean_ms: { checks: 0, sending: 0, looking_up: 0, waiting: 0 },
      split_slowest_1pct_ms: { checks: 0, sending: 0, looking_up: 0, waiting: 0 },
      limiter_wait_per_request_ms: 0,
      limiter_waits: {
        orderWrites: { requests: 0, pacer_ms: 0, bucket_ms: 0 },
        orderReads: { requests: 0, pacer_ms: 0, bucket_ms: 0 },
        others: { requests: 0, pacer_ms: 0, bucket_ms: 0 },
      },
      requests: core.stats.sent - sentBefore,
      rate_limited: core.stats.rateLimited - limitedBefore,
    };
    const answersApart: { with: number[]; without: number[] } = { with: [], without: [] };
    for (const c of clicks) {
      const answer = c.answeredAt - c.t0;
      answers.push(answer);
      const five = c.cid !== null && fiveXX.has(c.cid);
      (five ? answersApart.with : answersApart.without).push(answer);
      if (answer > SLOW_ANSWER_MS) {
        if (c.cid !== null && own429.has(c.cid)) out.answers_slow.own_429 += 1;
        else if (five) out.answers_slow.with_5xx += 1;
        else out.answers_slow.other += 1;
      }
      let state = c.state;
      let recovered = c.recovered;
      let at = c.answeredAt;
      if (state === 'unconfirmed') {
        out.unconfirmed_at_answer += 1;
        const later = c.cid ? settledAt.get(c.cid) : undefined;
        if (!later) {
          out.never_certain += 1;
          continue;
        }
        ({ state, recovered, at } = later);
      }
      const p = (c.cid ? posts.get(c.cid) : undefined) ?? [];
      const l = (c.cid ? lookups.get(c.cid) : undefined) ?? [];
      const firstPost = Math.min(at, ...p.map(([a]) => a));
      const sending = covered(p, c.t0, at);
      const lookingUp = covered([...p, ...l], c.t0, at) - sending;
      const checks = firstPost - c.t0;
      certain.push({
        fiveXX: c.cid !== null && fiveXX.has(c.cid),
        ms: at - c.t0,
        split: {
          checks,
          sending,
          looking_up: lookingUp,
          waiting: Math.max(0, at - c.t0 - checks - sending - lookingUp),
        },
      });
      if (state === 'placed') {
        out.placed += 1;
        if (recovered) out.recovered += 1;
        else out.acknowledged += 1;
      } else out.refused += 1;
    }
    const mine = new Set(references);
    const perRef = new Map<string, number>();
    for (const o of await core.broker.listOrders({}, { urgent: true })) {
      if (o.clientOrderId && mine.has(o.clientOrderId))
        perRef.set(o.clientOrderId, (perRef.get(o.clientOrderId) ?? 0) + 1);
    }
    out.duplicates = [...perRef.values()].filter((k) => k > 1).length;
    answers.sort((a, b) => a - b);
    certain.sort((a, b) => a.ms - b.ms);
    out.answer_p50_ms = round(percentile(answers, 0.5));
    out.answer_p99_ms = round(percentile(answers, 0.99));
    out.answer_p25_ms = round(percentile(answers, 0.25));
    out.answer_p75_ms = round(percentile(answers, 0.75));
    for (const list of [answersApart.with, answersApart.without]) list.sort((a, b) => a - b);
    out.answer_p50_with_5xx_ms = round(percentile(answersApart.with, 0.5));
    out.answer_p50_without_5xx_ms = round(percentile(answersApart.without, 0.5));
    const ms = certain.map((c) => c.ms);
    out.certainty_p50_ms = round(percentile(ms, 0.5));
    out.certainty_p99_ms = round(percentile(ms, 0.99));
    const withFive = certain.filter((c) => c.fiveXX).map((c) => c.ms);
    out.with_5xx = withFive.length;
    out.certainty_p99_with_5xx_ms = round(percentile(withFive, 0.99));
    out.certainty_p99_without_5xx_ms = round(
      percentile(
        certain.filter((c) => !c.fiveXX).map((c) => c.ms),
        0.99,
      ),
    );
    const mean = (rows: ReadonlyArray<{ split: Split }>): Split => {
      const sum = { checks: 0, sending: 0, looking_up: 0, waiting: 0 };
      for (const r of rows) for (const k of Object.keys(sum) as Array<keyof Split>) sum[k] += r.split[k];
      for (const k of Object.keys(sum) as Array<keyof Split>) sum[k] = round(sum[k] / Math.max(1, rows.length));
      return sum;
    };
    out.split_mean_ms = mean(certain);
    out.split_slowest_1pct_ms = mean(certain.slice(Math.floor(certain.length * 0.99)));
    out.limiter_wait_per_request_ms = round((core.stats.limiterWaitMs - waitedBefore) / Math.max(1, out.requests));
    for (const kind of Object.keys(out.limiter_waits) as RequestKind[]) {
      const now = core.stats.waits[kind];
      const was = waitsBefore[kind];
      const requests = now.requests - was.requests;
      out.limiter_waits[kind] = {
        requests,
        pacer_ms: round((now.pacerMs - was.pacerMs) / Math.max(1, requests)),
        bucket_ms: round((now.bucketMs - was.bucketMs) / Math.max(1, requests)),
      };
    }
    return out;
  } finally {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The load driver: N orders through the core, summary JSON last. */
async function loadDriver(args: Args): Promise<void> {
  const paper = args.brokerUrl
    ? null
    : await startLocalPaper(args.faults, args.noIdempotency, args.orderbookLagMs, args.appLimits);
  const local = args.dialect === 'rest' ? paper?.url : paper?.url.replace(/\/v1$/, `/${args.dialect}`);
  const baseUrl = args.brokerUrl ?? local ?? '';
  const kite: KiteLogin | null =
    args.dialect !== 'rest'
      ? {
          dialect: args.dialect,
          apiKey: args.apiKey ?? 'paper',
          ...(args.accessToken ? { accessToken: args.accessToken } : {}),
        }
      : null;
  try {
    // A remote broker keeps its limits, so the client bucket stays on (8/s unless --rate).
    const rate: ClientRate = args.appLimits ? 'app' : args.brokerUrl ? (args.rate ?? 8) : (args.rate ?? null);
    const load: Load =
      args.clicksPerSecond !== undefined
        ? { clicksPerSecond: args.clicksPerSecond }
        : { concurrency: args.concurrency };
    const result = await timeToCertainty(baseUrl, args.orders, load, rate, kite);
    const broker = args.brokerUrl
      ? 'the given broker'
      : `an embedded paper broker${args.faults ? ` with faults ${args.faults}` : ''}${args.noIdempotency ? ', references not unique' : ''}${args.orderbookLagMs ? `, order book ${args.orderbookLagMs} ms behind` : ''}`;
    const how = { rest: '', kite: ' (Kite adapter)', upstox: ' (Upstox adapter)' }[args.dialect];
    const pace =
      'clicksPerSecond' in load ? `${load.clicksPerSecond} clicks a second` : `concurrency ${args.concurrency}`;
    const limits = args.appLimits ? ', client limits as the app’s (the broker keeping its own)' : '';
    console.log(`placed through the core at ${pace} against ${broker}${how}${limits}`);
    console.log(JSON.stringify(result));
  } finally {
    await paper?.close();
  }
}

/** Time to certainty at 300 orders: no faults (baseline), replies dropped, replies lost. */
async function certaintyComparison(): Promise<Record<string, number>> {
  const runs: Array<[string, string | undefined]> = [
    ['baseline', undefined],
    ['drop_reply', 'drop_reply=0.2'],
    ['stall_reply', 'stall_reply=0.2'],
  ];
  const figures: Record<string, number> = {};
  const rows: string[] = [];
  for (const [name, faults] of runs) {
    const paper = await startLocalPaper(faults, true);
    try {
      const r = await timeToCertainty(paper.url, 300, { concurrency: 8 }, null);
      rows.push(
        `${name.padEnd(12)} certainty p50 ${r.certainty_p50_ms} ms  p99 ${r.certainty_p99_ms} ms   answer p99 ${r.answer_p99_ms} ms   ` +
          `unconfirmed at answer ${r.unconfirmed_at_answer}, never certain ${r.never_certain}, refused ${r.refused}, recovered ${r.recovered}, duplicates ${r.duplicates}`,
      );
      figures[`ttc_${name}_p50_ms`] = r.certainty_p50_ms;
      figures[`ttc_${name}_p99_ms`] = r.certainty_p99_ms;
      figures[`ttc_${name}_unconfirmed`] = r.unconfirmed_at_answer;
      figures[`ttc_${name}_never_certain`] = r.never_certain;
      figures[`ttc_${name}_duplicates`] = r.duplicates;
    } finally {
      await paper.close();
    }
  }
  console.log('time to certainty, 300 orders at concurrency 8, references not unique (--no-idempotency):');
  for (const row of rows) console.log(`  ${row}`);
  const base = figures.ttc_baseline_p99_ms ?? Number.NaN;
  figures.ttc_drop_vs_baseline_p99 = round((figures.ttc_drop_reply_p99_ms ?? Number.NaN) / base);
  figures.ttc_stall_vs_baseline_p99 = round((figures.ttc_stall_reply_p99_ms ?? Number.NaN) / base);
  return figures;
}

/** A bare keep-alive undici POST /orders, logged in once: the floor the core is compared with. */
async function bareClient(
  baseUrl: string,
): Promise<{ place(order: OrderRequest, cid: string): Promise<boolean>; close(): Promise<void> }> {
  const url = new URL(baseUrl);
  const pool = new Pool(url.origin, { connections: 32 });
  const login = await pool.request({
    path: `${url.pathname}/session`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  const { access_token: token } = (await login.body.json()) as { access_token: string };
  return {
    async place(o, cid) {
      const res = await pool.request({
        path: `${url.pathname}/orders`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          exchange: o.exchange,
          tradingsymbol: o.tradingsymbol,
          transaction_type: o.transactionType,
          quantity: o.quantity,
          order_type: o.orderType,
          product: o.product,
          validity: o.validity,
          client_order_id: cid,
        }),
      });
      await res.body.text();
      return res.statusCode === 201;
    },
    close: () => pool.close(),
  };
}

/** The comparison run: core vs bare latency (interleaved), then core throughput at 1/8/32. */
async function comparison(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'td-bench-'));
  const paper = await startLocalPaper();
  const core = await newCore(paper.url, dir, null);
  const bare = await bareClient(paper.url);
  try {
    const order = await benchOrder(core);
    let seq = 0;
    const bareJob = (): Promise<boolean> => bare.place(order, `bare-${process.pid}-${(seq += 1)}`);
    const coreJob = async (): Promise<boolean> => (await core.orders.place(order), true);
    // The transport alone (token, parsing, mapping; no rules, no journal): splits the overhead.
    const transportJob = async (): Promise<boolean> => (
      await core.broker.placeOrder({ ...order, clientOrderId: `tr-${process.pid}-${(seq += 1)}` }),
      true
    );
    // Warm both paths (JIT, sockets), then interleave batches so drift hits both alike.
    await drive(50, 1, bareJob);
    await drive(50, 1, coreJob);
    await drive(50, 1, transportJob);
    const bareMs: number[] = [];
    const coreMs: number[] = [];
    const transportMs: number[] = [];
    for (let batch = 0; batch < 6; batch += 1) {
      for (const m of (await drive(50, 1, bareJob)).ms) if (m !== null) bareMs.push(m);
      for (const m of (await drive(50, 1, transportJob)).ms) if (m !== null) transportMs.push(m);
      for (const m of (await drive(50, 1, coreJob)).ms) if (m !== null) coreMs.push(m);
    }
    bareMs.sort((a, b) => a - b);
    coreMs.sort((a, b) => a - b);
    transportMs.sort((a, b) => a - b);
    const row = (name: string, s: number[]): string =>
      `${name.padEnd(18)} p50 ${percentile(s, 0.5).toFixed(2)} ms   p99 ${percentile(s, 0.99).toFixed(2)} ms   (n=${s.length})`;
    console.log(row('bare undici POST', bareMs));
    console.log(row('transport only', transportMs));
    console.log(row('through the core', coreMs));
    const ratio50 = percentile(coreMs, 0.5) / percentile(bareMs, 0.5);
    const ratio99 = percentile(coreMs, 0.99) / percentile(bareMs, 0.99);
    console.log(`core overhead: p50 ×${ratio50.toFixed(2)}, p99 ×${ratio99.toFixed(2)}`);
    const throughput: Record<string, number> = {};
    for (const c of [1, 8, 32]) {
      const coreRun = await drive(400, c, coreJob);
      const bareRun = await drive(400, c, bareJob);
      const perS = (r: { ms: Array<number | null>; wallMs: number }): number =>
        r.ms.filter((m) => m !== null).length / (r.wallMs / 1000);
      throughput[`core_c${c}_per_s`] = Math.round(perS(coreRun));
      throughput[`bare_c${c}_per_s`] = Math.round(perS(bareRun));
      console.log(
        `concurrency ${String(c).padStart(2)}: core ${Math.round(perS(coreRun))} placements/s, bare ${Math.round(perS(bareRun))}/s`,
      );
    }
    const certainty = await certaintyComparison();
    console.log(
      JSON.stringify({
        bare_p50_ms: round(percentile(bareMs, 0.5)),
        bare_p99_ms: round(percentile(bareMs, 0.99)),
        transport_p50_ms: round(percentile(transportMs, 0.5)),
        transport_p99_ms: round(percentile(transportMs, 0.99)),
        core_p50_ms: round(percentile(coreMs, 0.5)),
        core_p99_ms: round(percentile(coreMs, 0.99)),
        ratio_p50: round(ratio50),
        ratio_p99: round(ratio99),
        ...throughput,
        ...certainty,
      }),
    );
  } finally {
    await bare.close();
    await core.close();
    await paper.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Entry point called by bench/cli.ts. */
export async function run(argv: string[]): Promise<void> {
  if (argv.length === 0) return comparison();
  const args = parseArgs(argv);
  if (args.accessTokenFile !== undefined) {
    const accessToken = await readSecret(ACCESS_TOKEN, {
      file: args.accessTokenFile,
      env: process.env,
      stdin: process.stdin,
      platform: process.platform,
    });
    if (accessToken !== undefined) args.accessToken = accessToken;
  }
  return loadDriver(args);
}
