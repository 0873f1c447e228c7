import { parseArgs } from 'node:util';
import { firedLeg } from '@shared/trading/gtt-rules';
import { Account } from '../electron/paper/account';
import { GttBook, type PaperGtt } from '../electron/paper/gtt';
import { generateInstruments } from '../electron/paper/instruments';
import { Market, type PriceMove } from '../electron/paper/market';
import { Engine } from '../electron/paper/matching';
import { START_MS } from '../electron/paper/testing/broker-driver';

/**
 * `npm run bench -- gtt [--gtts N] [--steps S]`: what watching GTTs costs the paper market's tick
 * (docs/api.md §GTT: triggers are evaluated on every price move). The same seeded market is
 * stepped `steps` times with no GTTs (the baseline), with N active GTTs evaluated through the
 * book's per-instrument index, and with the same N scanned linearly on every move (the first
 * version of the book), all in this run. Triggers sit far from the price, so none fires and every
 * step does the same work. Prints p50/p99 ms per step and the ratios; the last line is JSON.
 */

type Mode = 'none' | 'indexed' | 'linear';

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** A linear scan of every GTT on every move: the book's first `onMoves`, kept as the baseline. */
function linearScan(all: readonly PaperGtt[], moves: readonly PriceMove[]): number {
  let hits = 0;
  for (const m of moves)
    for (const g of all) {
      if (g.token !== m.token || g.status !== 'active') continue;
      if (firedLeg(g.type, g.triggerUnits, g.ltpAtCreationUnits, m.ltpUnits) !== null) hits += 1;
    }
  return hits;
}

function runMode(mode: Mode, gtts: number, steps: number): { p50: number; p99: number; moves: number } {
  const instruments = generateInstruments(1, START_MS);
  const market = new Market(instruments, 1, START_MS);
  const engine = new Engine(market, new Account(10_000_000_000_000), { order() {}, trade() {} });
  const book = new GttBook(engine, market, () => {});
  const all: PaperGtt[] = [];
  if (mode !== 'none') {
    const tradable = instruments.filter((i) => market.ltp(i.token) > 0 && i.instrumentType === 'EQ');
    for (let k = 0; k < gtts; k++) {
      const i = tradable[k % tradable.length];
      if (!i) break;
      // A stop 90% below and a target 10x above: never reached by a random walk of `steps` ticks.
      const ltp = market.ltp(i.token);
      const tick = Math.round(i.tickSize * 10_000);
      const stop = Math.max(tick, Math.floor(ltp / 10 / tick) * tick);
      const target = Math.ceil((ltp * 10) / tick) * tick;
      all.push(
        book.create(
          {
            instrument: i,
            clientGttId: null,
            type: 'oco',
            triggerUnits: [stop, target],
            legs: [
              { transactionType: 'SELL', quantity: 1, product: 'MIS', priceUnits: stop },
              { transactionType: 'SELL', quantity: 1, product: 'MIS', priceUnits: target },
            ],
          },
          START_MS,
        ),
      );
    }
  }
  let hits = 0;
  market.onMoves((moves) => {
    engine.onMoves(moves);
    if (mode === 'indexed') book.onMoves(moves);
    if (mode === 'linear') hits += linearScan(all, moves);
  });
  const times: number[] = [];
  let moves = 0;
  for (let s = 0; s < steps; s++) {
    const at = START_MS + (s + 1) * 250;
    const t0 = performance.now();
    moves += market.step(at).length;
    times.push(performance.now() - t0);
  }
  if (hits > 0 || all.some((g) => g.status !== 'active')) throw new Error('a GTT fired: the comparison is void');
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), moves: moves / steps };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { gtts: { type: 'string' }, steps: { type: 'string' } } });
  const gtts = Number(values.gtts ?? 5000);
  const steps = Number(values.steps ?? 300);
  // Warm-up (JIT), then each mode measured.
  runMode('indexed', gtts, 50);
  runMode('linear', gtts, 50);
  const none = runMode('none', gtts, steps);
  const indexed = runMode('indexed', gtts, steps);
  const linear = runMode('linear', gtts, steps);
  const fmt = (n: number): string => n.toFixed(3);
  console.log(`moves per step: ${none.moves.toFixed(0)}; ${gtts} active OCO GTTs; ${steps} steps`);
  for (const [name, r] of [
    ['no GTTs (baseline)', none],
    ['indexed by instrument', indexed],
    ['linear scan', linear],
  ] as const)
    console.log(`${name.padEnd(24)} p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms per step`);
  const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;
  console.log(
    `indexed/baseline p50 ×${ratio(indexed.p50, none.p50)} · linear/baseline p50 ×${ratio(linear.p50, none.p50)} · linear/indexed p50 ×${ratio(linear.p50, indexed.p50)}`,
  );
  await Promise.resolve();
  console.log(
    JSON.stringify({
      bench: 'gtt',
      gtts,
      steps,
      movesPerStep: Math.round(none.moves),
      p50Ms: { none: none.p50, indexed: indexed.p50, linear: linear.p50 },
      p99Ms: { none: none.p99, indexed: indexed.p99, linear: linear.p99 },
      ratioP50: { indexedToNone: ratio(indexed.p50, none.p50), linearToIndexed: ratio(linear.p50, indexed.p50) },
    }),
  );
}
