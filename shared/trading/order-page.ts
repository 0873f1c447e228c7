import type { Order, OrderPageKey } from '../domain/order';

/**
 * The book's newest-first order (docs/live-data.md §The first screen first): placement time
 * descending, then order id descending — the blotter's default sort, so the first page is the
 * first screen. Both keys never change for an order. Negative when `a` comes first.
 */
export function newestFirst(a: OrderPageKey, b: OrderPageKey): number {
  if (a.placedAt !== b.placedAt) return a.placedAt < b.placedAt ? 1 : -1;
  if (a.orderId !== b.orderId) return a.orderId < b.orderId ? 1 : -1;
  return 0;
}

/** The key a page ending at this order continues from. */
export function pageKeyOf(o: Order): OrderPageKey {
  return { placedAt: o.placedAt, orderId: o.orderId };
}
