import { describe, expect, it } from 'vitest';
import { expiryInstant } from '../trading/market-hours';
import { futurePrice, greeks, normCdf, yearsTo } from '../trading/options-pricing';
import {
  chartRange,
  netGreeks,
  netPremium,
  payoffCurves,
  payoffSummary,
  strategyPnl,
  type StrategyLeg,
} from './strategy-model';

/**
 * A strategy's figures from the model the paper market prices with (docs/strategy.md): the
 * probability of profit against the lognormal's closed form, the net premium's sign, net Greeks
 * as the legs' sum and as the slope of the P&L, and the curves a chart draws.
 */

const NOW = Date.parse('2026-11-23T10:00:00+05:30');
const NEAR = expiryInstant('NFO', '2026-11-26');
const DAY = 86_400_000;

const option = (kind: 'CE' | 'PE', side: 'BUY' | 'SELL', strike: number, price: number, iv = 0.14): StrategyLeg => ({
  kind,
  strike,
  expiresAt: NEAR,
  side,
  quantity: 75,
  price,
  iv,
  multiplier: 1,
});

describe('probability of profit', () => {
  const years = yearsTo(NEAR, NOW);
  const forward = futurePrice(26_000, years);
  const sd = 0.14 * Math.sqrt(years);
  /** P(S_T > x) for a lognormal around the forward: N(d2). */
  const above = (x: number): number => normCdf((Math.log(forward / x) - (sd * sd) / 2) / sd);

  it('of a long call is the chance of ending above its breakeven, N(d2) at it', () => {
    const s = payoffSummary([option('CE', 'BUY', 26_000, 130)], 26_000, 0.14, NOW);
    expect(s.breakevens[0]).toBeCloseTo(26_130, 6);
    expect(s.probabilityOfProfit).toBeCloseTo(above(26_130), 9);
  });

  it('of a short strangle is the chance of ending between its breakevens', () => {
    const legs = [option('CE', 'SELL', 26_200, 50), option('PE', 'SELL', 25_800, 58)];
    const s = payoffSummary(legs, 26_000, 0.14, NOW);
    expect(s.breakevens).toEqual([expect.closeTo(25_692, 6), expect.closeTo(26_308, 6)]);
    expect(s.probabilityOfProfit).toBeCloseTo(above(25_692) - above(26_308), 9);
  });

  it('is not given without a volatility or once expired', () => {
    expect(payoffSummary([option('CE', 'BUY', 26_000, 130)], 26_000, null, NOW).probabilityOfProfit).toBeNull();
    expect(payoffSummary([option('CE', 'BUY', 26_000, 130)], 26_000, 0.14, NEAR + DAY).probabilityOfProfit).toBeNull();
  });
});

describe('net premium and Greeks', () => {
  const condor = [
    option('PE', 'BUY', 25_800, 58),
    option('PE', 'SELL', 25_900, 88),
    option('CE', 'SELL', 26_100, 84),
    option('CE', 'BUY', 26_200, 50),
  ];

  it('a credit strategy brings premium in, a debit one pays it', () => {
    expect(netPremium(condor)).toBeCloseTo((88 + 84 - 58 - 50) * 75, 9);
    expect(netPremium([option('CE', 'BUY', 26_000, 130)])).toBeCloseTo(-130 * 75, 9);
  });

  it('net Greeks are the legs’ Greeks signed and scaled by quantity', () => {
    const at = NOW + DAY;
    const years = yearsTo(NEAR, at);
    const g = netGreeks(condor, 26_050, at, 0.02);
    const leg = (l: StrategyLeg) => greeks(l.kind as 'CE' | 'PE', 26_050, l.strike, years, l.iv + 0.02);
    const sum = (pick: (x: ReturnType<typeof greeks>) => number): number =>
      condor.reduce((t, l) => t + (l.side === 'BUY' ? 1 : -1) * 75 * pick(leg(l)), 0);
    expect(g.delta).toBeCloseTo(
      sum((x) => x.delta),
      9,
    );
    expect(g.gamma).toBeCloseTo(
      sum((x) => x.gamma),
      12,
    );
    expect(g.theta).toBeCloseTo(
      sum((x) => x.theta),
      9,
    );
    expect(g.vega).toBeCloseTo(
      sum((x) => x.vega),
      9,
    );
    // A short iron condor near the money earns time and loses on volatility.
    expect(g.theta).toBeGreaterThan(0);
    expect(g.vega).toBeLessThan(0);
  });

  it('delta is the slope of the P&L, theta what a day costs it, vega what an IV point does', () => {
    const g = netGreeks(condor, 26_050, NOW);
    const h = 0.5;
    const slope = (strategyPnl(condor, 26_050 + h, NOW) - strategyPnl(condor, 26_050 - h, NOW)) / (2 * h);
    // Within what the normal CDF's approximation (|error| < 7.5e-8) leaves between the two.
    expect(Math.abs(g.delta - slope)).toBeLessThan(0.01);
    const minute = 60_000;
    const perDay =
      ((strategyPnl(condor, 26_050, NOW + minute) - strategyPnl(condor, 26_050, NOW - minute)) / 2) * 24 * 60;
    expect(g.theta / perDay).toBeCloseTo(1, 3);
    const vegaStep = (strategyPnl(condor, 26_050, NOW, 0.0001) - strategyPnl(condor, 26_050, NOW, -0.0001)) / 0.02;
    expect(g.vega / vegaStep).toBeCloseTo(1, 4);
  });

  it('a future moves one for one with the underlying, its carry aside', () => {
    const fut: StrategyLeg = { ...option('CE', 'BUY', 0, 26_060), kind: 'FUT', strike: 0 };
    const g = netGreeks([fut], 26_000, NOW);
    expect(g.delta / 75).toBeCloseTo(1 + 0.07 * yearsTo(NEAR, NOW), 9);
    expect([g.gamma, g.vega]).toEqual([0, 0]);
    expect(netPremium([fut])).toBe(0);
    expect(payoffSummary([fut], 26_000, 0.14, NOW)).toMatchObject({
      breakevens: [expect.closeTo(26_060, 6)],
      maxProfit: { kind: 'unbounded' },
      maxLoss: { kind: 'finite', value: expect.closeTo(-26_060 * 75, 6) },
    });
  });
});

describe('the curves a chart draws', () => {
  it('expiry and the chosen date over the range; a date past expiry is expiry', () => {
    const legs = [option('CE', 'BUY', 26_000, 130)];
    const curves = payoffCurves(legs, 25_000, 27_000, 5, NOW + DAY);
    expect(curves.xs).toEqual([25_000, 25_500, 26_000, 26_500, 27_000]);
    expect(curves.atExpiry).toEqual(
      [-130 * 75, -130 * 75, -130 * 75, 370 * 75, 870 * 75].map((v) => expect.closeTo(v, 6)),
    );
    // Before expiry the long call is worth more than its intrinsic value.
    curves.atTarget.forEach((y, n) => expect(y).toBeGreaterThan(curves.atExpiry[n]! - 1e-9));
    const late = payoffCurves(legs, 25_000, 27_000, 5, NEAR + DAY);
    expect(late.atTarget).toEqual(late.atExpiry);
  });

  it('the range holds the strikes and the spot with room either side', () => {
    const [lo, hi] = chartRange(
      [option('CE', 'SELL', 26_200, 50), option('PE', 'SELL', 25_800, 58)],
      26_000,
      0.14,
      NOW,
    );
    expect(lo).toBeLessThan(25_800);
    expect(hi).toBeGreaterThan(26_200);
    expect(lo).toBeGreaterThan(0);
  });
});
