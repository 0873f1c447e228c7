import type { Order } from '@shared/domain/order';
import type { PushedDelta } from '../core/orders/order-book';

/** Timers the batcher runs on (injected in tests). */
export interface BatchTimers {
  readonly set: (fn: () => void, ms: number) => unknown;
  readonly clear: (handle: unknown) => void;
}

const REAL_TIMERS: BatchTimers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** How long pushed order changes are gathered after one was sent at once. */
export const ORDERS_CHANGED_EVERY_MS = 50;

/**
 * Sends the order book's pushed deltas to the pages as few `orders.changed` events
 * (docs/live-data.md §The order book in main, "Deltas on the bridge"): the first change after
 * a quiet spell goes at once (a fill is not held back), the ones that follow within
 * `everyMs` go together as one delta, each order once in its latest state.
 *
 * Deltas are joined only while each follows on from the last (`from` = the previous `cursor`):
 * a change the book took from a poll in between is not in any push, and a joined delta that
 * claimed to cover it would move a page's cursor past a change it never got. So a gap, or
 * another book's delta, sends what was gathered first.
 */
export class OrdersChangedBatcher {
  readonly #send: (delta: PushedDelta) => void;
  readonly #everyMs: number;
  readonly #timers: BatchTimers;
  #gathered: { book: string; from: number; cursor: number; rows: Map<string, Order> } | null = null;
  #timer: unknown = null;

  public constructor(
    send: (delta: PushedDelta) => void,
    everyMs = ORDERS_CHANGED_EVERY_MS,
    timers: BatchTimers = REAL_TIMERS,
  ) {
    this.#send = send;
    this.#everyMs = everyMs;
    this.#timers = timers;
  }

  /** One pushed delta from the order book. */
  public push(delta: PushedDelta): void {
    if (this.#timer === null) {
      // Quiet until now: this one goes at once, and the window for those that follow opens.
      this.#send(delta);
      this.#timer = this.#timers.set(() => this.#tick(), this.#everyMs);
      return;
    }
    const g = this.#gathered;
    if (g && (g.book !== delta.book || g.cursor !== delta.from || delta.full || delta.removals.length > 0)) {
      this.#flush();
    }
    if (delta.full || delta.removals.length > 0) {
      this.#send(delta);
      return;
    }
    if (!this.#gathered) {
      this.#gathered = { book: delta.book, from: delta.from, cursor: delta.cursor, rows: new Map() };
    }
    const into = this.#gathered;
    into.cursor = delta.cursor;
    for (const o of delta.upserts) {
      into.rows.delete(o.orderId); // keep the rows in the order of their latest change
      into.rows.set(o.orderId, o);
    }
  }

  /** Sends what is gathered now and stops the timer (the services are closing). */
  public close(): void {
    this.#flush();
    if (this.#timer !== null) this.#timers.clear(this.#timer);
    this.#timer = null;
  }

  #tick(): void {
    if (this.#gathered) {
      this.#flush();
      this.#timer = this.#timers.set(() => this.#tick(), this.#everyMs);
    } else {
      this.#timer = null;
    }
  }

  #flush(): void {
    const g = this.#gathered;
    this.#gathered = null;
    if (!g) return;
    this.#send({
      book: g.book,
      from: g.from,
      cursor: g.cursor,
      full: false,
      upserts: [...g.rows.values()],
      removals: [],
    });
  }
}
