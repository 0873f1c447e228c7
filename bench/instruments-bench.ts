/**
 * `npm run bench -- instruments [--rows N]`
 *
 * Kite's instrument dump (tens of thousands of CSV rows, docs/kite.md §Instruments) parsed by the
 * adapter's sliced parser versus the same parser never yielding (the baseline: one block of the
 * event loop), in the same run: parse time and the longest event-loop gap a 1 ms timer sees
 * while each runs (what an order reply or a tick would wait). JSON summary last.
 */
import { parseInstrumentsCsv } from '../electron/wire/kite-instruments-csv';

const HEADER =
  'instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange';

function dump(rows: number): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i += 1) {
    const t = 100_000 + i * 256 + 1;
    lines.push(
      i % 3 === 0
        ? `${t},${t >> 8},NIFTY26DEC${20_000 + i}CE,"NIFTY, INDEX",0.0,2026-12-31,${20_000 + i},0.05,75,CE,NFO-OPT,NFO`
        : `${t},${t >> 8},SYM${i},NAME ${i},12.5,,0.0,0.05,1,EQ,NSE,NSE`,
    );
  }
  return lines.join('\r\n');
}

/** Runs `work` while a 1 ms timer records the longest gap between its firings. */
async function withGapMeter(work: () => Promise<unknown>): Promise<{ ms: number; maxGapMs: number }> {
  let maxGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  clearInterval(timer);
  return { ms, maxGapMs: Math.max(maxGap, performance.now() - last) };
}

/** Entry point called by bench/cli.ts. */
export async function run(argv: string[]): Promise<void> {
  const at = argv.indexOf('--rows');
  const rows = at === -1 ? 100_000 : Number(argv[at + 1]);
  if (!Number.isInteger(rows) || rows < 1 || rows > 1_000_000)
    throw new Error('--rows must be an integer in [1, 1000000]');
  const text = dump(rows);
  const idle = await withGapMeter(() => new Promise((r) => setTimeout(r, 500)));
  const sliced: Array<{ ms: number; maxGapMs: number }> = [];
  const blocking: Array<{ ms: number; maxGapMs: number }> = [];
  for (let i = 0; i < 3; i += 1) {
    sliced.push(await withGapMeter(() => parseInstrumentsCsv(text)));
    blocking.push(await withGapMeter(() => parseInstrumentsCsv(text, Number.POSITIVE_INFINITY)));
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[1] ?? Number.NaN;
  const r = (n: number): number => Math.round(n * 10) / 10;
  const summary = {
    rows,
    idle_max_gap_ms: r(idle.maxGapMs),
    sliced_parse_ms: r(median(sliced.map((s) => s.ms))),
    sliced_max_gap_ms: r(median(sliced.map((s) => s.maxGapMs))),
    blocking_parse_ms: r(median(blocking.map((s) => s.ms))),
    blocking_max_gap_ms: r(median(blocking.map((s) => s.maxGapMs))),
  };
  console.log(
    `${rows} rows: sliced ${summary.sliced_parse_ms} ms (longest loop gap ${summary.sliced_max_gap_ms} ms), ` +
      `one block ${summary.blocking_parse_ms} ms (gap ${summary.blocking_max_gap_ms} ms); idle gap ${summary.idle_max_gap_ms} ms`,
  );
  console.log(JSON.stringify({ ...summary, gap_ratio: r(summary.blocking_max_gap_ms / summary.sliced_max_gap_ms) }));
}
