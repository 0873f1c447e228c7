import type { Exchange, InstrumentType } from '@shared/domain/instrument';
import { PRICE_UNITS_PER_RUPEE } from '@shared/trading/money';

/**
 * The exchanges' limit price protection (LPP) on derivatives (docs/api.md §Matching, "Limit price
 * protection"): a limit price may be at most this far from the reference price — the last price
 * here. Options: ₹20 either side up to a ₹50 reference, 40% above it; futures: 3%. NSE checks a
 * stop-limit order against it when the stop triggers, and cancels one whose limit is outside.
 */

/** The reason Kite gives for a triggered stop the exchange cancelled outside its LPP range. */
export const LPP_CANCELLED =
  'The order was cancelled by the exchange because the price is outside the current allowed limit price protection range.';

/** `[low, high]` in price units around `refUnits`, or null where no LPP applies (cash, currency, commodity). */
export function lppRange(
  exchange: Exchange,
  instrumentType: InstrumentType,
  refUnits: number,
): readonly [number, number] | null {
  if (exchange !== 'NFO' && exchange !== 'BFO') return null;
  let width: number;
  if (instrumentType === 'FUT') width = Math.round(refUnits * 0.03);
  else if (refUnits <= 50 * PRICE_UNITS_PER_RUPEE) width = 20 * PRICE_UNITS_PER_RUPEE;
  else width = Math.round(refUnits * 0.4);
  return [Math.max(0, refUnits - width), refUnits + width];
}

/** True when a BUY's limit is above the range's top or a SELL's below its bottom. */
export function outsideLpp(
  range: readonly [number, number] | null,
  side: 'BUY' | 'SELL',
  limitUnits: number | null,
): boolean {
  if (range === null || limitUnits === null) return false;
  return side === 'BUY' ? limitUnits > range[1] : limitUnits < range[0];
}
