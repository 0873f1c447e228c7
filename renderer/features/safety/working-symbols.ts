import type { Exchange } from '@shared/domain/instrument';
import { isWorking, type Order } from '@shared/domain/order';
import type { OrderBookStore, OrderChange } from '../orders/order-book-store';

/** One symbol with working orders, and how many. */
export interface WorkingSymbol {
  /** `EXCHANGE:TRADINGSYMBOL`: the menu's option value, and its sort key. */
  readonly key: string;
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  readonly n: number;
}

/** The key an order's symbol is counted under while it works; null once it no longer works. */
function workingKey(o: Order | undefined): string | null {
  return o && isWorking(o.status) ? `${o.exchange}:${o.tradingsymbol}` : null;
}

/**
 * The symbols with working orders, and how many each (the blotter's "Cancel all…", docs/live-data.md
 * §The order book in main), followed one changed row at a time as `OrderView` follows the rows:
 * a change moves at most one count, so a book of 10,000 churning orders costs the menu its
 * changed rows, not a pass over the book on every render. The whole book is counted again only
 * when it was replaced, a page of it arrived, or changes were missed while detached. `read` hands
 * out the same array until a count changes, so the menu's options are rebuilt only then.
 */
export class WorkingSymbols {
  readonly #book: OrderBookStore;
  readonly #counts = new Map<string, { readonly exchange: Exchange; readonly tradingsymbol: string; n: number }>();
  #list: readonly WorkingSymbol[] = [];
  #pending: OrderChange[] = [];
  /** The book's version that the counts plus `#pending` reflect (-1: count again). */
  #seen = -1;

  public constructor(book: OrderBookStore) {
    this.#book = book;
  }

  /** Follows the book's changes, telling `changed` after each batch (`useSyncExternalStore`'s subscribe); returns the detach. */
  public attach(changed: () => void = () => undefined): () => void {
    return this.#book.subscribe((changes, how) => {
      if (how !== 'merge' || this.#seen !== this.#book.version - 1) {
        this.#seen = -1;
        this.#pending = [];
      } else {
        this.#pending.push(...changes);
        this.#seen = this.#book.version;
      }
      changed();
    });
  }

  /** The symbols with working orders now, sorted by exchange and symbol; the same array while no count changed. */
  public read(): readonly WorkingSymbol[] {
    if (this.#seen !== this.#book.version) {
      this.#counts.clear();
      for (const o of this.#book.list()) this.#add(o, 1);
      this.#seen = this.#book.version;
      this.#pending = [];
      this.#list = this.#sorted();
    } else if (this.#pending.length > 0) {
      let moved = false;
      for (const { prev, next } of this.#pending) {
        if (workingKey(prev) === workingKey(next)) continue; // a modify, a partial fill: no count moves
        this.#add(prev, -1);
        this.#add(next, 1);
        moved = true;
      }
      this.#pending = [];
      if (moved) this.#list = this.#sorted();
    }
    return this.#list;
  }

  #add(o: Order | undefined, by: 1 | -1): void {
    const key = workingKey(o);
    if (!o || key === null) return;
    const c = this.#counts.get(key);
    if (c) c.n += by;
    else if (by > 0) this.#counts.set(key, { exchange: o.exchange, tradingsymbol: o.tradingsymbol, n: 1 });
    if (c && c.n <= 0) this.#counts.delete(key);
  }

  #sorted(): WorkingSymbol[] {
    return [...this.#counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, c]) => ({ key, exchange: c.exchange, tradingsymbol: c.tradingsymbol, n: c.n }));
  }
}
