import { describe, expect, it } from 'vitest';
import { expiryInstant } from '../trading/market-hours';
import { modelPremium, yearsTo } from '../trading/options-pricing';
import { payoffSummary, strategyPnl, type StrategyLeg } from './strategy-model';
import { chainMove, placeTemplate, TEMPLATES, type StrategyTemplate } from './templates';

/**
 * Every template's payoff at expiry against its textbook closed form (docs/strategy.md
 * §Templates): the P&L at a spread of prices, the breakevens and the maximum profit and loss.
 * NIFTY-like strikes 100 apart around 26,000, one lot of 75, premiums as a chain might show them.
 */

const NOW = Date.parse('2026-11-23T10:00:00+05:30');
const NEAR = expiryInstant('NFO', '2026-11-26');
const FAR = expiryInstant('NFO', '2026-12-03');
const STRIKES = [25_700, 25_800, 25_900, 26_000, 26_100, 26_200, 26_300];
const K = 26_000;
const W = 100;
const LOT = 75;
const CALL: Record<number, number> = { 25_800: 262, 25_900: 190, 26_000: 130, 26_100: 84, 26_200: 50 };
const PUT: Record<number, number> = { 25_800: 58, 25_900: 88, 26_000: 128, 26_100: 182, 26_200: 248 };
const FAR_CALL = 205;
const IV = 0.14;

/** The template on the grid, each leg at the premium above. */
function legsOf(id: string, lots = 1): StrategyLeg[] {
  const template = TEMPLATES.find((t) => t.id === id) as StrategyTemplate;
  const placed = placeTemplate(template, STRIKES, K);
  if (!placed) throw new Error(`${id} does not fit the grid`);
  return placed.map((l) => ({
    kind: l.kind,
    strike: l.strike,
    expiresAt: l.expiry === 'far' ? FAR : NEAR,
    side: l.side,
    quantity: l.ratio * lots * LOT,
    price: l.expiry === 'far' ? FAR_CALL : (l.kind === 'CE' ? CALL : PUT)[l.strike]!,
    iv: IV,
    multiplier: 1,
  }));
}

const c = (s: number, k: number): number => Math.max(0, s - k);
const p = (s: number, k: number): number => Math.max(0, k - s);

/** Per template: the closed-form P&L per unit at expiry, and its breakevens and bounds per unit. */
const CLOSED: Record<
  string,
  {
    readonly at: (s: number) => number;
    readonly breakevens: readonly number[];
    readonly maxProfit: number | 'unbounded';
    readonly maxLoss: number | 'unbounded';
  }
> = (() => {
  const straddle = CALL[K]! + PUT[K]!;
  const strangle = CALL[K + W]! + PUT[K - W]!;
  const bullCall = CALL[K]! - CALL[K + W]!;
  const bearCall = CALL[K]! - CALL[K + W]!;
  const bullPut = PUT[K]! - PUT[K - W]!;
  const bearPut = PUT[K]! - PUT[K - W]!;
  const condor = PUT[K - W]! - PUT[K - 2 * W]! + CALL[K + W]! - CALL[K + 2 * W]!;
  const fly = PUT[K]! + CALL[K]! - PUT[K - W]! - CALL[K + W]!;
  const butterfly = CALL[K - W]! - 2 * CALL[K]! + CALL[K + W]!;
  return {
    'long-straddle': {
      at: (s) => c(s, K) + p(s, K) - straddle,
      breakevens: [K - straddle, K + straddle],
      maxProfit: 'unbounded',
      maxLoss: -straddle,
    },
    'short-straddle': {
      at: (s) => straddle - c(s, K) - p(s, K),
      breakevens: [K - straddle, K + straddle],
      maxProfit: straddle,
      maxLoss: 'unbounded',
    },
    'long-strangle': {
      at: (s) => c(s, K + W) + p(s, K - W) - strangle,
      breakevens: [K - W - strangle, K + W + strangle],
      maxProfit: 'unbounded',
      maxLoss: -strangle,
    },
    'short-strangle': {
      at: (s) => strangle - c(s, K + W) - p(s, K - W),
      breakevens: [K - W - strangle, K + W + strangle],
      maxProfit: strangle,
      maxLoss: 'unbounded',
    },
    'bull-call-spread': {
      at: (s) => c(s, K) - c(s, K + W) - bullCall,
      breakevens: [K + bullCall],
      maxProfit: W - bullCall,
      maxLoss: -bullCall,
    },
    'bear-call-spread': {
      at: (s) => bearCall - c(s, K) + c(s, K + W),
      breakevens: [K + bearCall],
      maxProfit: bearCall,
      maxLoss: -(W - bearCall),
    },
    'bull-put-spread': {
      at: (s) => bullPut - p(s, K) + p(s, K - W),
      breakevens: [K - bullPut],
      maxProfit: bullPut,
      maxLoss: -(W - bullPut),
    },
    'bear-put-spread': {
      at: (s) => p(s, K) - p(s, K - W) - bearPut,
      breakevens: [K - bearPut],
      maxProfit: W - bearPut,
      maxLoss: -bearPut,
    },
    'iron-condor': {
      at: (s) => condor - p(s, K - W) + p(s, K - 2 * W) - c(s, K + W) + c(s, K + 2 * W),
      breakevens: [K - W - condor, K + W + condor],
      maxProfit: condor,
      maxLoss: -(W - condor),
    },
    'iron-fly': {
      at: (s) => fly - p(s, K) - c(s, K) + p(s, K - W) + c(s, K + W),
      breakevens: [K - fly, K + fly],
      maxProfit: fly,
      maxLoss: -(W - fly),
    },
    butterfly: {
      at: (s) => c(s, K - W) - 2 * c(s, K) + c(s, K + W) - butterfly,
      breakevens: [K - W + butterfly, K + W - butterfly],
      maxProfit: W - butterfly,
      maxLoss: -butterfly,
    },
  };
})();

const PRICES = [
  0, 10_000, 25_000, 25_650, 25_750, 25_800, 25_850, 25_900, 25_950, 26_000, 26_050, 26_130, 26_200, 26_350, 27_000,
  40_000,
];

describe('each template at expiry against its closed form', () => {
  it('every template but the calendar has a closed form here', () => {
    expect(Object.keys(CLOSED).sort()).toEqual(
      TEMPLATES.map((t) => t.id)
        .filter((id) => id !== 'calendar')
        .sort(),
    );
  });

  it.each(Object.keys(CLOSED))('%s: the P&L at every price, the breakevens and the bounds', (id) => {
    const legs = legsOf(id);
    const form = CLOSED[id]!;
    for (const s of PRICES) expect(strategyPnl(legs, s, NEAR), `at ${s}`).toBeCloseTo(form.at(s) * LOT, 6);
    const summary = payoffSummary(legs, K, IV, NOW);
    expect(summary.breakevens).toHaveLength(form.breakevens.length);
    summary.breakevens.forEach((b, n) => expect(b).toBeCloseTo(form.breakevens[n]!, 4));
    expect(summary.maxProfit).toEqual(
      form.maxProfit === 'unbounded'
        ? { kind: 'unbounded' }
        : { kind: 'finite', value: expect.closeTo(form.maxProfit * LOT, 6) },
    );
    expect(summary.maxLoss).toEqual(
      form.maxLoss === 'unbounded'
        ? { kind: 'unbounded' }
        : { kind: 'finite', value: expect.closeTo(form.maxLoss * LOT, 6) },
    );
  });

  it('scales with lots: two lots make twice the P&L and the same breakevens', () => {
    const one = payoffSummary(legsOf('iron-condor'), K, IV, NOW);
    const two = payoffSummary(legsOf('iron-condor', 2), K, IV, NOW);
    expect(two.breakevens).toEqual(one.breakevens);
    expect(two.maxProfit).toEqual({
      kind: 'finite',
      value: expect.closeTo(2 * (one.maxProfit as { value: number }).value, 6),
    });
  });

  it('a calendar at the near expiry: the far call at its model value less the near call’s intrinsic, net of the debit', () => {
    const legs = legsOf('calendar');
    const left = yearsTo(FAR, NEAR);
    for (const s of PRICES.filter((x) => x > 0)) {
      const closed = modelPremium('CE', s, K, left, IV) - c(s, K) - (FAR_CALL - CALL[K]!);
      expect(strategyPnl(legs, s, NEAR), `at ${s}`).toBeCloseTo(closed * LOT, 6);
    }
    const summary = payoffSummary(legs, K, IV, NOW);
    // Bounded both ways: the most it loses is the debit (both calls worthless far below).
    expect(summary.maxLoss).toEqual({ kind: 'finite', value: expect.closeTo(-(FAR_CALL - CALL[K]!) * LOT, 6) });
    expect(summary.maxProfit.kind).toBe('finite');
    expect(summary.breakevens).toHaveLength(2);
    const [lo, hi] = summary.breakevens as [number, number];
    expect(lo).toBeLessThan(K);
    expect(hi).toBeGreaterThan(K);
    for (const b of summary.breakevens) expect(Math.abs(strategyPnl(legs, b, NEAR))).toBeLessThan(0.01);
  });

  it('a template whose strikes are off the grid cannot be placed', () => {
    const condor = TEMPLATES.find((t) => t.id === 'iron-condor')!;
    expect(placeTemplate(condor, STRIKES, K, 3)).toBeNull();
    expect(placeTemplate(condor, STRIKES, 25_000)).toBeNull();
  });
});

describe('templates that choose strikes by probability', () => {
  const WIDE = Array.from({ length: 21 }, (_, i) => 25_000 + i * 100);
  // NIFTY at 26,000 with 14% implied volatility, three days to expiry: 1σ ≈ 26,000 × 0.14 × √(3/365) ≈ 330 points.
  const move = { spot: 26_000, vol: 0.14, years: 3 / 365 };

  it('an iron condor sells the strikes nearest a 1σ move each way and buys its wings Wings strikes beyond', () => {
    const condor = TEMPLATES.find((t) => t.id === 'iron-condor')!;
    const placed = placeTemplate(condor, WIDE, 26_000, 1, move)!;
    expect(placed.map((l) => `${l.side} ${l.strike} ${l.kind}`)).toEqual([
      'BUY 25600 PE',
      'SELL 25700 PE',
      'SELL 26300 CE',
      'BUY 26400 CE',
    ]);
    expect(placeTemplate(condor, WIDE, 26_000, 3, move)!.map((l) => l.strike)).toEqual([
      25_400, 25_700, 26_300, 26_600,
    ]);
    expect(condor.strikes).toMatch(/1σ move to expiry/);
  });

  it('a chain’s move is its at-the-money volatility over the time to its expiry’s close', () => {
    const chain = {
      underlying: 'NIFTY',
      exchange: 'NFO' as const,
      expiry: '2026-11-26',
      expiries: ['2026-11-26'],
      underlyingPrice: 26_000,
      atmStrike: 26_000,
      lotSize: 75,
      rows: [{ strike: 26_000, call: { iv: 14 } as never, put: null }],
      ts: '2026-11-23T15:30:00+05:30',
    };
    const m = chainMove(chain)!;
    expect(m.spot).toBe(26_000);
    expect(m.vol).toBeCloseTo(0.14, 10);
    expect(m.years * 365).toBeCloseTo(3, 6);
    expect(chainMove({ ...chain, rows: [] })).toBeNull();
  });
});
