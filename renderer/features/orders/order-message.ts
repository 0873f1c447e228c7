import { isWorking, type Order } from '@shared/domain/order';
import { formatPrice } from '../../lib/format';

/**
 * What the blotter's message column says about an order. A working order the broker protected
 * (a MARKET or SL-M it holds as a LIMIT or SL: docs/kite.md §Market protection) says why it is
 * resting at a price the trader never typed: "Market protection 2%: limit 1,234.50". Otherwise the
 * broker's own words — a rejection's reason, or the exchange's cancellation of a stop outside its
 * limit price protection range.
 */
export function orderMessage(o: Order, tickSize?: number): string {
  const p = o.marketProtection;
  if (p && isWorking(o.status) && o.price !== null) {
    const pct = p.automatic ? `automatic ${p.percent}%` : `${p.percent}%`;
    return `Market protection ${pct}: limit ${formatPrice(o.price, tickSize)}`;
  }
  return o.statusMessage ?? '';
}
