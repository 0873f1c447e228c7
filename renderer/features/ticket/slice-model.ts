import type { Instrument } from '@shared/domain/instrument';
import type { OrderStatus } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import { freezeSlices, sliceSize } from '@shared/trading/freeze-slices';
import { isRefusal } from '../placements/placement-model';

/**
 * Slicing an order above the contract's freeze limit into legs the exchange accepts
 * (docs/renderer.md, "Market depth, sessions and the option chain on screen"), without React.
 * Each leg is its own order with its own reference; none is ever sent twice.
 */

/** The most legs one click may place: a typo of an extra zero should not become 200 orders. */
export const MAX_LEGS = 20;

/** How an order above the freeze limit splits: every leg at the largest whole-lot size allowed, the rest last. */
export interface SlicePlan {
  readonly legs: readonly number[];
  /** The largest whole number of lots at or under the freeze limit. */
  readonly legSize: number;
}

/**
 * The legs of `quantity` (3,600 NIFTY at a freeze of 1,800 → 1,800 + 1,800; 3,750 → 1,800 +
 * 1,800 + 150), or null when it needs no slicing or cannot be sliced: at or under the limit, not
 * a whole number of lots, or more than `MAX_LEGS` legs.
 */
export function slicePlan(
  quantity: number,
  instrument: Pick<Instrument, 'lotSize' | 'freezeQuantity'>,
): SlicePlan | null {
  const { lotSize, freezeQuantity } = instrument;
  if (!Number.isInteger(quantity) || quantity <= freezeQuantity || quantity % lotSize !== 0) return null;
  // A limit under one lot cannot be met by any order: nothing to offer.
  if (freezeQuantity < lotSize) return null;
  const legSize = sliceSize(instrument);
  if (Math.ceil(quantity / legSize) > MAX_LEGS) return null;
  return { legs: freezeSlices(quantity, instrument), legSize };
}

/** What became of one leg's placement call. */
export type LegAnswer =
  | { readonly kind: 'placed'; readonly status: OrderStatus | null }
  | { readonly kind: 'refused' }
  | { readonly kind: 'uncertain' };

/** A leg's call classified: placed (with its status), refused (nothing created), or not yet known. */
export function legAnswer(data: PlaceOutcome | undefined, error: unknown): LegAnswer {
  if (data?.state === 'placed') return { kind: 'placed', status: data.status };
  if (data === undefined && isRefusal(error)) return { kind: 'refused' };
  return { kind: 'uncertain' };
}

/**
 * Whether the next leg goes out after this one. Only after a leg the broker took in and did not
 * reject: a refusal (the market is closed, a rule) or a rejection (margin) would meet every later
 * leg too, and after an unconfirmed leg the trader must first learn whether it exists — the
 * rest are then "not sent", never sent behind their back.
 */
export function sendsNext(answer: LegAnswer): boolean {
  return answer.kind === 'placed' && answer.status !== 'REJECTED';
}
