import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import WebSocket from 'ws';
import type { StreamMode } from '@shared/domain/market';
import { startPaperBroker } from '../electron/paper/index';

/**
 * `npm run bench -- paper [--count N] [--concurrency C] [--steps S]`: order placements per
 * second and p50/p99 latency over keep-alive HTTP on loopback — the paper broker with its order
 * book against the same broker with the flat book of the matcher before it, and a bare
 * node:http server answering a fixed 201, all in the same run; then the stream's ticks/s in
 * each mode (ltp, quote, full with depth) for one socket subscribed to every instrument.
 * Absolute numbers are noisy on a shared machine; the ratios are the result. Bounded: at most
 * `count` requests per target and 20 s each. The last line is a JSON summary.
 */

interface Result {
  readonly name: string;
  readonly n: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

const TIME_CAP_MS = 20_000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(
  name: string,
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: (i: number) => string,
  count: number,
  concurrency: number,
): Promise<Result> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const once = async (i: number): Promise<number> => {
    const t0 = performance.now();
    const r = await pool.request({ method: 'POST', path, headers, body: body(i) });
    await r.body.dump();
    if (r.statusCode !== 201) throw new Error(`${name}: HTTP ${r.statusCode}`);
    return performance.now() - t0;
  };
  // Warm-up: JIT, connections.
  for (let i = 0; i < Math.min(200, count); i += concurrency)
    await Promise.all(Array.from({ length: concurrency }, (_, k) => once(-1 - i - k)));
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count && performance.now() - start < TIME_CAP_MS) {
      const i = next++;
      latencies.push(await once(i));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - start;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    name,
    n: latencies.length,
    perSecond: (latencies.length / elapsed) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Logs in to a paper broker and returns the headers its calls need. */
async function login(url: string): Promise<Record<string, string>> {
  const r = await fetch(`${url}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
  });
  const { access_token: token } = (await r.json()) as { access_token: string };
  return { 'content-type': 'application/json', authorization: `Bearer ${token}` };
}

/**
 * The order flow both matchers get: MARKET orders on ITC alternating buy and sell, one share
 * each, and every tenth 1,500 shares (which walks two or three levels of the book).
 */
const order = (i: number): string =>
  JSON.stringify({
    exchange: 'NSE',
    tradingsymbol: 'ITC',
    transaction_type: i % 2 ? 'SELL' : 'BUY',
    quantity: i % 10 === 0 ? 1500 : 1,
    order_type: 'MARKET',
    product: 'MIS',
    validity: 'DAY',
    client_order_id: `b${i < 0 ? `w${-i}` : i}`,
  });

/** A paper broker for the placement runs: no limits, money enough, market ticks refreshing the books. */
function broker(book: 'depth' | 'flat') {
  return startPaperBroker({
    tickIntervalMs: 100,
    rate: { perSecond: 1e9, burst: 1e9 },
    startingCash: 1e12,
    book,
  });
}

interface StreamResult {
  readonly mode: StreamMode;
  readonly ticks: number;
  readonly perSecond: number;
  readonly bytesPerTick: number;
}

/**
 * Stream ticks/s in one mode: one socket subscribed to every instrument in `mode`, the market
 * stepped `steps` times through the control interface, each step's ticks (the broker counts its
 * moves) received before the next step; the clock runs from the first step to the last tick.
 */
async function streamRate(mode: StreamMode, steps: number): Promise<StreamResult> {
  const b = await startPaperBroker({ tickIntervalMs: 0, control: true, rate: { perSecond: 1e9, burst: 1e9 } });
  try {
    const headers = await login(b.url);
    const list = (await (await fetch(`${b.url}/instruments`, { headers })).json()) as {
      instruments: Array<{ instrument_token: number }>;
    };
    const tokens = list.instruments.map((i) => i.instrument_token);
    const ws = new WebSocket(`${b.url.replace('http', 'ws')}/stream`, {
      headers: { authorization: headers.authorization! },
    });
    let ticks = 0;
    let bytes = 0;
    ws.on('message', (d: Buffer) => {
      if (d.includes('"tick"')) {
        ticks++;
        bytes += d.length;
      }
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ action: 'subscribe', tokens }));
    if (mode !== 'quote') ws.send(JSON.stringify({ action: 'mode', mode, tokens }));
    const settled = mode === 'quote' ? tokens.length : 2 * tokens.length;
    while (ticks < settled) await new Promise((r) => setTimeout(r, 10));
    ticks = 0;
    bytes = 0;
    let sent = 0;
    const t0 = performance.now();
    // One market step at a time, each delivered before the next: a sustained rate, not a burst
    // the slow-reader rules would coalesce.
    for (let n = 0; n < steps && performance.now() - t0 < TIME_CAP_MS; n++) {
      const r = await fetch(`${b.url}/_control/tick`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paper-control': b.controlSecret ?? '' },
        body: JSON.stringify({ count: 1 }),
      });
      sent += ((await r.json()) as { moved: number }).moved;
      while (ticks < sent && performance.now() - t0 < TIME_CAP_MS) await new Promise((r2) => setImmediate(r2));
    }
    const elapsed = performance.now() - t0;
    ws.terminate();
    return { mode, ticks, perSecond: (ticks / elapsed) * 1000, bytesPerTick: ticks ? bytes / ticks : 0 };
  } finally {
    await b.close();
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      count: { type: 'string', default: '3000' },
      concurrency: { type: 'string', default: '8' },
      steps: { type: 'string', default: '40' },
    },
  });
  const count = Math.max(100, Math.min(50_000, Number(values.count) || 3000));
  const concurrency = Math.max(1, Math.min(64, Number(values.concurrency) || 8));
  const steps = Math.max(1, Math.min(1000, Number(values.steps) || 40));

  const fixed = JSON.stringify({ order_id: '260000000001', client_order_id: null, status: 'COMPLETE' });
  const bare = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(fixed),
        Location: '/v1/orders/260000000001',
      });
      res.end(fixed);
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const barePort = (bare.address() as AddressInfo).port;

  // One target at a time, so no broker's market ticks run beside another target's measurement.
  const plain = { 'content-type': 'application/json' };
  const base = await measure(
    'bare node:http 201',
    `http://127.0.0.1:${barePort}`,
    '/v1/orders',
    plain,
    order,
    count,
    concurrency,
  );
  await new Promise<void>((r) => bare.close(() => r()));
  const placements = async (kind: 'flat' | 'depth', name: string): Promise<Result & { held: number }> => {
    const b = await broker(kind);
    try {
      const r = await measure(
        name,
        `http://127.0.0.1:${b.port}`,
        '/v1/orders',
        await login(b.url),
        order,
        count,
        concurrency,
      );
      return { ...r, held: b.orderCount() };
    } finally {
      await b.close();
    }
  };
  {
    const old = await placements('flat', 'paper, flat book (the old matcher)');
    const book = await placements('depth', 'paper, order book (walks levels)');

    console.log(
      `${count} requests per target, ${concurrency} keep-alive connections, loopback; 1 in 10 orders is 1,500 shares`,
    );
    console.log('| target | n | orders/s | p50 ms | p99 ms |');
    console.log('|---|---|---|---|---|');
    for (const r of [base, old, book])
      console.log(`| ${r.name} | ${r.n} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} |`);
    console.log(
      `ratio book/old matcher: throughput ${(book.perSecond / old.perSecond).toFixed(2)}x, p50 ${(book.p50 / old.p50).toFixed(2)}x, p99 ${(book.p99 / old.p99).toFixed(2)}x; book/bare throughput ${(book.perSecond / base.perSecond).toFixed(2)}x`,
    );
    console.log(`orders held: old ${old.held}, book ${book.held}`);

    const stream: StreamResult[] = [];
    for (const mode of ['ltp', 'quote', 'full'] as const) stream.push(await streamRate(mode, steps));
    console.log(
      `\nstream: one socket subscribed to every instrument, ${steps} market steps, each received before the next`,
    );
    console.log('| mode | ticks | ticks/s | bytes/tick |');
    console.log('|---|---|---|---|');
    for (const r of stream)
      console.log(`| ${r.mode} | ${r.ticks} | ${r.perSecond.toFixed(0)} | ${r.bytesPerTick.toFixed(0)} |`);
    const ltp = stream[0]!;
    const full = stream[2]!;
    console.log(`ratio full/ltp ticks/s: ${(full.perSecond / ltp.perSecond).toFixed(2)}x`);
    console.log(
      JSON.stringify({
        suite: 'paper',
        placements: { bare: base, oldMatcher: old, book, bookOverOld: book.perSecond / old.perSecond },
        stream: { byMode: stream, fullOverLtp: full.perSecond / ltp.perSecond },
      }),
    );
  }
}
