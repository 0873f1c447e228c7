import type { Exchange } from '@shared/domain/instrument';
import type { Order, Product } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';

/** A position's identity within one account: what the broker nets a position by. */
export interface PositionKey {
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  readonly product: Product;
}

/** A position main knows: its net quantity as of `asOf` (docs/live-data.md §Main's own view of the account). */
export interface KnownQuantity extends PositionKey {
  readonly known: true;
  readonly instrumentToken: number;
  /** Net quantity: positive long, negative short, 0 flat. */
  readonly quantity: number;
  /** Epoch ms up to which every fill is counted (`now` while the book is live). */
  readonly asOf: number;
  /** True while the book is live (complete, stream open): `asOf` is now, and stays now. */
  readonly live: boolean;
}

/** A position main does not know: never read as zero. */
export interface UnknownQuantity extends PositionKey {
  readonly known: false;
  readonly instrumentToken: number | null;
  /** Epoch ms since which it has not been known. */
  readonly since: number;
  /** Why, in words a trader reads ("no positions read yet", "a fill after the last read…"). */
  readonly why: string;
}

export type KnownPosition = KnownQuantity | UnknownQuantity;

/** Every position of the account as main knows it. */
export interface KnownAccount {
  /** True when every position is known (then `positions` holds every one that is not flat, and flat ones seen). */
  readonly known: boolean;
  /** Epoch ms up to which the whole account is known (null while not known). */
  readonly asOf: number | null;
  /** While not known: since when (epoch ms). */
  readonly since: number | null;
  /** Each position main has heard of: known ones, and the unknown ones. */
  readonly positions: readonly KnownPosition[];
}

/** What the knowledge is built on: the order book's completeness and the stream. */
export interface KnownPositionsDeps {
  /** When main's order book last held every order the broker had (null since the stream came back and no read). */
  readonly bookCompleteAsOf: () => number | null;
  /** The stream is open now (every order change since `bookCompleteAsOf` is pushed to the book). */
  readonly streamOpen: () => boolean;
  /** Epoch ms. */
  readonly now: () => number;
}

interface ReadRow {
  readonly instrumentToken: number;
  readonly quantity: number;
  readonly dayBuy: number;
  readonly daySell: number;
}

interface Read {
  /** When the read began. */
  readonly at: number;
  readonly rows: ReadonlyMap<string, ReadRow>;
  readonly positions: readonly Position[];
}

interface Sums {
  instrumentToken: number;
  buy: number;
  sell: number;
  /** When the latest fill on this position was first seen (main's clock). */
  lastFillSeenAt: number;
  /** That fill's price (the price of what the order filled since main last saw it). */
  lastFillPrice: number;
}

interface SeenOrder {
  readonly key: string;
  readonly side: 'BUY' | 'SELL';
  filled: number;
  /** The order's average price when main last saw its fills grow. */
  averagePrice: number;
}

export function positionKey(k: PositionKey): string {
  return `${k.exchange}:${k.tradingsymbol}:${k.product}`;
}

/**
 * The price of what an order filled since it was last seen, from its average before and after;
 * the average itself for its first fills, or when the two do not give a price (0 when none).
 */
function newFillsPrice(avgBefore: number, before: number, avgAfter: number, after: number): number {
  if (before > 0 && avgBefore > 0) {
    const price = (avgAfter * after - avgBefore * before) / (after - before);
    if (Number.isFinite(price) && price > 0) return price;
  }
  return avgAfter > 0 ? avgAfter : 0;
}

function keyParts(key: string): PositionKey {
  const [exchange, tradingsymbol, product] = key.split(':') as [Exchange, string, Product];
  return { exchange, tradingsymbol, product };
}

/**
 * Main's known position per instrument and product (docs/live-data.md §Main's own view of the
 * account): the last complete positions read plus every fill seen since (the stream's order
 * updates and every read of orders), with the time it is known to. Unknown is a state with a
 * since-when, never zero.
 *
 * Fills only grow within a day, so both sources are lower bounds of each side's day quantity:
 * the read's day buys and sells, and the sum of what main has seen filled on the day's orders.
 * While the book holds every order (it was complete and the stream has stayed open since, or it
 * was complete after the read began), the larger of the two is exact, with no double count of a
 * fill the read already held and none lost for an order placed outside the desk. Otherwise the
 * read stands alone, and a position with a fill seen after the read began is unknown from then
 * until the next read.
 */
export class KnownPositions {
  readonly #deps: KnownPositionsDeps;
  #read: Read | null = null;
  /** Since when no read has been made (construction), for the unknown state's since-when. */
  readonly #unknownSince: number;
  /** The first failed read since the last that succeeded (null while reads succeed). */
  #failingSince: number | null = null;
  readonly #orders = new Map<string, SeenOrder>();
  readonly #sums = new Map<string, Sums>();
  readonly #listeners = new Set<() => void>();

  public constructor(deps: KnownPositionsDeps) {
    this.#deps = deps;
    this.#unknownSince = deps.now();
  }

  /** A complete positions read that began at `at` (every read of positions reports here). */
  public noteRead(positions: readonly Position[], at: number): void {
    this.#failingSince = null;
    if (this.#read && this.#read.at > at) return;
    const rows = new Map<string, ReadRow>();
    for (const p of positions) {
      rows.set(positionKey(p), {
        instrumentToken: p.instrumentToken,
        quantity: p.quantity,
        dayBuy: p.dayBuyQuantity,
        daySell: p.daySellQuantity,
      });
    }
    this.#read = { at, rows, positions };
    this.#changed();
  }

  /** A positions read that failed at `at` (a 429, the broker down): what "not readable for…" counts from. */
  public noteReadFailed(at: number): void {
    if (this.#failingSince === null) this.#failingSince = at;
  }

  /** Since when positions reads have been failing (null when the last one succeeded or none failed). */
  public readFailingSince(): number | null {
    return this.#failingSince;
  }

  /** An order as any source reported it (stream push, book read, a direct read): its fills are counted once. */
  public noteOrder(order: Order): void {
    const key = positionKey(order);
    const seen = this.#orders.get(order.orderId);
    const before = seen?.filled ?? 0;
    if (order.filledQuantity <= before) return;
    const price = newFillsPrice(seen?.averagePrice ?? 0, before, order.averagePrice, order.filledQuantity);
    if (seen) {
      seen.filled = order.filledQuantity;
      seen.averagePrice = order.averagePrice;
    } else
      this.#orders.set(order.orderId, {
        key,
        side: order.transactionType,
        filled: order.filledQuantity,
        averagePrice: order.averagePrice,
      });
    const sums = this.#sums.get(key) ?? {
      instrumentToken: order.instrumentToken,
      buy: 0,
      sell: 0,
      lastFillSeenAt: 0,
      lastFillPrice: 0,
    };
    if (order.transactionType === 'BUY') sums.buy += order.filledQuantity - before;
    else sums.sell += order.filledQuantity - before;
    sums.lastFillSeenAt = this.#deps.now();
    sums.lastFillPrice = price;
    this.#sums.set(key, sums);
    this.#changed();
  }

  /** The stream opened or closed: whether the knowledge is live changed. */
  public noteStream(): void {
    this.#changed();
  }

  /** Told after every change to what is known (a read, a fill, the stream); answers the unsubscribe. */
  public onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The last complete read as it came (prices and P&L as read), or null before any. */
  public lastRead(): { readonly positions: readonly Position[]; readonly at: number } | null {
    return this.#read;
  }

  /**
   * The latest fill main saw on a position: its price and when main first saw it (main's own
   * clock, never the broker's timestamps), or null if it saw none. A later change to an older
   * order (a cancel, a modify) is no fill and leaves it as it is.
   */
  public lastFill(key: PositionKey): { readonly price: number; readonly seenAt: number } | null {
    const sums = this.#sums.get(positionKey(key));
    return sums ? { price: sums.lastFillPrice, seenAt: sums.lastFillSeenAt } : null;
  }

  /** One position as main knows it now. */
  public position(key: PositionKey): KnownPosition {
    return this.#position(positionKey(key));
  }

  /** Every position main has heard of (read or filled), and whether the whole account is known. */
  public account(): KnownAccount {
    const keys = new Set<string>([...(this.#read?.rows.keys() ?? []), ...this.#sums.keys()]);
    const positions = [...keys].map((k) => this.#position(k));
    const unknown = positions.filter((p): p is UnknownQuantity => !p.known);
    if (!this.#read) return { known: false, asOf: null, since: this.#unknownSince, positions };
    if (unknown.length > 0)
      return { known: false, asOf: null, since: Math.min(...unknown.map((u) => u.since)), positions };
    const { asOf } = this.#basis(this.#read);
    return { known: true, asOf, since: null, positions };
  }

  #position(key: string): KnownPosition {
    const parts = keyParts(key);
    const read = this.#read;
    const sums = this.#sums.get(key);
    const token = read?.rows.get(key)?.instrumentToken ?? sums?.instrumentToken ?? null;
    if (!read)
      return {
        ...parts,
        known: false,
        instrumentToken: token,
        since: this.#unknownSince,
        why: 'no positions read yet',
      };
    const row = read.rows.get(key) ?? { instrumentToken: token ?? 0, quantity: 0, dayBuy: 0, daySell: 0 };
    const basis = this.#basis(read);
    if (basis.bookHoldsAll) {
      // The quantity carried in is the read's; each side's day quantity is the larger lower bound.
      const carried = row.quantity - row.dayBuy + row.daySell;
      const quantity = carried + Math.max(row.dayBuy, sums?.buy ?? 0) - Math.max(row.daySell, sums?.sell ?? 0);
      return {
        ...parts,
        known: true,
        instrumentToken: row.instrumentToken,
        quantity,
        asOf: basis.asOf,
        live: basis.live,
      };
    }
    if (sums && sums.lastFillSeenAt >= read.at)
      return {
        ...parts,
        known: false,
        instrumentToken: token,
        since: sums.lastFillSeenAt,
        why: 'a fill came after the last positions read, while the order book may lack orders',
      };
    return {
      ...parts,
      known: true,
      instrumentToken: row.instrumentToken,
      quantity: row.quantity,
      asOf: read.at,
      live: false,
    };
  }

  /** Whether the book holds every order since the read, and up to when the combination is exact. */
  #basis(read: Read): { bookHoldsAll: boolean; asOf: number; live: boolean } {
    const complete = this.#deps.bookCompleteAsOf();
    const stream = this.#deps.streamOpen();
    if (complete !== null && stream) return { bookHoldsAll: true, asOf: this.#deps.now(), live: true };
    if (complete !== null && complete >= read.at) return { bookHoldsAll: true, asOf: complete, live: false };
    return { bookHoldsAll: false, asOf: read.at, live: false };
  }

  #changed(): void {
    for (const l of this.#listeners) l();
  }
}
