import { isWorking, type Order } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { KnownPositions, type KnownAccount, type KnownPosition, type PositionKey } from './known-positions';
import type { OrderBook } from './orders/order-book';

/** How long a streamed price, or a positions read's prices, stand for "now" (the risk guard's tick age). */
export const FRESH_PRICE_MS = 10_000;

/** A book read this recently stands for the broker's order book even without the stream. */
export const FRESH_BOOK_MS = 5_000;

/** What the view is built on: main's order book, the stream's state and its last ticks. */
export interface DeskViewDeps {
  readonly book: Pick<OrderBook, 'completeAsOf' | 'lastFillRev' | 'cursor' | 'orders'>;
  /** The stream is open now (pushes reach the book). */
  readonly streamOpen: () => boolean;
  /** The last streamed price of an instrument and when it came (epoch ms). */
  readonly lastTick: (instrumentToken: number) => { readonly price: number; readonly at: number } | undefined;
  /** Epoch ms. */
  readonly now: () => number;
}

/**
 * Main's own view of the account (docs/live-data.md §Main's own view of the account): what
 * the kill switch and the risk guard use instead of asking the broker, where it is fresh, so a
 * safety action or a click never waits behind the panels' reads (or their 429 pause).
 *
 * - The **order book** is fresh while the stream is open and a read has filled every gap since
 *   it last came back (every change since is pushed), or when it was read in full moments ago.
 * - **Known positions** (`known`): per instrument and product, the last complete positions read
 *   plus every fill seen since, with the time they are known to, or unknown with a since-when
 *   (`known-positions.ts`). What sizes an exit and says whether the account is flat.
 * - **Positions** (with their P&L) are the last read's, while the book is fresh and shows no fill
 *   after that read began: their quantities are then still exact. Their P&L moves with prices, so
 *   for a figure that needs it each open position is repriced from a fresh tick, or the read must
 *   be recent.
 * - A **price** is the stream's last tick, if recent.
 *
 * Whatever is not fresh is null: the caller reads the broker, in the order-action lane.
 */
export class DeskView {
  readonly #deps: DeskViewDeps;
  /** The book's change number when the kept read began: a fill numbered after it is not in the read. */
  #readRev = 0;
  /** Main's known position per instrument and product: the one source of it (docs/live-data.md §Main's own view of the account). */
  public readonly known: KnownPositions;

  public constructor(deps: DeskViewDeps) {
    this.#deps = deps;
    this.known = new KnownPositions({
      bookCompleteAsOf: () => deps.book.completeAsOf(),
      streamOpen: deps.streamOpen,
      now: deps.now,
    });
  }

  /** A positions read that began at `at` with the book at change `rev` (every read of them reports here). */
  public notePositions(positions: readonly Position[], at: number, rev: number): void {
    const kept = this.known.lastRead();
    if (kept && kept.at > at) return;
    this.#readRev = rev;
    this.known.noteRead(positions, at);
  }

  /** An order as a read or the stream reported it: its fills count towards the known positions. */
  public noteOrder(order: Order): void {
    this.known.noteOrder(order);
  }

  /** One position's net quantity as main knows it now, or unknown since when. */
  public knownPosition(key: PositionKey): KnownPosition {
    return this.known.position(key);
  }

  /** Every position as main knows it now, and whether the whole account is known. */
  public knownAccount(): KnownAccount {
    return this.known.account();
  }

  /** The book's change number now (a positions read records it as it starts). */
  public bookRev(): number {
    return this.#deps.book.cursor();
  }

  /** Whether the stream is open now: every order change reaches main's book as it happens. */
  public streamOpen(): boolean {
    return this.#deps.streamOpen();
  }

  /** Whether main's order book holds every order the broker has now. */
  public bookFresh(): boolean {
    const complete = this.#deps.book.completeAsOf();
    if (complete === null) return false;
    return this.#deps.streamOpen() || this.#deps.now() - complete <= FRESH_BOOK_MS;
  }

  /** Every order of the session, from main's book when it is fresh; else null. */
  public orders(): Order[] | null {
    return this.bookFresh() ? this.#deps.book.orders() : null;
  }

  /** The working orders, from main's book when it is fresh; else null. */
  public workingOrders(): Order[] | null {
    return this.orders()?.filter((o) => isWorking(o.status)) ?? null;
  }

  /** Positions whose quantities are exact now (prices as last read); null when not known to be. */
  public positions(): readonly Position[] | null {
    const read = this.known.lastRead();
    if (!read || !this.bookFresh() || this.#deps.book.lastFillRev() > this.#readRev) return null;
    return read.positions;
  }

  /**
   * Positions with today's P&L as of now: `positions()` with each open one repriced from a fresh
   * tick (m2m moves by quantity × multiplier × the price's move), or as read if the read is
   * itself fresh; null when one of them has no fresh price.
   */
  public pricedPositions(): readonly Position[] | null {
    const list = this.positions();
    const read = this.known.lastRead();
    if (!list || !read) return null;
    const readFresh = this.#deps.now() - read.at <= FRESH_PRICE_MS;
    const out: Position[] = [];
    for (const p of list) {
      const price = p.quantity === 0 ? null : this.lastPrice(p.instrumentToken);
      if (price === null) {
        if (p.quantity !== 0 && !readFresh) return null;
        out.push(p);
        continue;
      }
      const move = (price - p.lastPrice) * p.quantity * p.multiplier;
      out.push({ ...p, lastPrice: price, m2m: p.m2m + move, unrealisedPnl: p.unrealisedPnl + move, pnl: p.pnl + move });
    }
    return out;
  }

  /** The stream's last price of an instrument if it came within `FRESH_PRICE_MS`; else null. */
  public lastPrice(instrumentToken: number): number | null {
    const tick = this.#deps.lastTick(instrumentToken);
    return tick && tick.price > 0 && this.#deps.now() - tick.at <= FRESH_PRICE_MS ? tick.price : null;
  }
}
