import type { Instrument } from '@shared/domain/instrument';
import type { OrderRequest, TransactionType } from '@shared/domain/order';
import { draftForInstrument, EMPTY_DRAFT, evaluateTicket } from '../ticket/ticket-model';

/**
 * The basket leg an option chain's "add to basket" makes (docs/desk.md §Baskets): what a fresh
 * ticket would hold for that contract on `side` — one lot, the instrument's default product, a
 * LIMIT at `lastPrice` on the tick — judged by the ticket's rules. Null when those rules refuse it
 * (no price to start from), so nothing the ticket could not place ever reaches the basket.
 */
export function chainLegOrder(instrument: Instrument, side: TransactionType, lastPrice: number): OrderRequest | null {
  const draft = draftForInstrument({ ...EMPTY_DRAFT, side, orderType: 'LIMIT' }, { ...instrument, lastPrice });
  return evaluateTicket(draft, instrument).request;
}
