/**
 * `npm run bench -- memory [--orders 200,10000] [--polls 10]`
 *
 * Memory of an open desk at a small and a large order book, in the same run: for each count,
 * that many working one-share LIMIT orders are seeded into a fresh data dir (as the `dashboard`
 * suite seeds them), `out/host.mjs` replays them, and Debian Chromium opens the desk. Once the
 * blotter shows every order and the page has polled main's order book twice, the page's JS heap
 * (CDP `Runtime.getHeapUsage`, after `HeapProfiler.collectGarbage`) and the host's RSS (main's
 * services and the embedded paper broker share that process) are read; then the desk sits idle
 * (no order changes; prices still tick) for `--polls` of the page's `orders.sync` polls, and both
 * are read again after another collection, twice. What a steady desk keeps must not grow per
 * poll: the heap's growth per poll in each stretch is the figure (the first may still include
 * warm-up, such as the chart's candles arriving), next to the heap itself at each size. Prints a table
 * and one JSON line last.
 */
import { chromium, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromiumLaunchOptions } from '../e2e/chromium';
import { startHost } from '../e2e/host-process';
import { seedOrders } from './dashboard-bench';

/** One order-book size, measured. */
interface Sample {
  readonly orders: number;
  /** The page's JS heap after a collection (MB): settled, after N idle polls, after 2N. */
  readonly heap: readonly [number, number, number];
  /** The host's resident set at the same three moments (MB). */
  readonly rss: readonly [number, number, number];
  /** `orders.sync` polls the page sent in each of the two stretches, and how long both took (s). */
  readonly polls: readonly [number, number];
  readonly seconds: number;
}

const MB = 1024 * 1024;
const CAP_MS = 120_000;

/** Installed before the app: counts the page's `orders.sync` calls on the bridge's socket. */
function pollCounter(): void {
  const w = window as unknown as { __syncs: number };
  w.__syncs = 0;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
    if (typeof data === 'string' && data.includes('"channel":"orders.sync"')) w.__syncs += 1;
    return send.call(this, data);
  };
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

const syncs = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __syncs: number }).__syncs);

async function measure(orders: number, polls: number): Promise<Sample> {
  const dataDir = await mkdtemp(join(tmpdir(), 'td-mem-bench-'));
  let host: Awaited<ReturnType<typeof startHost>> | null = null;
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    await seedOrders(dataDir, orders);
    host = await startHost([], { dataDir, readyTimeoutMs: 60_000 });
    const pid = host.child.pid ?? -1;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(pollCounter);
    const page = await context.newPage();
    await page.goto(host.handle.url);
    await page.getByText(/Connected to .+ as \S+/).waitFor({ timeout: CAP_MS });
    // The blotter's count says every seeded order is there.
    await page.waitForFunction(
      (n) => {
        const m = /([\d,]+) orders/.exec(document.body.innerText);
        return m !== null && Number(m[1]!.replace(/,/g, '')) >= n;
      },
      orders,
      { timeout: CAP_MS },
    );
    const settled = (await syncs(page)) + 2;
    await page.waitForFunction((n) => (window as unknown as { __syncs: number }).__syncs >= n, settled, {
      timeout: CAP_MS,
    });
    const cdp = await context.newCDPSession(page);
    const heap = async (): Promise<number> => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize / MB;
    };
    const heaps = [await heap()];
    const rss = [rssMb(pid)];
    const done: number[] = [];
    const t0 = performance.now();
    for (let k = 0; k < 2; k += 1) {
      const from = await syncs(page);
      await page.waitForFunction((n) => (window as unknown as { __syncs: number }).__syncs >= n, from + polls, {
        timeout: CAP_MS,
        polling: 250,
      });
      done.push((await syncs(page)) - from);
      heaps.push(await heap());
      rss.push(rssMb(pid));
    }
    const seconds = (performance.now() - t0) / 1000;
    await context.close();
    return {
      orders,
      heap: [heaps[0]!, heaps[1]!, heaps[2]!],
      rss: [rss[0]!, rss[1]!, rss[2]!],
      polls: [done[0]!, done[1]!],
      seconds,
    };
  } finally {
    await browser.close();
    await host?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { orders: { type: 'string', default: '200,10000' }, polls: { type: 'string', default: '10' } },
  });
  const counts = (values.orders ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0 && n <= 20_000);
  const polls = Math.max(2, Math.min(60, Number(values.polls) || 10));
  const samples: Sample[] = [];
  for (const n of counts) samples.push(await measure(n, polls));

  const f = (v: number, d = 1): string => (Number.isFinite(v) ? v.toFixed(d) : '–');
  /** Heap growth per poll over stretch k (KB), after a forced collection at both ends. */
  const perPoll = (s: Sample, k: 0 | 1): number => ((s.heap[k + 1]! - s.heap[k]!) * 1024) / s.polls[k];
  console.log(
    `an idle desk (no order changes, prices ticking), Chromium against out/host.mjs; heap after a forced collection; readings once settled, after ${polls} and after ${2 * polls} orders.sync polls`,
  );
  console.log(
    '| orders | page JS heap MB (settled → N → 2N polls) | heap growth per poll KB (1st N, 2nd N) | host RSS MB (settled → N → 2N) | polls (s) |',
  );
  console.log('|---|---|---|---|---|');
  for (const s of samples) {
    console.log(
      `| ${s.orders} | ${s.heap.map((h) => f(h)).join(' → ')} | ${f(perPoll(s, 0))}, ${f(perPoll(s, 1))} | ${s.rss.map((m) => f(m)).join(' → ')} | ${s.polls[0] + s.polls[1]} (${f(s.seconds)}) |`,
    );
  }
  const r = (v: number): number | null => (Number.isFinite(v) ? Math.round(v * 10) / 10 : null);
  const small = samples[0];
  const large = samples.at(-1);
  console.log(
    JSON.stringify({
      suite: 'memory',
      polls,
      sizes: samples.map((s) => ({
        orders: s.orders,
        heap_mb: r(s.heap[2]),
        heap_growth_kb_per_poll: [r(perPoll(s, 0)), r(perPoll(s, 1))],
        rss_mb: r(s.rss[2]),
        rss_growth_mb: r(s.rss[2] - s.rss[0]),
      })),
      heap_large_over_small: small && large && samples.length > 1 ? r(large.heap[2] / small.heap[2]) : null,
    }),
  );
}
