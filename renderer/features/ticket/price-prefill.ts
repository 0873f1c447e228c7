import type { Instrument } from '@shared/domain/instrument';
import type { TransactionType } from '@shared/domain/order';
import { roundToTick } from '@shared/trading/money';
import { takesPrice } from '@shared/trading/rules';
import type { TicketDraft } from './ticket-model';

/**
 * Where the ticket's prefilled LIMIT price came from (docs/renderer.md §The ticket's starting price):
 *
 * - `pending`: prefilled and waiting for the live quote (the ticket was just opened or its side,
 *   instrument or order type changed); the ticket replaces it with the touch at once;
 * - `close`: no live quote exists yet, so the price shown is the instrument list's last price
 *   (the previous close before the first trade), and the ticket says so;
 * - `bid` / `ask`: the live touch on the order's side — a sell starts at the best bid, a buy at
 *   the best offer, the price the order would trade at now;
 * - `last`: the live last price, when the book has no price on that side.
 *
 * A price the trader typed or clicked (chart, ladder, depth) has no source: it is never moved.
 */
export type PriceFrom = 'pending' | 'close' | 'bid' | 'ask' | 'last';

/** The best bid and offer as the ticket knows them (a `Book`, or nothing yet). */
export interface Touch {
  readonly bid: number | null;
  readonly ask: number | null;
}

/** The live price an order on `side` starts from: the touch it would trade with, else the last price. */
export function touchPrice(
  side: TransactionType,
  touch: Touch | null,
  liveLast: number | null,
): { readonly price: number; readonly from: 'bid' | 'ask' | 'last' } | null {
  const far = side === 'SELL' ? touch?.bid : touch?.ask;
  if (far != null && far > 0) return { price: far, from: side === 'SELL' ? 'bid' : 'ask' };
  if (liveLast != null && liveLast > 0) return { price: liveLast, from: 'last' };
  return null;
}

/**
 * The draft change that puts a prefilled price on the live quote: only for a price the ticket
 * filled in itself (`pending` or `close`) on a priced order type. With no live quote a `pending`
 * price becomes `close` (shown as such); a typed price is never touched.
 */
export function livePrefill(
  draft: Pick<TicketDraft, 'side' | 'orderType' | 'priceFrom'>,
  instrument: Instrument | undefined,
  touch: Touch | null,
  liveLast: number | null,
): { readonly price?: string; readonly priceFrom: PriceFrom } | null {
  if (!instrument || !takesPrice(draft.orderType)) return null;
  if (draft.priceFrom !== 'pending' && draft.priceFrom !== 'close') return null;
  const live = touchPrice(draft.side, touch, liveLast);
  if (live) return { price: String(roundToTick(live.price, instrument.tickSize)), priceFrom: live.from };
  return draft.priceFrom === 'pending' ? { priceFrom: 'close' } : null;
}

/** What the ticket says about its price's source, under the Price field; nothing for a typed price. */
export function priceSourceText(from: PriceFrom | undefined): string | undefined {
  switch (from) {
    case 'bid':
      return 'Limit price from the live bid';
    case 'ask':
      return 'Limit price from the live offer';
    case 'last':
      return 'Limit price from the live last price';
    case 'close':
      return 'No live quote yet: the limit price is the last close';
    default:
      return undefined;
  }
}
