import type { Order, OrderStatus } from '@shared/domain/order';

/**
 * The blotter's filtering, sorting and change detection, without React, so 10,000-row
 * behaviour is unit-testable and costs one pass per poll.
 */

/** The status groups a trader filters by. */
export type StatusGroup = 'all' | 'working' | 'complete' | 'rejected' | 'cancelled';

const GROUP_OF: Record<OrderStatus, Exclude<StatusGroup, 'all'>> = {
  OPEN: 'working',
  'TRIGGER PENDING': 'working',
  'AMO REQ RECEIVED': 'working',
  COMPLETE: 'complete',
  REJECTED: 'rejected',
  CANCELLED: 'cancelled',
};

/** Sortable columns (every column of the blotter). */
export type SortColumn =
  | 'time'
  | 'symbol'
  | 'side'
  | 'quantity'
  | 'type'
  | 'product'
  | 'validity'
  | 'price'
  | 'trigger'
  | 'average'
  | 'status'
  | 'message';

/** Column and direction. */
export interface SortSpec {
  readonly column: SortColumn;
  readonly descending: boolean;
}

const KEY: Record<SortColumn, (o: Order) => string | number> = {
  time: (o) => o.placedAt,
  symbol: (o) => o.tradingsymbol,
  side: (o) => o.transactionType,
  quantity: (o) => o.quantity,
  type: (o) => o.orderType,
  product: (o) => o.product,
  validity: (o) => o.validity,
  price: (o) => o.price ?? 0,
  trigger: (o) => o.triggerPrice ?? 0,
  average: (o) => o.averagePrice,
  status: (o) => o.status,
  message: (o) => o.statusMessage ?? '',
};

/**
 * Orders matching the status group and symbol text (case-insensitive substring), sorted.
 *
 * Ties fall back to the order id so the order of rows is stable between polls (rows that
 * jump about are misread).
 */
export function selectOrders(
  orders: readonly Order[],
  filter: { readonly group: StatusGroup; readonly symbol: string },
  sort: SortSpec,
): Order[] {
  const needle = filter.symbol.trim().toUpperCase();
  const out = orders.filter(
    (o) =>
      (filter.group === 'all' || GROUP_OF[o.status] === filter.group) && (!needle || o.tradingsymbol.includes(needle)),
  );
  const key = KEY[sort.column];
  const dir = sort.descending ? -1 : 1;
  out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return a.orderId < b.orderId ? -dir : a.orderId > b.orderId ? dir : 0;
  });
  return out;
}

/** A fingerprint of what a trader sees change on a row. */
function fingerprint(o: Order): string {
  return `${o.updatedAt}|${o.status}|${o.filledQuantity}|${o.quantity}|${o.price}|${o.triggerPrice}`;
}

/** The ids of orders that are new or changed between two polls (none on the first). */
export function changedOrderIds(previous: readonly Order[] | undefined, next: readonly Order[]): ReadonlySet<string> {
  const changed = new Set<string>();
  if (!previous) return changed;
  const before = new Map<string, string>();
  for (const o of previous) before.set(o.orderId, fingerprint(o));
  for (const o of next) if (before.get(o.orderId) !== fingerprint(o)) changed.add(o.orderId);
  return changed;
}
