import { futurePrice, greeks, modelPremium, normCdf, yearsTo, CARRY_RATE } from '../trading/options-pricing';

/**
 * An options strategy valued with the paper market's own model (docs/strategy.md): each leg is
 * priced by Black–Scholes on the forward at its IV (shared/trading/options-pricing.ts), the P&L
 * is drawn at the first expiry and at a chosen date before it, and the figures a trader plans by
 * — breakevens, maximum profit and loss, probability of profit, net premium and Greeks — are
 * computed from the same functions. Pure: the builder recomputes it on every tick.
 */

export type LegKind = 'CE' | 'PE' | 'FUT';
export type LegSide = 'BUY' | 'SELL';

/** One leg of a strategy, in the units the exchange trades it. */
export interface StrategyLeg {
  readonly kind: LegKind;
  /** The strike; 0 for a future. */
  readonly strike: number;
  /** When the contract stops trading (epoch ms; `expiryInstant`). */
  readonly expiresAt: number;
  readonly side: LegSide;
  /** Units: lots × lot size. */
  readonly quantity: number;
  /** Entry price per unit (the premium paid or received, or the future's price). */
  readonly price: number;
  /** Implied volatility as a fraction a year (0.14 is 14%); unused for a future. */
  readonly iv: number;
  /** Rupees per price point per unit (1 for index and stock options). */
  readonly multiplier: number;
}

/** A volatility a leg is never valued below (a what-if that takes IV under zero stops here). */
const MIN_VOL = 0.0001;

const sign = (side: LegSide): number => (side === 'BUY' ? 1 : -1);

/** A leg's value per unit with the underlying at `spot` at instant `at`, its IV moved by `ivShift`. */
export function legValue(leg: StrategyLeg, spot: number, at: number, ivShift = 0): number {
  const years = yearsTo(leg.expiresAt, at);
  if (leg.kind === 'FUT') return futurePrice(spot, years);
  return modelPremium(leg.kind, spot, leg.strike, years, Math.max(MIN_VOL, leg.iv + ivShift));
}

/** The strategy's P&L in rupees with the underlying at `spot` at instant `at`. */
export function strategyPnl(legs: readonly StrategyLeg[], spot: number, at: number, ivShift = 0): number {
  let pnl = 0;
  for (const leg of legs) {
    pnl += sign(leg.side) * (legValue(leg, spot, at, ivShift) - leg.price) * leg.quantity * leg.multiplier;
  }
  return pnl;
}

/**
 * What the trader paid (negative) or received (positive) for the options, in rupees: a credit
 * strategy brings premium in. Futures carry no premium.
 */
export function netPremium(legs: readonly StrategyLeg[]): number {
  let total = 0;
  for (const leg of legs) if (leg.kind !== 'FUT') total -= sign(leg.side) * leg.price * leg.quantity * leg.multiplier;
  return total;
}

/** Net Greeks in rupees: Δ and Γ per point of the underlying, Θ per calendar day, vega per IV point. */
export interface NetGreeks {
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
}

/** The strategy's Greeks at `spot` and instant `at`, each leg at its IV moved by `ivShift`. */
export function netGreeks(legs: readonly StrategyLeg[], spot: number, at: number, ivShift = 0): NetGreeks {
  let delta = 0;
  let gamma = 0;
  let theta = 0;
  let vega = 0;
  for (const leg of legs) {
    const units = sign(leg.side) * leg.quantity * leg.multiplier;
    const years = yearsTo(leg.expiresAt, at);
    if (leg.kind === 'FUT') {
      // A future's price is spot × (1 + c·T): it moves 1 + c·T with the spot and loses the carry daily.
      delta += units * (1 + CARRY_RATE * years);
      if (years > 0) theta -= (units * spot * CARRY_RATE) / 365;
      continue;
    }
    const g = greeks(leg.kind, spot, leg.strike, years, Math.max(MIN_VOL, leg.iv + ivShift));
    delta += units * g.delta;
    gamma += units * g.gamma;
    theta += units * g.theta;
    vega += units * g.vega;
  }
  return { delta, gamma, theta, vega };
}

/** The instant the strategy is judged "at expiry": its first leg's expiry (a calendar's near leg). */
export function firstExpiry(legs: readonly StrategyLeg[]): number {
  let first = Number.POSITIVE_INFINITY;
  for (const leg of legs) first = Math.min(first, leg.expiresAt);
  return first;
}

/** A P&L bound: a figure in rupees, or unbounded. */
export type Bound = { readonly kind: 'finite'; readonly value: number } | { readonly kind: 'unbounded' };

/** The figures of a strategy's payoff at its first expiry. */
export interface PayoffSummary {
  /** Underlying prices at which the P&L at expiry crosses zero, lowest first. */
  readonly breakevens: readonly number[];
  /** The best P&L at expiry: a figure, or unbounded (a long call's). */
  readonly maxProfit: Bound;
  /** The worst P&L at expiry as a loss (≤ 0), or unbounded (a naked short call's). */
  readonly maxLoss: Bound;
  /**
   * The chance the P&L at expiry is above zero, under the lognormal distribution the options
   * imply: the forward to that expiry as its mean and `vol` as its volatility. Null without a
   * volatility or time to judge by.
   */
  readonly probabilityOfProfit: number | null;
}

/** A P&L of a rupee's hundredth or less is taken as zero (the edges of a flat region). */
const FLAT = 0.005;

/**
 * The strategy's payoff at its first expiry, judged from its shape (docs/strategy.md §Payoff
 * figures). The P&L is evaluated at zero, at every strike and on a grid up to half as far again
 * as the highest strike; far above, each call and future moves one for one with the underlying
 * and each put is worth nothing, so the calls and futures bought less those sold decide whether
 * a side is unbounded. With one expiry the payoff is straight between strikes, so the breakevens
 * and bounds are exact; a calendar's later legs are valued by the model at the first expiry and
 * its breakevens are found by bisection.
 */
export function payoffSummary(
  legs: readonly StrategyLeg[],
  spot: number,
  vol: number | null,
  now: number,
  ivShift = 0,
): PayoffSummary {
  if (legs.length === 0) {
    return {
      breakevens: [],
      maxProfit: { kind: 'finite', value: 0 },
      maxLoss: { kind: 'finite', value: 0 },
      probabilityOfProfit: null,
    };
  }
  const at = firstExpiry(legs);
  const pnl = (s: number): number => strategyPnl(legs, s, at, ivShift);
  const xs = samplePoints(legs, spot);
  const ys = xs.map(pnl);
  // Beyond the grid the payoff keeps the calls' and futures' net slope: a breakeven out there is
  // found by looking further until the P&L has that slope's sign.
  const slope = legs.reduce((sum, l) => sum + (l.kind === 'PE' ? 0 : sign(l.side) * l.quantity * l.multiplier), 0);
  const last = ys[ys.length - 1]!;
  if ((slope > 0 && last < -FLAT) || (slope < 0 && last > FLAT)) {
    let x = xs[xs.length - 1]!;
    for (let i = 0; i < 40; i++) {
      x *= 2;
      const y = pnl(x);
      xs.push(x);
      ys.push(y);
      if (Math.sign(y) === Math.sign(slope) && Math.abs(y) > FLAT) break;
    }
  }

  const breakevens: number[] = [];
  for (let i = 1; i < xs.length; i++) {
    const a = ys[i - 1]!;
    const b = ys[i]!;
    if (Math.abs(b) <= FLAT && Math.abs(a) > FLAT) breakevens.push(xs[i]!);
    else if (a * b < 0 && Math.abs(a) > FLAT) breakevens.push(root(pnl, xs[i - 1]!, xs[i]!, a));
  }
  let best = 0;
  let worst = 0;
  for (const y of ys) {
    best = Math.max(best, y);
    worst = Math.min(worst, y);
  }
  return {
    breakevens: dedupe(breakevens),
    maxProfit: slope > 0 ? { kind: 'unbounded' } : { kind: 'finite', value: best },
    maxLoss: slope < 0 ? { kind: 'unbounded' } : { kind: 'finite', value: worst },
    probabilityOfProfit: probabilityOfProfit(legs, xs, ys, spot, vol, now, at, pnl),
  };
}

/**
 * Where the payoff is evaluated: zero, every strike (the kinks), the spot, and a grid up to half
 * as far again as the highest strike — so a straight payoff's every corner is a sample.
 */
function samplePoints(legs: readonly StrategyLeg[], spot: number): number[] {
  let top = spot;
  for (const l of legs) top = Math.max(top, l.strike);
  const high = top * 1.5;
  const grid = 600;
  const points = new Set<number>([0, spot, high]);
  for (const l of legs) if (l.kind !== 'FUT') points.add(l.strike);
  for (let i = 1; i < grid; i++) points.add((high * i) / grid);
  return [...points].sort((a, b) => a - b);
}

/**
 * A zero of `f` between `lo` and `hi`, where it changes sign (`flo` = f(lo)): regula falsi with
 * the Illinois step, exact at once on a straight stretch and fast on a curved one.
 */
function root(f: (x: number) => number, lo: number, hi: number, flo: number): number {
  let a = lo;
  let b = hi;
  let fa = flo;
  let fb = f(hi);
  let side = 0;
  for (let i = 0; i < 100; i++) {
    const m = fa === fb ? (a + b) / 2 : (a * fb - b * fa) / (fb - fa);
    const fm = f(m);
    if (fm === 0 || b - a <= 1e-12 * Math.max(1, Math.abs(b))) return m;
    if (Math.abs(fm) < 1e-9) return m;
    if (fa * fm < 0) {
      b = m;
      fb = fm;
      if (side === -1) fa /= 2;
      side = -1;
    } else {
      a = m;
      fa = fm;
      if (side === 1) fb /= 2;
      side = 1;
    }
  }
  return (a + b) / 2;
}

const dedupe = (xs: readonly number[]): number[] =>
  xs.filter((x, i) => i === 0 || Math.abs(x - xs[i - 1]!) > 1e-6 * Math.max(1, x));

/**
 * P(P&L at expiry > 0) when the underlying at `at` is lognormal around the forward with
 * volatility `vol`: the probability mass of the price intervals where the payoff is positive.
 */
function probabilityOfProfit(
  legs: readonly StrategyLeg[],
  xs: readonly number[],
  ys: readonly number[],
  spot: number,
  vol: number | null,
  now: number,
  at: number,
  pnl: (s: number) => number,
): number | null {
  const years = yearsTo(at, now);
  if (vol === null || !(vol > 0) || years <= 0 || spot <= 0 || legs.length === 0) return null;
  const forward = futurePrice(spot, years);
  const sd = vol * Math.sqrt(years);
  /** P(S_T ≤ x). */
  const below = (x: number): number =>
    x <= 0 ? 0 : Number.isFinite(x) ? normCdf((Math.log(x / forward) + (sd * sd) / 2) / sd) : 1;
  let p = 0;
  // Walk the samples; each stretch between sign changes is profit or loss as a whole.
  let start = 0;
  let profitable = ys[0]! > FLAT;
  for (let i = 1; i < xs.length; i++) {
    const here = ys[i]! > FLAT;
    if (here === profitable) continue;
    const edge =
      Math.abs(ys[i]!) <= FLAT
        ? xs[i]!
        : Math.abs(ys[i - 1]!) <= FLAT
          ? xs[i - 1]!
          : root(pnl, xs[i - 1]!, xs[i]!, ys[i - 1]!);
    if (profitable) p += below(edge) - below(start);
    start = edge;
    profitable = here;
  }
  if (profitable) p += 1 - below(start);
  return Math.min(1, Math.max(0, p));
}

/** The P&L curves a chart draws: at the first expiry and at the chosen instant, over `xs`. */
export interface PayoffCurves {
  readonly xs: readonly number[];
  readonly atExpiry: readonly number[];
  readonly atTarget: readonly number[];
}

/** The two curves over `points` prices from `low` to `high`. */
export function payoffCurves(
  legs: readonly StrategyLeg[],
  low: number,
  high: number,
  points: number,
  targetAt: number,
  ivShift = 0,
): PayoffCurves {
  const expiry = firstExpiry(legs);
  const target = Math.min(targetAt, expiry);
  const n = Math.max(2, Math.floor(points));
  const xs: number[] = [];
  const atExpiry: number[] = [];
  const atTarget: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = low + ((high - low) * i) / (n - 1);
    xs.push(x);
    atExpiry.push(strategyPnl(legs, x, expiry, ivShift));
    atTarget.push(strategyPnl(legs, x, target, ivShift));
  }
  return { xs, atExpiry, atTarget };
}

/**
 * The price range a payoff chart shows: the strikes and the spot with room either side — at least
 * two standard deviations of the move the options imply by the first expiry.
 */
export function chartRange(
  legs: readonly StrategyLeg[],
  spot: number,
  vol: number | null,
  now: number,
): [number, number] {
  const strikes = legs.filter((l) => l.kind !== 'FUT').map((l) => l.strike);
  const lo = Math.min(spot, ...strikes);
  const hi = Math.max(spot, ...strikes);
  const years = legs.length ? yearsTo(firstExpiry(legs), now) : 0;
  const move = spot * Math.max(0.02, (vol ?? 0.15) * Math.sqrt(Math.max(years, 1 / 365)) * 2);
  const pad = Math.max(move, (hi - lo) * 0.25);
  return [Math.max(0, lo - pad), hi + pad];
}

/** What the builder shows of a strategy, all from one market state. */
export interface StrategyAnalysis {
  readonly summary: PayoffSummary;
  readonly curves: PayoffCurves;
  /** At the what-if spot, on the chosen date, at the moved IVs. */
  readonly greeks: NetGreeks;
  readonly premium: number;
  /** The P&L at the what-if spot on the chosen date. */
  readonly pnlAtTarget: number;
  readonly range: readonly [number, number];
}

/** The market a strategy is judged in: the what-if already applied. */
export interface StrategyMarket {
  /** The underlying's price (with the what-if's move). */
  readonly spot: number;
  /** The market clock's time now. */
  readonly now: number;
  /** The volatility of the implied distribution (the at-the-money IV), for the probability of profit. */
  readonly vol: number | null;
  /** The date the "before expiry" curve and the Greeks are for (now, or some days on). */
  readonly targetAt: number;
  /** Every leg's IV moved by this (a fraction: 0.01 is one point). */
  readonly ivShift: number;
  /** How many prices the chart's curves are evaluated at. */
  readonly points: number;
}

/**
 * Everything the builder recomputes on a tick (docs/strategy.md §Live): the payoff's figures, both
 * curves over the chart's range, the Greeks and the premium. `npm run bench -- strategy` measures it.
 */
export function analyseStrategy(legs: readonly StrategyLeg[], market: StrategyMarket): StrategyAnalysis {
  const target = legs.length ? Math.min(market.targetAt, firstExpiry(legs)) : market.targetAt;
  const range = chartRange(legs, market.spot, market.vol, market.now);
  return {
    summary: payoffSummary(legs, market.spot, market.vol, market.now, market.ivShift),
    curves: payoffCurves(legs, range[0], range[1], market.points, target, market.ivShift),
    greeks: netGreeks(legs, market.spot, target, market.ivShift),
    premium: netPremium(legs),
    pnlAtTarget: strategyPnl(legs, market.spot, target, market.ivShift),
    range,
  };
}
