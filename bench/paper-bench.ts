import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startPaperBroker } from '../electron/paper/index';

/**
 * `npm run bench -- paper [--count N] [--concurrency C]`: order placements per second and
 * p50/p99 latency over keep-alive HTTP on loopback, against a bare node:http server answering
 * a fixed 201 in the same run. The ratio is what the broker's own work (auth, limits,
 * validation, matching, bookkeeping) costs; absolute numbers are noisy on a shared machine.
 * Bounded: at most `count` requests per target and 20 s each.
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

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { count: { type: 'string', default: '3000' }, concurrency: { type: 'string', default: '8' } },
  });
  const count = Math.max(100, Math.min(50_000, Number(values.count) || 3000));
  const concurrency = Math.max(1, Math.min(64, Number(values.concurrency) || 8));

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

  const broker = await startPaperBroker({
    tickIntervalMs: 0,
    rate: { perSecond: 1e9, burst: 1e9 },
    startingCash: 1e12,
  });
  try {
    const login = await fetch(`${broker.url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: 'paper', api_secret: 'paper' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const order = (i: number): string =>
      JSON.stringify({
        exchange: 'NSE',
        tradingsymbol: 'ITC',
        transaction_type: i % 2 ? 'SELL' : 'BUY',
        quantity: 1,
        order_type: 'MARKET',
        product: 'MIS',
        validity: 'DAY',
        client_order_id: `b${i < 0 ? `w${-i}` : i}`,
      });

    const base = await measure(
      'bare node:http 201',
      `http://127.0.0.1:${barePort}`,
      '/v1/orders',
      headers,
      order,
      count,
      concurrency,
    );
    const paper = await measure(
      'paper POST /orders',
      `http://127.0.0.1:${broker.port}`,
      '/v1/orders',
      headers,
      order,
      count,
      concurrency,
    );

    console.log(`${count} requests per target, ${concurrency} keep-alive connections, loopback`);
    console.log('| target | n | orders/s | p50 ms | p99 ms |');
    console.log('|---|---|---|---|---|');
    for (const r of [base, paper])
      console.log(`| ${r.name} | ${r.n} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} |`);
    console.log(
      `ratio paper/bare: throughput ${(paper.perSecond / base.perSecond).toFixed(2)}x, p50 ${(paper.p50 / base.p50).toFixed(2)}x, p99 ${(paper.p99 / base.p99).toFixed(2)}x`,
    );
    console.log(`orders held by the broker: ${broker.orderCount()}`);
  } finally {
    await broker.close();
    await new Promise<void>((r) => bare.close(() => r()));
  }
}
