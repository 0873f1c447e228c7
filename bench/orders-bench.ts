/**
 * `npm run bench -- orders [--broker-url URL] [--orders N] [--concurrency C] [--faults SPEC] [--rate R]`
 *
 * Load driver: places N distinct orders through the trading core — the same TradingCore,
 * ledger, order service and transport the app runs — and prints a one-line JSON summary last:
 * `{"intended","acknowledged","recovered","failed","p50_ms","p99_ms"}`.
 *
 * With no arguments, a comparison run: click-free placement latency through the core versus a
 * bare undici POST to the same embedded paper broker in the same run (the ratio is the core's
 * overhead: rules, fsynced journal, parsing, bookkeeping), and placements/s at concurrency
 * 1, 8 and 32. Loopback only, bounded in count and time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { OrderRequest } from '../shared/domain/order';
import { MemoryVault } from '../electron/core/session/secret-vault';
import { TradingCore } from '../electron/core/trading-core';
import { startPaperBroker, type PaperBroker } from '../electron/paper';

const MAX_ORDERS = 20_000;
const MAX_CONCURRENCY = 256;
const DEADLINE_MS = 180_000;

interface Args {
  brokerUrl?: string;
  orders: number;
  concurrency: number;
  faults?: string;
  rate?: number;
}

function parseArgs(argv: readonly string[]): Args {
  const out: Args = { orders: 1000, concurrency: 8 };
  for (let i = 0; i < argv.length; i += 1) {
    const key = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${key} needs a value`);
    i += 1;
    if (key === '--broker-url') out.brokerUrl = value;
    else if (key === '--orders') out.orders = boundedInt(key, value, 1, MAX_ORDERS);
    else if (key === '--concurrency') out.concurrency = boundedInt(key, value, 1, MAX_CONCURRENCY);
    else if (key === '--faults') out.faults = value;
    else if (key === '--rate') out.rate = boundedInt(key, value, 1, 100_000);
    else throw new Error(`unknown option ${key}`);
  }
  // Any broker speaking DESIGN.md §2 will do (the issue asks for "any broker URL"); a remote one
  // keeps the client-side bucket on (see loadDriver), so the driver never floods it.
  if (out.brokerUrl && !/^https?:$/.test(new URL(out.brokerUrl).protocol)) {
    throw new Error(`--broker-url must be an http(s) URL such as http://127.0.0.1:PORT/v1, not ${out.brokerUrl}`);
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

/** A generous embedded broker: the bench measures the client, not the broker's limiter. */
function startLocalPaper(faults?: string): Promise<PaperBroker> {
  return startPaperBroker({
    port: 0,
    tickIntervalMs: 0,
    rate: { perSecond: 1_000_000, burst: 1_000_000 },
    startingCash: 1e12,
    ...(faults ? { faults } : {}),
  });
}

async function newCore(baseUrl: string, dir: string, rate: number | null): Promise<TradingCore> {
  const core = await TradingCore.create({
    baseUrl,
    target: { broker: 'rest', label: 'bench', vaultKey: 'bench' },
    credentials: { apiKey: 'paper', apiSecret: 'paper' },
    vault: new MemoryVault(),
    dataDir: dir,
    stream: false,
    rate: rate === null ? null : { perSecond: rate, burst: rate * 2 },
    connections: 32,
  });
  await core.start();
  return core;
}

async function benchOrder(core: TradingCore): Promise<OrderRequest> {
  const eq = (await core.broker.listInstruments('NSE')).find((i) => i.instrumentType === 'EQ');
  if (!eq) throw new Error('the broker lists no NSE equity to trade');
  return {
    exchange: 'NSE',
    tradingsymbol: eq.tradingsymbol,
    transactionType: 'BUY',
    quantity: 1,
    orderType: 'MARKET',
    product: 'MIS',
    validity: 'DAY',
  };
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

/** The load driver: N orders through the core, summary JSON last. */
async function loadDriver(args: Args): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'td-bench-'));
  const paper = args.brokerUrl ? null : await startLocalPaper(args.faults);
  const baseUrl = args.brokerUrl ?? paper?.url ?? '';
  // A remote broker keeps its limits, so the client bucket stays on (8/s unless --rate).
  const core = await newCore(baseUrl, dir, args.brokerUrl ? (args.rate ?? 8) : (args.rate ?? null));
  try {
    const order = await benchOrder(core);
    let acknowledged = 0;
    let recovered = 0;
    const { ms } = await drive(args.orders, args.concurrency, async () => {
      const p = await core.orders.place(order);
      if (p.state === 'placed' && p.recovered) recovered += 1;
      else acknowledged += 1;
      return true;
    });
    const ok = ms.filter((m): m is number => m !== null).sort((a, b) => a - b);
    // Orders the deadline kept from being attempted count as failed; say so rather than hide it.
    if (ms.length < args.orders)
      console.log(
        `stopped at the ${DEADLINE_MS / 1000} s deadline: ${args.orders - ms.length} of ${args.orders} never attempted (counted as failed)`,
      );
    console.log(
      `placed through the core at concurrency ${args.concurrency} against ${args.brokerUrl ? 'the given broker' : 'an embedded paper broker'}${args.faults ? ` with faults ${args.faults}` : ''}`,
    );
    console.log(
      JSON.stringify({
        intended: args.orders,
        acknowledged,
        recovered,
        failed: args.orders - acknowledged - recovered,
        p50_ms: round(percentile(ok, 0.5)),
        p99_ms: round(percentile(ok, 0.99)),
      }),
    );
  } finally {
    await core.close();
    await paper?.close();
    await rm(dir, { recursive: true, force: true });
  }
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
  return loadDriver(parseArgs(argv));
}
