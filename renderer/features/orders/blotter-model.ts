import type { Order, OrderStatus } from '@shared/domain/order';
import type { OrderBookStore, OrderChange } from './order-book-store';

/**
 * The blotter's filtering and sorting, without React, so 10,000-row behaviour is unit-testable:
 * a full pass when the filter or sort changes, one row per change otherwise.
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

/** The blotter's filter: a status group and symbol text (case-insensitive substring). */
export interface OrderFilter {
  readonly group: StatusGroup;
  readonly symbol: string;
}

/** True when the order passes the filter (`needle`: the symbol text, trimmed and upper-cased). */
function passes(o: Order, group: StatusGroup, needle: string): boolean {
  return (group === 'all' || GROUP_OF[o.status] === group) && (!needle || o.tradingsymbol.includes(needle));
}

/**
 * The blotter's row order: the sort column, then the order id, so the order is total and rows
 * stay put between polls (rows that jump about are misread) and a row can be found by binary search.
 */
export function orderComparator(sort: SortSpec): (a: Order, b: Order) => number {
  const key = KEY[sort.column];
  const dir = sort.descending ? -1 : 1;
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return a.orderId < b.orderId ? -dir : a.orderId > b.orderId ? dir : 0;
  };
}

/** Orders matching the status group and symbol text, sorted (the whole list in one pass). */
export function selectOrders(orders: readonly Order[], filter: OrderFilter, sort: SortSpec): Order[] {
  const needle = filter.symbol.trim().toUpperCase();
  return orders.filter((o) => passes(o, filter.group, needle)).sort(orderComparator(sort));
}

/** The first index whose row sorts at or after `o` (binary search). */
function lowerBound(rows: readonly Order[], o: Order, cmp: (a: Order, b: Order) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(rows[mid] as Order, o) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Applies changed rows to a sorted, filtered list: each leaves its old place (found by binary
 * search) and, if it still passes the filter, enters its new one — one change costs one row and
 * two searches, not a re-sort of the book. Returns a new array (the old one is left as it was).
 */
export function applyToView(
  rows: readonly Order[],
  changes: readonly OrderChange[],
  filter: OrderFilter,
  sort: SortSpec,
): Order[] {
  const out = rows.slice();
  const cmp = orderComparator(sort);
  const needle = filter.symbol.trim().toUpperCase();
  for (const { prev, next } of changes) {
    if (prev && passes(prev, filter.group, needle)) {
      let at = lowerBound(out, prev, cmp);
      if (out[at]?.orderId !== prev.orderId) at = out.findIndex((o) => o.orderId === prev.orderId);
      if (at >= 0) out.splice(at, 1);
    }
    if (next && passes(next, filter.group, needle)) out.splice(lowerBound(out, next, cmp), 0, next);
  }
  return out;
}

/**
 * The blotter's sorted, filtered rows derived incrementally from the page's order book
 * (docs/live-data.md §The order book in main): changes the book reports are applied with
 * `applyToView`; the whole list is sorted again only when the filter or sort changes, the book
 * was replaced, or changes were missed while detached. `changed` (the rows to flash) is the ids of
 * the last batch applied.
 */
export class OrderView {
  readonly #book: OrderBookStore;
  #rows: Order[] = [];
  #pending: OrderChange[] = [];
  /** The book's version that `#rows` plus `#pending` reflect (-1: derive again). */
  #seen = -1;
  #filter: OrderFilter | null = null;
  #sort: SortSpec | null = null;
  #changed: ReadonlySet<string> = new Set();

  public constructor(book: OrderBookStore) {
    this.#book = book;
  }

  /** Follows the book's changes (call from an effect); returns the detach. */
  public attach(): () => void {
    return this.#book.subscribe((changes, how) => {
      // A reset or a page of a book still loading: derive again (one sort, not a splice per row).
      if (how !== 'merge' || this.#seen !== this.#book.version - 1) {
        this.#seen = -1;
        this.#pending = [];
        return;
      }
      this.#pending.push(...changes);
      this.#seen = this.#book.version;
    });
  }

  /** The rows for this filter and sort now, and the ids changed by the last batch applied. */
  public read(filter: OrderFilter, sort: SortSpec): { rows: Order[]; changed: ReadonlySet<string> } {
    const same =
      this.#filter?.group === filter.group &&
      this.#filter.symbol === filter.symbol &&
      this.#sort?.column === sort.column &&
      this.#sort.descending === sort.descending;
    if (!same || this.#seen !== this.#book.version) {
      this.#rows = selectOrders(this.#book.list(), filter, sort);
      this.#changed = new Set();
      this.#filter = filter;
      this.#sort = sort;
      this.#pending = [];
      this.#seen = this.#book.version;
    } else if (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      this.#rows = applyToView(this.#rows, batch, filter, sort);
      this.#changed = new Set(batch.flatMap((c) => (c.next ? [c.next.orderId] : [])));
    }
    return { rows: this.#rows, changed: this.#changed };
  }
}
