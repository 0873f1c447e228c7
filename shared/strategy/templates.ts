import type { LegSide } from './strategy-model';

/**
 * The strategies a trader starts from (docs/strategy.md §Templates), as strikes counted from the
 * money: each leg is a call or a put, bought or sold, some steps of the chain's strike grid away
 * from the at-the-money strike, in a number of lots, in the near expiry or (a calendar) the next.
 */

export interface TemplateLeg {
  readonly kind: 'CE' | 'PE';
  readonly side: LegSide;
  /** Strikes above (+) or below (−) the at-the-money strike, in multiples of the template's width. */
  readonly offset: number;
  /** Lots, as a multiple of the strategy's lots (a butterfly sells two of its body). */
  readonly ratio: number;
  readonly expiry: 'near' | 'far';
}

export interface StrategyTemplate {
  readonly id: string;
  readonly name: string;
  readonly legs: readonly TemplateLeg[];
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

/** Every template, in the order the builder lists them. */
export const TEMPLATES: readonly StrategyTemplate[] = [
  { id: 'long-straddle', name: 'Long straddle', legs: [leg('CE', 'BUY', 0), leg('PE', 'BUY', 0)] },
  { id: 'short-straddle', name: 'Short straddle', legs: [leg('CE', 'SELL', 0), leg('PE', 'SELL', 0)] },
  { id: 'long-strangle', name: 'Long strangle', legs: [leg('CE', 'BUY', 1), leg('PE', 'BUY', -1)] },
  { id: 'short-strangle', name: 'Short strangle', legs: [leg('CE', 'SELL', 1), leg('PE', 'SELL', -1)] },
  { id: 'bull-call-spread', name: 'Bull call spread', legs: [leg('CE', 'BUY', 0), leg('CE', 'SELL', 1)] },
  { id: 'bear-call-spread', name: 'Bear call spread', legs: [leg('CE', 'SELL', 0), leg('CE', 'BUY', 1)] },
  { id: 'bull-put-spread', name: 'Bull put spread', legs: [leg('PE', 'SELL', 0), leg('PE', 'BUY', -1)] },
  { id: 'bear-put-spread', name: 'Bear put spread', legs: [leg('PE', 'BUY', 0), leg('PE', 'SELL', -1)] },
  {
    id: 'iron-condor',
    name: 'Iron condor',
    legs: [leg('PE', 'BUY', -2), leg('PE', 'SELL', -1), leg('CE', 'SELL', 1), leg('CE', 'BUY', 2)],
  },
  {
    id: 'iron-fly',
    name: 'Iron fly',
    legs: [leg('PE', 'BUY', -1), leg('PE', 'SELL', 0), leg('CE', 'SELL', 0), leg('CE', 'BUY', 1)],
  },
  {
    id: 'butterfly',
    name: 'Call butterfly',
    legs: [leg('CE', 'BUY', -1), leg('CE', 'SELL', 0, 2), leg('CE', 'BUY', 1)],
  },
  { id: 'calendar', name: 'Call calendar', legs: [leg('CE', 'SELL', 0), leg('CE', 'BUY', 0, 1, 'far')] },
];

/** A template's leg placed on a chain: its strike found. */
export interface PlacedLeg extends TemplateLeg {
  readonly strike: number;
}

/**
 * The template's legs on a strike grid: `strikes` lowest first, `atm` the at-the-money strike,
 * each offset `width` grid steps. Null when a leg's strike is off the grid shown (the chain's
 * strikes do not reach that far).
 */
export function placeTemplate(
  template: StrategyTemplate,
  strikes: readonly number[],
  atm: number,
  width = 1,
): PlacedLeg[] | null {
  const at = strikes.indexOf(atm);
  if (at < 0) return null;
  const placed: PlacedLeg[] = [];
  for (const l of template.legs) {
    const strike = strikes[at + l.offset * width];
    if (strike === undefined) return null;
    placed.push({ ...l, strike });
  }
  return placed;
}
