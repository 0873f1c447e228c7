import type { InstrumentSpec } from './rules';

/**
 * Slicing above the contract's freeze quantity (docs/contract.md §Trading rules): the one rule
 * the ticket's legs and the kill switch's exits share. Each slice is its own order; this only
 * says how big each is.
 */

type FreezeSpec = Pick<InstrumentSpec, 'lotSize' | 'freezeQuantity'>;

/** The largest whole number of lots within the freeze quantity (one lot when the limit is under a lot). */
export function sliceSize(spec: FreezeSpec): number {
  return Math.max(spec.lotSize, Math.floor(spec.freezeQuantity / spec.lotSize) * spec.lotSize);
}

/**
 * `quantity` cut into orders the exchange accepts: every slice `sliceSize`, the rest last
 * (3,600 NIFTY at a freeze of 1,800 → 1,800 + 1,800; 3,750 → 1,800 + 1,800 + 150). Together they
 * are exactly `quantity`, never more. At or under the limit: one slice.
 */
export function freezeSlices(quantity: number, spec: FreezeSpec): number[] {
  const most = sliceSize(spec);
  const out: number[] = [];
  for (let left = quantity; left > 0; left -= most) out.push(Math.min(left, most));
  return out;
}
