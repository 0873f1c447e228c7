import type { DepthLevel, MarketDepth, MarketQuote, Tick } from '@shared/domain/market';
import type { TransactionType } from '@shared/domain/order';
import { fromUnits, toUnits } from '@shared/trading/money';

/**
 * An instrument's book as the renderer shows it, without React (docs/renderer.md, "Market
 * depth, sessions and the option chain on screen"): the best bid and ask, the spread, the five
 * visible levels a side, and what a MARKET order of a given size would take from them.
 *
 * The book comes from two sources: the stream's ticks (a `full` tick carries the depth, a
 * `quote` tick only the best bid and ask) and a `quotes.get` read (the start, and the fallback
 * while the stream is down). Whichever is newer by the market clock wins, piece by piece, so a
 * late read never moves the ladder back behind a tick.
 */

/** The visible book of one instrument at one moment. */
export interface Book {
  /** Best bid / ask; null when that side is empty (a price at its circuit limit). */
  readonly bid: number | null;
  readonly ask: number | null;
  /** The 5 best levels a side, or null while only the best bid and ask are known. */
  readonly depth: MarketDepth | null;
  /** Totals over the whole book (more levels than the 5 shown), when known. */
  readonly totalBuyQuantity: number | null;
  readonly totalSellQuantity: number | null;
  /** The market clock's time of the newest source. */
  readonly ts: string;
}

const EMPTY_DEPTH: MarketDepth = { buy: [], sell: [] };

/** A full quote as a book. */
export function bookOfQuote(q: MarketQuote): Book {
  return {
    bid: q.bid,
    ask: q.ask,
    depth: q.depth,
    totalBuyQuantity: q.totalBuyQuantity,
    totalSellQuantity: q.totalSellQuantity,
    ts: q.ts,
  };
}

/** What a tick says of the book, or null for an `ltp` tick (no bid or ask in it). */
export function bookOfTick(t: Tick): Book | null {
  if (t.bid === undefined && t.ask === undefined && t.depth === undefined) return null;
  return {
    bid: t.bid ?? null,
    ask: t.ask ?? null,
    depth: t.depth ?? null,
    totalBuyQuantity: t.totalBuyQuantity ?? null,
    totalSellQuantity: t.totalSellQuantity ?? null,
    ts: t.ts,
  };
}

const at = (b: Book): number => Date.parse(b.ts);

/**
 * The newest knowledge of the book from the stream and from a read: the best bid/ask of the
 * newer one; the depth and totals of the newer one that has depth (a `quote` tick newer than the
 * last read moves the touch, not the ladder). Null when neither is known.
 */
export function latestBook(fromTick: Book | null, fromRead: Book | null): Book | null {
  if (!fromTick) return fromRead;
  if (!fromRead) return fromTick;
  const tickNewer = at(fromTick) >= at(fromRead);
  const touch = tickNewer ? fromTick : fromRead;
  const deep = fromTick.depth !== null && tickNewer ? fromTick : fromRead.depth !== null ? fromRead : fromTick;
  return {
    bid: touch.bid,
    ask: touch.ask,
    depth: deep.depth,
    totalBuyQuantity: deep.totalBuyQuantity,
    totalSellQuantity: deep.totalSellQuantity,
    ts: touch.ts,
  };
}

/** The depth to draw: the book's, or two empty sides. */
export function depthOf(book: Book | null): MarketDepth {
  return book?.depth ?? EMPTY_DEPTH;
}

/** The spread in rupees (exact, on the tick grid) and in ticks. */
export interface Spread {
  readonly abs: number;
  readonly ticks: number;
}

/** Ask − bid, and how many ticks that is; null while either side is empty or unknown. */
export function spreadOf(bid: number | null, ask: number | null, tickSize: number): Spread | null {
  if (bid === null || ask === null || !(tickSize > 0)) return null;
  const units = toUnits(ask) - toUnits(bid);
  return { abs: fromUnits(units), ticks: Math.round(units / toUnits(tickSize)) };
}

/** What a MARKET order would take from the visible book, before it is sent. */
export interface MarketImpact {
  /** The side of the book the order takes: asks for a buy, bids for a sell. */
  readonly side: 'ask' | 'bid';
  /** How much of the order the visible levels can fill. */
  readonly fillable: number;
  /** Everything the visible levels offer on that side. */
  readonly visible: number;
  /** How many levels the order would walk. */
  readonly levels: number;
  /** The average price of the fillable part, or null when that side is empty. */
  readonly averagePrice: number | null;
  /** The best level's price (the touch), or null when that side is empty. */
  readonly touch: number | null;
  /** The worst level it would reach. */
  readonly worst: number | null;
  /** True when the order is larger than everything visible on that side. */
  readonly exceedsVisible: boolean;
}

/**
 * Walks the visible levels of the side a MARKET order takes (docs/api.md §Matching, "Taking the
 * book"), best first, to say how much of `quantity` they fill, over how many levels, and at what
 * average price. The average is computed in integer price units and rounded to ₹0.0001.
 */
export function marketImpact(depth: MarketDepth, side: TransactionType, quantity: number): MarketImpact {
  const levels: readonly DepthLevel[] = side === 'BUY' ? depth.sell : depth.buy;
  let left = Math.max(0, quantity);
  let valueUnits = 0;
  let used = 0;
  let worst: number | null = null;
  let visible = 0;
  for (const l of levels) {
    visible += l.quantity;
    if (left <= 0) continue;
    const take = Math.min(left, l.quantity);
    if (take <= 0) continue;
    valueUnits += toUnits(l.price) * take;
    left -= take;
    used += 1;
    worst = l.price;
  }
  const fillable = Math.max(0, quantity) - left;
  return {
    side: side === 'BUY' ? 'ask' : 'bid',
    fillable,
    visible,
    levels: used,
    averagePrice: fillable > 0 ? fromUnits(valueUnits / fillable) : null,
    touch: levels[0]?.price ?? null,
    worst,
    exceedsVisible: quantity > visible,
  };
}
