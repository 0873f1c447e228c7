import type { PaperInstrument } from './instruments';
import type { MarginQuote, PlaceRequest } from './matching';

/**
 * The margin of a basket of prospective orders (docs/market.md §Basket margin and hedging).
 *
 * Each leg is quoted by the same rules as POST /margins/orders (positions and working orders
 * considered); the basket's total before hedging is their sum. The hedging benefit is one simple
 * rule: the premium a basket's short option legs bring in pays for the premium its long option
 * legs block, per underlying and expiry (a debit spread ties up its net debit, not the whole
 * premium of its long leg). Nothing else offsets.
 */

/** One leg's quote, with the instrument and side the hedging rule needs. */
export interface BasketLegQuote {
  readonly instrument: PaperInstrument;
  readonly transactionType: PlaceRequest['transactionType'];
  readonly quote: MarginQuote;
}

/** A basket's margin: every leg's quote, the sum before hedging, and after. */
export interface BasketQuote {
  readonly legs: readonly BasketLegQuote[];
  /** Σ of the legs' margins, in units of ₹0.0001. */
  readonly initialUnits: number;
  /** What the basket blocks once hedged: initial − the hedging benefit (never below 0). */
  readonly finalUnits: number;
}

const isOption = (i: PaperInstrument): boolean => i.instrumentType === 'CE' || i.instrumentType === 'PE';

/**
 * The hedging benefit of these legs, in units: per underlying and expiry, the lesser of what the
 * long option legs block and the premium the short option legs receive (their order value).
 */
export function hedgeBenefitUnits(legs: readonly BasketLegQuote[]): number {
  const groups = new Map<string, { long: number; short: number }>();
  for (const leg of legs) {
    if (!isOption(leg.instrument)) continue;
    const key = `${leg.instrument.underlying}|${leg.instrument.expiry ?? ''}`;
    const g = groups.get(key) ?? { long: 0, short: 0 };
    if (leg.transactionType === 'BUY') g.long += leg.quote.totalUnits;
    else g.short += leg.quote.orderValueUnits;
    groups.set(key, g);
  }
  let benefit = 0;
  for (const g of groups.values()) benefit += Math.min(g.long, g.short);
  return benefit;
}

/** The basket's margin from its legs' quotes (each already priced by the engine). */
export function basketQuote(legs: readonly BasketLegQuote[]): BasketQuote {
  const initialUnits = legs.reduce((sum, l) => sum + l.quote.totalUnits, 0);
  return { legs, initialUnits, finalUnits: Math.max(0, initialUnits - hedgeBenefitUnits(legs)) };
}
