/**
 * `npm run bench -- <suite> [options]`: every benchmark compares against a baseline measured in
 * the same run and prints ratios and percentiles (absolute timings are noisy on this machine).
 *
 * Each suite is a module exporting `run(args)`; add one line to `SUITES` per suite.
 */
type Suite = { readonly describe: string; readonly load: () => Promise<{ run(args: string[]): Promise<void> }> };

const SUITES: Record<string, Suite> = {
  paper: {
    describe:
      'paper broker placement with the order book vs the old flat matcher vs a bare node:http 201 (orders/s, p50/p99), and stream ticks/s per mode (ltp/quote/full depth)',
    load: () => import('./paper-bench'),
  },
  ticks: {
    describe:
      'ticks/s from broker to painted cells with frame p95 < 16.7 ms: batched vs one IPC message per tick (Chromium, browser host)',
    load: () => import('./ticks-bench'),
  },
  orders: {
    describe: 'placement through the trading core vs a bare undici POST (p50/p99, placements/s at 1/8/32)',
    load: () => import('./orders-bench'),
  },
  poll: {
    describe:
      'requests and bytes an open desk sends its broker (byte-counting proxy, Chromium, 60 s per state): idle with the stream live, one working order, stream down; the app vs the cadence it had before, same run',
    load: () => import('./poll-bench'),
  },
  instruments: {
    describe:
      "Kite's instrument CSV (100,000 rows): the adapter's sliced parser vs the same parser in one block (parse ms, longest event-loop gap)",
    load: () => import('./instruments-bench'),
  },
  gtt: {
    describe:
      "the paper market's tick with N active GTTs watched through the book's per-instrument index vs a linear scan vs no GTTs (p50/p99 ms per step)",
    load: () => import('./gtt-bench'),
  },
  dashboard: {
    describe:
      'the dashboard in Chromium with 10,000 orders, 1% changing per poll: virtualized vs plain blotter (update→paint, scroll frames, click→ack)',
    load: () => import('./dashboard-bench'),
  },
  strategy: {
    describe:
      "the strategy builder's per-tick compute (payoff figures, both curves, Greeks) for 4 and 12 legs vs a single long call, same run (p50/p99 ms, share of a 60 Hz frame)",
    load: () => import('./strategy-bench'),
  },
  safety: {
    describe:
      "the kill switch's time to flat with every read answered 429 on /v1 and /kite (p50/p99 vs no faults), then over 200 and 900 working orders with half of all requests answered 429: cancels a second against the broker's published limit, vs the same run without faults",
    load: () => import('./safety-bench'),
  },
  windows: {
    describe:
      "1, 2 and 4 windows of the desk, each a 200-row watchlist ticking and a chart (Chromium, browser host in its own process): each window's frame p95, main's CPU and bytes per tick per window",
    load: () => import('./windows-bench'),
  },
  memory: {
    describe:
      "an idle desk's page JS heap (after a forced collection) and host RSS at 200 and 10,000 orders, before and after N polls: nothing may grow per poll",
    load: () => import('./memory-bench'),
  },
};

/** The usage, from the suites themselves. */
function benchUsage(): string {
  const lines = Object.entries(SUITES).map(([n, s]) => `  ${n.padEnd(12)} ${s.describe}`);
  return `Usage: npm run bench -- [suite [options]]\n\nWithout a suite, every suite runs in turn. Suites:\n${lines.join('\n')}\n\nEach suite's figures and options: docs/benchmarks.md.`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `--help` anywhere prints the suites, before any build-heavy suite starts (docs/benchmarks.md).
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(benchUsage());
    return;
  }
  const [name, ...args] = argv;
  const names = Object.keys(SUITES);
  if (name?.startsWith('-')) {
    console.error(`bench: unknown option "${name}": name a suite first (--help lists them)`);
    process.exitCode = 2;
    return;
  }
  const chosen = name ? [name] : names;
  for (const n of chosen) {
    const suite = SUITES[n];
    if (!suite) {
      console.error(`bench: unknown benchmark "${n}"; suites: ${names.join(', ')}`);
      process.exitCode = 2;
      return;
    }
    console.log(`\n## bench ${n}: ${suite.describe}`);
    try {
      await (await suite.load()).run(name === n ? args : []);
    } catch (e) {
      // A suite's own option it does not know is one line and exit 2, not a stack trace.
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw e;
      console.error(`bench ${n}: ${(e as Error).message.split('\n')[0] ?? ''}`);
      process.exitCode = 2;
      return;
    }
  }
}

export {};
await main();
