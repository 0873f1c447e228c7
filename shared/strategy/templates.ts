import type { OptionChain } from '../domain/market';
import { expiryInstant } from '../trading/market-hours';
import { yearsTo } from '../trading/options-pricing';
import type { LegSide } from './strategy-model';

/**
 * The strategies a trader starts from (docs/strategy.md §Templates), as strikes counted from the
 * money: each leg is a call or a put, bought or sold, some steps of the chain's strike grid away
 * from the at-the-money strike, in a number of lots, in the near expiry or (a calendar) the next.
 */

export interface TemplateLeg {
  readonly kind: 'CE' | 'PE';
  readonly side: LegSide;
  /**
   * Strikes above (+) or below (−) its anchor, in multiples of the template's width: the
   * at-the-money strike, or for a leg with `sigma` the strike that distance out.
   */
  readonly offset: number;
  /**
   * For a leg placed by probability rather than by count: its anchor is the strike nearest the
   * underlying's move to expiry of this many standard deviations (+ up, − down): spot ×
   * e^(sigma × IV × √years). ±1σ holds the price inside about two times in three.
   */
  readonly sigma?: number;
  /** Lots, as a multiple of the strategy's lots (a butterfly sells two of its body). */
  readonly ratio: number;
  readonly expiry: 'near' | 'far';
}

export interface StrategyTemplate {
  readonly id: string;
  readonly name: string;
  readonly legs: readonly TemplateLeg[];
  /** How its strikes are chosen, as the builder states it. */
  readonly strikes: string;
}

const leg = (
  kind: 'CE' | 'PE',
  side: LegSide,
  offset: number,
  ratio = 1,
  expiry: 'near' | 'far' = 'near',
): TemplateLeg => ({
  kind,
  side,
  offset,
  ratio,
  expiry,
});

/** A near-expiry leg placed `sigma` standard deviations out, then `offset` width steps further. */
const sigmaLeg = (kind: 'CE' | 'PE', side: LegSide, sigma: number, offset: number): TemplateLeg => ({
  ...leg(kind, side, offset),
  sigma,
});

/** Every template, in the order the builder lists them. */
export const TEMPLATES: readonly StrategyTemplate[] = [
  {
    id: 'long-straddle',
    name: 'Long straddle',
    legs: [leg('CE', 'BUY', 0), leg('PE', 'BUY', 0)],
    strikes: 'Buys the at-the-money call and put.',
  },
  {
    id: 'short-straddle',
    name: 'Short straddle',
    legs: [leg('CE', 'SELL', 0), leg('PE', 'SELL', 0)],
    strikes: 'Sells the at-the-money call and put.',
  },
  {
    id: 'long-strangle',
    name: 'Long strangle',
    legs: [sigmaLeg('CE', 'BUY', 1, 0), sigmaLeg('PE', 'BUY', -1, 0)],
    strikes: 'Buys the call and the put nearest a 1σ move to expiry up and down.',
  },
  {
    id: 'short-strangle',
    name: 'Short strangle',
    legs: [sigmaLeg('CE', 'SELL', 1, 0), sigmaLeg('PE', 'SELL', -1, 0)],
    strikes: 'Sells the call and the put nearest a 1σ move to expiry up and down (about 2 in 3 expiries end between).',
  },
  {
    id: 'bull-call-spread',
    name: 'Bull call spread',
    legs: [leg('CE', 'BUY', 0), leg('CE', 'SELL', 1)],
    strikes: 'Buys the at-the-money call, sells the call Wings strikes up.',
  },
  {
    id: 'bear-call-spread',
    name: 'Bear call spread',
    legs: [leg('CE', 'SELL', 0), leg('CE', 'BUY', 1)],
    strikes: 'Sells the at-the-money call, buys the call Wings strikes up.',
  },
  {
    id: 'bull-put-spread',
    name: 'Bull put spread',
    legs: [leg('PE', 'SELL', 0), leg('PE', 'BUY', -1)],
    strikes: 'Sells the at-the-money put, buys the put Wings strikes down.',
  },
  {
    id: 'bear-put-spread',
    name: 'Bear put spread',
    legs: [leg('PE', 'BUY', 0), leg('PE', 'SELL', -1)],
    strikes: 'Buys the at-the-money put, sells the put Wings strikes down.',
  },
  {
    id: 'iron-condor',
    name: 'Iron condor',
    legs: [
      sigmaLeg('PE', 'BUY', -1, -1),
      sigmaLeg('PE', 'SELL', -1, 0),
      sigmaLeg('CE', 'SELL', 1, 0),
      sigmaLeg('CE', 'BUY', 1, 1),
    ],
    strikes:
      'Sells the call and the put nearest a 1σ move to expiry up and down; buys the wings Wings strikes beyond each.',
  },
  {
    id: 'iron-fly',
    name: 'Iron fly',
    legs: [leg('PE', 'BUY', -1), leg('PE', 'SELL', 0), leg('CE', 'SELL', 0), leg('CE', 'BUY', 1)],
    strikes: 'Sells the at-the-money call and put; buys the wings Wings strikes away.',
  },
  {
    id: 'butterfly',
    name: 'Call butterfly',
    legs: [leg('CE', 'BUY', -1), leg('CE', 'SELL', 0, 2), leg('CE', 'BUY', 1)],
    strikes: 'Sells two at-the-money calls; buys a call Wings strikes either side.',
  },
  {
    id: 'calendar',
    name: 'Call calendar',
    legs: [leg('CE', 'SELL', 0), leg('CE', 'BUY', 0, 1, 'far')],
    strikes: 'Sells the at-the-money call of this expiry, buys it in the next.',
  },
];

/** A template's leg placed on a chain: its strike found. */
export interface PlacedLeg extends TemplateLeg {
  readonly strike: number;
}

/** The underlying's expected move to expiry: its price, the volatility (a fraction a year) and the time. */
export interface ExpectedMove {
  readonly spot: number;
  readonly vol: number;
  readonly years: number;
}

/**
 * The move a chain implies: its underlying's price, the at-the-money implied volatility (the
 * call's, else the put's) and the years from the chain's time to the expiry's close. Null when
 * the chain has no volatility at the money.
 */
export function chainMove(chain: OptionChain): ExpectedMove | null {
  const row = chain.rows.find((r) => r.strike === chain.atmStrike);
  const iv = (row?.call?.iv || row?.put?.iv || 0) / 100;
  const years = yearsTo(expiryInstant(chain.exchange, chain.expiry), Date.parse(chain.ts));
  if (!(iv > 0) || !(years > 0) || !(chain.underlyingPrice > 0)) return null;
  return { spot: chain.underlyingPrice, vol: iv, years };
}

/** The index in `strikes` of the strike nearest a move of `sigma` standard deviations. */
function sigmaIndex(strikes: readonly number[], move: ExpectedMove, sigma: number): number {
  const target = move.spot * Math.exp(sigma * move.vol * Math.sqrt(move.years));
  let best = 0;
  strikes.forEach((k, i) => {
    if (Math.abs(k - target) < Math.abs(strikes[best]! - target)) best = i;
  });
  return best;
}

/**
 * The template's legs on a strike grid: `strikes` lowest first, `atm` the at-the-money strike,
 * each offset `width` grid steps from its anchor — the at-the-money strike, or for a leg with
 * `sigma` the strike nearest that many standard deviations of `move`. Without a move, a `sigma`
 * leg anchors that many strikes from the money. Null when a leg's strike is off the grid shown
 * (the chain's strikes do not reach that far). A sold σ-leg never lands on the money's other
 * side: at least one strike out.
 */
export function placeTemplate(
  template: StrategyTemplate,
  strikes: readonly number[],
  atm: number,
  width = 1,
  move: ExpectedMove | null = null,
): PlacedLeg[] | null {
  const at = strikes.indexOf(atm);
  if (at < 0) return null;
  const placed: PlacedLeg[] = [];
  for (const l of template.legs) {
    let anchor = at;
    if (l.sigma !== undefined) {
      const found = move ? sigmaIndex(strikes, move, l.sigma) : at + Math.round(l.sigma);
      anchor = l.sigma > 0 ? Math.max(found, at + 1) : Math.min(found, at - 1);
    }
    const strike = strikes[anchor + l.offset * width];
    if (strike === undefined) return null;
    placed.push({ ...l, strike });
  }
  return placed;
}
