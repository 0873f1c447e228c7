import { randomBytes } from 'node:crypto';
import type { Order, OrderBookDelta, OrderPage, OrderPageKey, OrderSyncAnswer } from '@shared/domain/order';
import { newestFirst, pageKeyOf } from '@shared/trading/order-page';
import { supersedes } from '@shared/trading/order-recency';
import type { Broker } from '../../broker/broker';

/** What the book reads the broker with: the whole list always, a change cursor where the broker has one. */
export type OrderSource = Pick<Broker, 'listOrders' | 'listOrdersSince'>;

/** A delta pushed to the page, with the cursor it follows on from (docs/live-data.md §The order book in main). */
export interface PushedDelta extends OrderBookDelta {
  readonly from: number;
}

/** Knobs of the book. */
export interface OrderBookOptions {
  /** Milliseconds, for the full reconcile's pace (injected in tests). */
  readonly clock?: () => number;
  /** A full read at least this often even when the broker has a cursor (default 60 s). */
  readonly fullEveryMs?: number;
  /** Told of every change a push made (the stream), as a delta. */
  readonly onPush?: (delta: PushedDelta) => void;
  /** Told every report the book took, pushed or read (main's brackets follow their orders by it). */
  readonly onTake?: (order: Order) => void;
}

interface Row {
  order: Order;
  /** The book's change number when this row last changed. */
  rev: number;
}

/** Removed rows are remembered this long (in changes) so a page behind by less still hears of them. */
const TOMBSTONES = 10_000;

/**
 * Main's order book (docs/live-data.md §The order book in main): every order of the
 * session by id, fed by two sources that race — the stream's order pushes, applied at once, and
 * reads of the broker (since its change cursor where it has one, else the whole list at the
 * polling pace; a whole list also at a slow pace and after every reconnect). A report never
 * replaces a later one (`supersedes`), so a slow poll cannot move a row backwards.
 *
 * Every change gets the book's next change number; the page asks for what changed after the
 * number it holds and is sent only that, so one changed order costs one row on the bridge.
 */
export class OrderBook {
  /** Names this book in cursors: a page holding another book's cursor gets a full answer. */
  public readonly id = randomBytes(6).toString('hex');
  readonly #rows = new Map<string, Row>();
  readonly #gone = new Map<string, number>();
  /** Changes at or below this may have lost their tombstones: a cursor under it gets a full answer. */
  #floor = 0;
  #rev = 0;
  #brokerCursor: string | null = null;
  #fullDue = true;
  #lastFullAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<void> | null = null;
  /** A whole-list read from a broker with a change cursor is on its way. */
  #fullFromCursorBroker = false;
  /**
   * When the last read that succeeded began (the book held everything the broker had then), or
   * null since the stream last came back (what it missed is not in the book until a read).
   */
  #completeAsOf: number | null = null;
  /** The change number of the last report that showed more filled than the book held. */
  #lastFillRev = 0;
  #reconnects = 0;
  /** Rows newest first, rebuilt only when an order came or went (an update keeps its place). */
  #newest: Row[] | null = null;
  readonly #source: OrderSource;
  readonly #clock: () => number;
  readonly #fullEveryMs: number;
  readonly #onPush: ((delta: PushedDelta) => void) | undefined;
  readonly #onTake: ((order: Order) => void) | undefined;

  public constructor(source: OrderSource, options: OrderBookOptions = {}) {
    this.#source = source;
    this.#clock = options.clock ?? Date.now;
    this.#fullEveryMs = options.fullEveryMs ?? 60_000;
    this.#onPush = options.onPush;
    this.#onTake = options.onTake;
  }

  /** The book's latest change number. */
  public cursor(): number {
    return this.#rev;
  }

  /** Orders held now, by id. */
  public order(orderId: string): Order | undefined {
    return this.#rows.get(orderId)?.order;
  }

  /** Every order held now. */
  public orders(): Order[] {
    return [...this.#rows.values()].map((r) => r.order);
  }

  /** How many orders are held. */
  public size(): number {
    return this.#rows.size;
  }

  /**
   * A pushed order (the stream): taken at once unless the book holds a later report of it.
   * True when it changed the book (then `onPush` was told).
   */
  public push(order: Order): boolean {
    const from = this.#rev;
    if (!this.#take(order)) return false;
    this.#onPush?.({ book: this.id, from, cursor: this.#rev, full: false, upserts: [order], removals: [] });
    return true;
  }

  /**
   * The stream came back: what it missed while down is read in full at the next sync — unless a
   * full read from a broker with a change cursor is already on its way (the read at login, which
   * the stream's first open always meets). Its list and what changed after its cursor, read at
   * the next sync, hold everything the stream missed, so the page's first sync does not wait for
   * a second whole book (docs/live-data.md §The first screen first). A broker without a cursor
   * is read in full at every sync anyway.
   */
  public reconnected(): void {
    this.#completeAsOf = null;
    this.#reconnects += 1;
    if (this.#fullFromCursorBroker) return;
    this.#fullDue = true;
  }

  /**
   * When the book last held everything the broker had (the start of the last read that
   * succeeded), or null when the stream came back since and no read has filled the gap. With the
   * stream open after that moment, every change since has been pushed: the book is live
   * (docs/live-data.md §Main's own view of the account).
   */
  public completeAsOf(): number | null {
    return this.#completeAsOf;
  }

  /** The change number of the latest fill the book has seen (0 before any). */
  public lastFillRev(): number {
    return this.#lastFillRev;
  }

  /**
   * Brings the book up to date with the broker: since its cursor, or the whole list (the first
   * time, after a reconnect, once per `fullEveryMs`, and always for a broker without a cursor).
   * Concurrent calls share one read.
   */
  public sync(): Promise<void> {
    this.#reading ??= this.#read().finally(() => (this.#reading = null));
    return this.#reading;
  }

  /**
   * Brings the book up to date and complete, ahead of the pages (the stream just opened): a
   * read, and one more since its cursor when the read shared was on its way before the stream
   * opened (the login's), which alone cannot say the book is complete. The book is then fresh
   * before a window asks, and every window's first sync is answered from it (docs/live-data.md
   * §The first screen first).
   */
  public async warm(): Promise<void> {
    await this.sync();
    if (this.#completeAsOf === null) await this.sync();
  }

  /**
   * Whether a page holding cursor `since` of book `book` gets everything (`full`): it holds no
   * cursor (a window opening, a reload), another book's, or one older than the removals remembered.
   */
  public answersFull(book: string | undefined, since: number | undefined): boolean {
    return book !== this.id || since === undefined || since > this.#rev || since < this.#floor;
  }

  /**
   * What changed after `since` in book `book`: only those rows and removals, or everything
   * (`full`) when the page holds no cursor, another book's, or one older than what is remembered.
   * With `first`, a full answer carries only the newest `first` rows, the count held and where
   * `page` continues (docs/live-data.md §The first screen first).
   */
  public changesSince(book: string | undefined, since: number | undefined, first?: number): OrderSyncAnswer {
    const full = this.answersFull(book, since);
    const upserts: Order[] = [];
    const removals: string[] = [];
    if (full && first !== undefined && this.#rows.size > first) {
      const rows = this.#newestRows();
      for (let i = 0; i < first; i += 1) upserts.push((rows[i] as Row).order);
      const next = pageKeyOf(upserts[upserts.length - 1] as Order);
      return { book: this.id, cursor: this.#rev, full, upserts, removals, total: rows.length, next };
    }
    if (full) {
      for (const r of this.#rows.values()) upserts.push(r.order);
    } else if (since !== undefined && since < this.#rev) {
      for (const r of this.#rows.values()) if (r.rev > since) upserts.push(r.order);
      for (const [id, rev] of this.#gone) if (rev > since) removals.push(id);
    }
    return { book: this.id, cursor: this.#rev, full, upserts, removals };
  }

  /**
   * Up to `limit` orders after `after` in newest-first order, as held now. A page of another
   * book (the page's first answer came from an earlier login) is empty and names this book, so
   * the page syncs afresh. Rows that change while a page loads the rest reach it as deltas too.
   */
  public page(book: string, after: OrderPageKey, limit: number): OrderPage {
    if (book !== this.id) return { book: this.id, orders: [], next: null };
    const rows = this.#newestRows();
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newestFirst((rows[mid] as Row).order, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const orders = rows.slice(lo, lo + limit).map((r) => r.order);
    const last = orders[orders.length - 1];
    return { book: this.id, orders, next: last && lo + limit < rows.length ? pageKeyOf(last) : null };
  }

  #newestRows(): Row[] {
    this.#newest ??= [...this.#rows.values()].sort((a, b) => newestFirst(a.order, b.order));
    return this.#newest;
  }

  async #read(): Promise<void> {
    const now = this.#clock();
    const reconnects = this.#reconnects;
    await this.#readOnce(now);
    // A reconnect while the read was on its way opened a gap this read may not cover.
    if (this.#reconnects === reconnects) this.#completeAsOf = now;
  }

  async #readOnce(now: number): Promise<void> {
    const since = this.#source.listOrdersSince?.bind(this.#source);
    const wantFull = this.#fullDue || this.#brokerCursor === null || now - this.#lastFullAt >= this.#fullEveryMs;
    const startedAt = this.#rev;
    if (since && !wantFull) {
      const page = await since(this.#brokerCursor);
      if (page.full) this.#reconcile(page.orders, startedAt, now);
      else for (const o of page.orders) this.#take(o);
      this.#brokerCursor = page.cursor;
      return;
    }
    this.#fullDue = false;
    try {
      if (since) {
        this.#fullFromCursorBroker = true;
        const page = await since(null);
        this.#reconcile(page.orders, startedAt, now);
        this.#brokerCursor = page.cursor;
      } else {
        this.#reconcile(await this.#source.listOrders(), startedAt, now);
      }
    } catch (err) {
      this.#fullDue = true;
      throw err;
    } finally {
      this.#fullFromCursorBroker = false;
    }
  }

  /**
   * A whole list: each order taken unless the book holds a later report, and each order the
   * list lacks removed — unless it changed after the read began (a push of an order placed
   * while the list was on its way).
   */
  #reconcile(orders: readonly Order[], startedAt: number, now: number): void {
    const listed = new Set<string>();
    for (const o of orders) {
      listed.add(o.orderId);
      this.#take(o);
    }
    for (const [id, row] of this.#rows) {
      if (listed.has(id) || row.rev > startedAt) continue;
      this.#rows.delete(id);
      this.#newest = null;
      this.#rev += 1;
      this.#gone.set(id, this.#rev);
    }
    while (this.#gone.size > TOMBSTONES) {
      const oldest = this.#gone.entries().next().value;
      if (!oldest) break;
      this.#gone.delete(oldest[0]);
      this.#floor = oldest[1];
    }
    this.#lastFullAt = now;
  }

  /** Takes one report if it supersedes what is held; true when the book changed. */
  #take(order: Order): boolean {
    const held = this.#rows.get(order.orderId);
    if (held && !supersedes(order, held.order)) return false;
    this.#rev += 1;
    if (order.filledQuantity > (held?.order.filledQuantity ?? 0)) this.#lastFillRev = this.#rev;
    if (held) {
      if (held.order.placedAt !== order.placedAt) this.#newest = null;
      held.order = order;
      held.rev = this.#rev;
    } else {
      this.#newest = null;
      this.#rows.set(order.orderId, { order, rev: this.#rev });
      this.#gone.delete(order.orderId);
    }
    this.#onTake?.(order);
    return true;
  }
}
