import { CANCELLED_BY_BRACKET, type Bracket } from '@shared/domain/bracket';
import { isWorking, type Order } from '@shared/domain/order';
import { formatPrice } from '../../lib/format';

/**
 * What the blotter's message column says about an order. A child order that Tradedesk cancelled
 * as the other half of a bracket says so and why (`bracketCancelNotes`), not the broker's
 * "Cancelled by the user". A working order the broker protected
 * (a MARKET or SL-M it holds as a LIMIT or SL: docs/kite.md §Market protection) says why it is
 * resting at a price the trader never typed: "Market protection 2%: limit 1,234.50". Otherwise the
 * broker's own words — a rejection's reason, or the exchange's cancellation of a stop outside its
 * limit price protection range.
 */
export function orderMessage(o: Order, tickSize?: number, bracketNote?: string): string {
  if (bracketNote !== undefined && o.status === 'CANCELLED') return bracketNote;
  const p = o.marketProtection;
  if (p && isWorking(o.status) && o.price !== null) {
    const pct = p.automatic ? `automatic ${p.percent}%` : `${p.percent}%`;
    return `Market protection ${pct}: limit ${formatPrice(o.price, tickSize)}`;
  }
  return o.statusMessage ?? '';
}

/**
 * The orders Tradedesk cancelled for their brackets (docs/brackets.md), by order id, with who and
 * why: "Cancelled by Tradedesk: the stop-loss filled (bracket)".
 */
export function bracketCancelNotes(brackets: readonly Bracket[]): ReadonlyMap<string, string> {
  const notes = new Map<string, string>();
  for (const b of brackets) {
    const why =
      b.stop?.status === 'filled'
        ? 'the stop-loss filled'
        : b.target?.status === 'filled'
          ? 'the target filled'
          : b.cancelRequested
            ? 'you cancelled the bracket'
            : 'the position closed';
    for (const c of [b.entry, b.stop, b.target]) {
      if (c?.orderId && c.status === 'cancelled' && c.message === CANCELLED_BY_BRACKET) {
        notes.set(c.orderId, `Cancelled by Tradedesk: ${why} (bracket)`);
      }
    }
  }
  return notes;
}
