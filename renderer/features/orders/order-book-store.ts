import type { QueryClient } from '@tanstack/react-query';
import type { Order, OrderBookDelta, OrderPage, OrderPageKey, OrderSyncAnswer } from '@shared/domain/order';
import { supersedes } from '@shared/trading/order-recency';

/** One row's change: what was held before (absent: new) and what is held now (absent: removed). */
export interface OrderChange {
  readonly prev: Order | undefined;
  readonly next: Order | undefined;
}

/**
 * How a batch came: `merge` (the rows changed), `reset` (everything was replaced), or `page`
 * (more of a book still loading: rows that existed before the first page, not changes).
 */
export type OrderBookBatch = 'merge' | 'reset' | 'page';

/** Told of each batch as it is applied, with the changed rows (none for `reset` and `page`). */
export type OrderBookListener = (changes: readonly OrderChange[], how: OrderBookBatch) => void;

/** A book still loading: how many orders main held at the first page, and where the rest continues. */
export interface OrderBookLoading {
  readonly total: number;
  readonly next: OrderPageKey;
}

/**
 * The page's copy of main's order book (docs/live-data.md §The order book in main), by id.
 *
 * Main sends only what changed after the cursor the page holds, so one changed order costs one
 * row here, not a re-read of the whole book. Deltas are applied with the same recency rule main
 * uses (`supersedes`): an `orders.changed` event that arrives after a newer `orders.sync`
 * answer cannot undo it. The flat list react-query hands to the panels is rebuilt only when
 * something changed, and listeners (the blotter's sorted view, notifications) get the changed
 * rows themselves.
 */
export class OrderBookStore {
  readonly #byId = new Map<string, Order>();
  readonly #listeners = new Set<OrderBookListener>();
  #book: string | null = null;
  #cursor: number | null = null;
  #list: Order[] | null = [];
  #loading: OrderBookLoading | null = null;
  /** Grows with every batch that changed something; a view compares it with what it derived from. */
  #version = 0;

  /** What `orders.sync` needs to answer only what the page lacks. */
  public syncInput(): { book?: string; since?: number } {
    return this.#book !== null && this.#cursor !== null ? { book: this.#book, since: this.#cursor } : {};
  }

  /** Grows with every change (a full reload included). */
  public get version(): number {
    return this.#version;
  }

  /** Every order held, in no particular order; the same array until something changes. */
  public list(): Order[] {
    this.#list ??= [...this.#byId.values()];
    return this.#list;
  }

  /** The order held under this id. */
  public get(orderId: string): Order | undefined {
    return this.#byId.get(orderId);
  }

  /**
   * Null once every order is held; while the rest of a paged answer loads, what is held and of
   * how many (docs/live-data.md §The first screen first) — a count or a CSV of a partial book
   * would be wrong.
   */
  public progress(): { held: number; total: number } | null {
    if (!this.#loading) return null;
    return { held: this.#byId.size, total: Math.max(this.#loading.total, this.#byId.size) };
  }

  /** What `orders.page` needs next, while loading. */
  public pageInput(): { book: string; after: OrderPageKey } | null {
    return this.#loading && this.#book !== null ? { book: this.#book, after: this.#loading.next } : null;
  }

  /** Subscribes to applied changes; returns the unsubscribe. */
  public subscribe(listener: OrderBookListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * An `orders.sync` answer: replaces everything when `full` or from another book (then, with
   * `next`, only the first page is held and the rest is to load), else merges.
   */
  public applySync(delta: OrderSyncAnswer): void {
    if (delta.full || delta.book !== this.#book) {
      this.#loading = delta.next ? { total: delta.total ?? delta.upserts.length, next: delta.next } : null;
      this.#replace(delta);
      return;
    }
    this.#merge(delta);
    if (this.#cursor === null || delta.cursor > this.#cursor) this.#cursor = delta.cursor;
  }

  /**
   * An `orders.changed` event: its rows are merged (never over later ones); the cursor moves only
   * when the event follows on from it, so a gap is filled by the next sync. An event of another
   * book (an earlier login's) is dropped.
   */
  public applyPushed(delta: OrderBookDelta & { readonly from: number }): boolean {
    if (delta.book !== this.#book || this.#cursor === null) return false;
    const changed = this.#merge(delta);
    if (delta.from <= this.#cursor && delta.cursor > this.#cursor) this.#cursor = delta.cursor;
    return changed;
  }

  /**
   * The next page of the book loading: its rows are taken unless a later report is held (a push
   * or sync since the first page carried it), and `next` moves on. False when it is not the page
   * this book waits for (another book's, or the book is no longer loading): the caller syncs afresh.
   */
  public applyPage(page: OrderPage, after: OrderPageKey): boolean {
    const loading = this.#loading;
    if (!loading || page.book !== this.#book || loading.next.orderId !== after.orderId) return false;
    for (const o of page.orders) {
      const prev = this.#byId.get(o.orderId);
      if (prev && !supersedes(o, prev)) continue;
      this.#byId.set(o.orderId, o);
    }
    this.#loading = page.next ? { total: loading.total, next: page.next } : null;
    this.#changed([], 'page');
    return true;
  }

  #replace(delta: OrderBookDelta): void {
    this.#byId.clear();
    for (const o of delta.upserts) this.#byId.set(o.orderId, o);
    this.#book = delta.book;
    this.#cursor = delta.cursor;
    this.#changed([], 'reset');
  }

  #merge(delta: OrderBookDelta): boolean {
    const changes: OrderChange[] = [];
    for (const o of delta.upserts) {
      const prev = this.#byId.get(o.orderId);
      if (prev && !supersedes(o, prev)) continue;
      this.#byId.set(o.orderId, o);
      changes.push({ prev, next: o });
    }
    for (const id of delta.removals) {
      const prev = this.#byId.get(id);
      if (!prev) continue;
      this.#byId.delete(id);
      changes.push({ prev, next: undefined });
    }
    if (changes.length > 0) this.#changed(changes, 'merge');
    return changes.length > 0;
  }

  #changed(changes: readonly OrderChange[], how: OrderBookBatch): void {
    this.#list = null;
    this.#version += 1;
    for (const l of this.#listeners) l(changes, how);
  }
}

const stores = new WeakMap<QueryClient, OrderBookStore>();

/** The order book of this query client (one per app; tests get a fresh one with each client). */
export function orderBookOf(client: QueryClient): OrderBookStore {
  let s = stores.get(client);
  if (!s) stores.set(client, (s = new OrderBookStore()));
  return s;
}
