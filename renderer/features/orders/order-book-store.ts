import type { QueryClient } from '@tanstack/react-query';
import type { Order, OrderBookDelta } from '@shared/domain/order';
import { supersedes } from '@shared/trading/order-recency';

/** One row's change: what was held before (absent: new) and what is held now (absent: removed). */
export interface OrderChange {
  readonly prev: Order | undefined;
  readonly next: Order | undefined;
}

/** Told of each batch of changes as it is applied; `reset` means everything was replaced. */
export type OrderBookListener = (changes: readonly OrderChange[], reset: boolean) => void;

/**
 * The page's copy of main's order book (docs/architecture.md §The order book in main), by id.
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

  /** Subscribes to applied changes; returns the unsubscribe. */
  public subscribe(listener: OrderBookListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** An `orders.sync` answer: replaces everything when `full` or from another book, else merges. */
  public applySync(delta: OrderBookDelta): void {
    if (delta.full || delta.book !== this.#book) {
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

  #replace(delta: OrderBookDelta): void {
    this.#byId.clear();
    for (const o of delta.upserts) this.#byId.set(o.orderId, o);
    this.#book = delta.book;
    this.#cursor = delta.cursor;
    this.#changed([], true);
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
    if (changes.length > 0) this.#changed(changes, false);
    return changes.length > 0;
  }

  #changed(changes: readonly OrderChange[], reset: boolean): void {
    this.#list = null;
    this.#version += 1;
    for (const l of this.#listeners) l(changes, reset);
  }
}

const stores = new WeakMap<QueryClient, OrderBookStore>();

/** The order book of this query client (one per app; tests get a fresh one with each client). */
export function orderBookOf(client: QueryClient): OrderBookStore {
  let s = stores.get(client);
  if (!s) stores.set(client, (s = new OrderBookStore()));
  return s;
}
