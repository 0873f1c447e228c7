import { parseArgs } from 'node:util';
import { analyseStrategy, type StrategyLeg } from '@shared/strategy/strategy-model';
import { expiryInstant } from '@shared/trading/market-hours';
import { modelPremium, smileVol, yearsTo } from '@shared/trading/options-pricing';

/**
 * `npm run bench -- strategy [--ticks N]`: what the strategy builder recomputes on every tick
 * (docs/strategy.md §Live) — the payoff's figures, both curves over the chart's 161 prices, the
 * Greeks and the premium (`analyseStrategy`) — for a 4-leg iron condor and a 12-leg strategy (three
 * condors, one of them in the next expiry, so the calendar's bisection runs), against a single
 * long call as the same-run baseline. The spot walks a tick at a time; each tick's compute is
 * timed alone. Prints p50/p95/p99 ms, the ratios to the baseline and the p99's share of a 60 Hz frame
 * (16.7 ms); the last line is JSON.
 */

const NOW = Date.parse('2026-11-23T10:00:00+05:30');
const NEAR = expiryInstant('NFO', '2026-11-26');
const FAR = expiryInstant('NFO', '2026-12-03');
const SPOT = 26_000;
const FRAME_MS = 1000 / 60;

function leg(kind: 'CE' | 'PE', side: 'BUY' | 'SELL', strike: number, expiresAt = NEAR): StrategyLeg {
  const iv = smileVol(0.14, strike, SPOT);
  return {
    kind,
    strike,
    expiresAt,
    side,
    quantity: 75,
    price: Math.max(0.05, modelPremium(kind, SPOT, strike, yearsTo(expiresAt, NOW), iv)),
    iv,
    multiplier: 1,
  };
}

const condor = (centre: number, width: number, expiresAt = NEAR): StrategyLeg[] => [
  leg('PE', 'BUY', centre - 2 * width, expiresAt),
  leg('PE', 'SELL', centre - width, expiresAt),
  leg('CE', 'SELL', centre + width, expiresAt),
  leg('CE', 'BUY', centre + 2 * width, expiresAt),
];

const STRATEGIES: ReadonlyArray<readonly [string, StrategyLeg[]]> = [
  ['1 leg (baseline)', [leg('CE', 'BUY', SPOT)]],
  ['4 legs (iron condor)', condor(SPOT, 100)],
  [
    '12 legs (three condors, two expiries)',
    [...condor(SPOT, 100), ...condor(SPOT, 200), ...condor(SPOT + 100, 100, FAR)],
  ],
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Times `ticks` recomputations as the spot walks; returns p50/p99 ms and a checksum (so nothing is optimised away). */
function measure(
  legs: readonly StrategyLeg[],
  ticks: number,
  seed: number,
): { p50: number; p95: number; p99: number; sum: number } {
  let spot = SPOT;
  let state = seed;
  const times: number[] = [];
  let sum = 0;
  for (let t = 0; t < ticks; t++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    spot = Math.max(1, spot + ((state / 2_147_483_648) * 2 - 1) * 5);
    const t0 = performance.now();
    const a = analyseStrategy(legs, {
      spot,
      now: NOW + t * 250,
      vol: 0.14,
      targetAt: NOW + t * 250,
      ivShift: 0,
      points: 161,
    });
    times.push(performance.now() - t0);
    sum += a.greeks.delta + a.summary.breakevens.length;
  }
  times.sort((x, y) => x - y);
  return { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), sum };
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { ticks: { type: 'string' } } });
  const ticks = Number(values.ticks ?? 2000);
  // Warm-up (JIT) on every shape, then each measured in turn.
  for (const [, legs] of STRATEGIES) measure(legs, 200, 7);
  const results = STRATEGIES.map(([name, legs]) => ({ name, legs: legs.length, ...measure(legs, ticks, 42) }));
  const base = results[0]!;
  const fmt = (n: number): string => n.toFixed(3);
  const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;
  console.log(`${ticks} ticks each; the chart's curves at 161 prices; a 60 Hz frame is ${FRAME_MS.toFixed(1)} ms`);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(40)} p50 ${fmt(r.p50)} ms  p95 ${fmt(r.p95)} ms  p99 ${fmt(r.p99)} ms  ×${ratio(r.p99, base.p99)} the baseline's p99  ${((r.p99 / FRAME_MS) * 100).toFixed(1)}% of a frame`,
    );
  }
  await Promise.resolve();
  console.log(
    JSON.stringify({
      bench: 'strategy',
      ticks,
      points: 161,
      p50Ms: Object.fromEntries(results.map((r) => [r.legs, r.p50])),
      p95Ms: Object.fromEntries(results.map((r) => [r.legs, r.p95])),
      p99Ms: Object.fromEntries(results.map((r) => [r.legs, r.p99])),
      p99ToBaseline: Object.fromEntries(results.map((r) => [r.legs, ratio(r.p99, base.p99)])),
      p99ShareOfFrame: Object.fromEntries(results.map((r) => [r.legs, Math.round((r.p99 / FRAME_MS) * 1000) / 1000])),
    }),
  );
}
