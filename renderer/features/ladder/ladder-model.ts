import type { Instrument } from '@shared/domain/instrument';
import type { MarketDepth } from '@shared/domain/market';
import { isWorking, type Order, type OrderChanges, type OrderRequest, type Product } from '@shared/domain/order';
import { fromUnits, toUnits } from '@shared/trading/money';
import { sameMembers } from '../../lib/same-members';

/**
 * The price ladder without React (docs/ladder.md): a fixed column of prices one tick apart
 * around a centre, and what each row shows — the book's bid and offer quantities, the trader's
 * working orders, the last traded price and the volume traded there — and what a click at a row
 * sends. Prices are integer price units (`money.ts`) inside, rupees at the edges.
 */

/** Rows above and below the centre, at the least: a column taller than its view scrolls a screen either way. */
export const HALF_ROWS = 20;

/** A row's height in px (ladder.css), until the ladder has measured a drawn row. */
export const ROW_PX = 21;

/** How many rows the ladder's view shows at `heightPx` (at least one). */
export function visibleRows(heightPx: number, rowPx: number = ROW_PX): number {
  return Math.max(1, Math.floor(heightPx / Math.max(1, rowPx)));
}

/** Rows either side of the centre for a view of `visible` rows: enough to fill it and scroll a screen either way. */
export function halfRowsFor(visible: number): number {
  return Math.max(HALF_ROWS, visible);
}

/**
 * Whether the last price has left the middle third of the view (centred on `centre`, `visible`
 * rows tall): then the ladder recentres by itself, unless the trader has scrolled it
 * (docs/ladder.md §What it shows). All in price units.
 */
export function outsideMiddleThird(centre: number, last: number, tick: number, visible: number): boolean {
  const ticks = Math.abs(Math.round((last - centre) / tick));
  return ticks > visible / 6;
}

/** The prices of the column, highest first, in price units: `half` ticks either side of `centre`. */
export function ladderPrices(centre: number, tickSize: number, half = HALF_ROWS): number[] {
  const tick = toUnits(tickSize);
  const mid = Math.round(toUnits(centre) / tick) * tick;
  const out: number[] = [];
  for (let k = half; k >= -half; k -= 1) {
    const p = mid + k * tick;
    if (p > 0) out.push(p);
  }
  return out;
}

/** The book's quantities by price (units), each side. */
export function bookByPrice(depth: MarketDepth | null): { bids: Map<number, number>; offers: Map<number, number> } {
  const bids = new Map<number, number>();
  const offers = new Map<number, number>();
  for (const l of depth?.buy ?? []) bids.set(toUnits(l.price), l.quantity);
  for (const l of depth?.sell ?? []) offers.set(toUnits(l.price), l.quantity);
  return { bids, offers };
}

/** A working order at a row: its id, side, what is left, and the price it works at. */
export interface LadderOrder {
  readonly orderId: string;
  readonly side: 'BUY' | 'SELL';
  readonly pending: number;
  readonly orderType: Order['orderType'];
}

/**
 * Where an order sits on the ladder: a LIMIT at its price; a stop (SL, SL-M) at its trigger,
 * where it wakes.
 */
export function ladderPriceOf(o: Pick<Order, 'orderType' | 'price' | 'triggerPrice'>): number | null {
  const at = o.orderType === 'LIMIT' ? o.price : o.orderType === 'MARKET' ? null : o.triggerPrice;
  return at !== null && at > 0 ? toUnits(at) : null;
}

/** The instrument's working orders by ladder price (units). */
export function ordersByPrice(orders: readonly Order[], instrumentToken: number): Map<number, LadderOrder[]> {
  const out = new Map<number, LadderOrder[]>();
  for (const o of orders) {
    if (o.instrumentToken !== instrumentToken || !isWorking(o.status)) continue;
    const at = ladderPriceOf(o);
    if (at === null) continue;
    const list = out.get(at) ?? [];
    list.push({ orderId: o.orderId, side: o.transactionType, pending: o.pendingQuantity, orderType: o.orderType });
    out.set(at, list);
  }
  return out;
}

/** What the ladder draws of the order list (`ladderOrders`). */
export interface LadderOrders {
  /** The instrument's working orders inside the column, by ladder price (units). */
  readonly byPrice: ReadonlyMap<number, readonly LadderOrder[]>;
  /** The same orders as the list holds them (a drag finds its order here). */
  readonly shown: readonly Order[];
  /** Of the orders the ladder's clicks placed, those the list holds. */
  readonly listed: ReadonlySet<string>;
}

/**
 * The part of the order list the ladder draws: its instrument's working orders at prices in the
 * column (`lo`–`hi`, units), and which of the orders its clicks placed the list holds. `prev` is
 * handed back when none of that changed — the same order objects (the page's order book keeps an
 * unchanged order's object) and the same clicks listed — so a change anywhere else in a large
 * book costs the ladder one pass over the list and no render (docs/ladder.md §Speed).
 */
export function ladderOrders(
  all: readonly Order[],
  instrumentToken: number,
  column: { readonly lo: number; readonly hi: number },
  clicked: ReadonlySet<string>,
  prev: LadderOrders | null,
): LadderOrders {
  const shown: Order[] = [];
  const listed = new Set<string>();
  for (const o of all) {
    if (o.instrumentToken !== instrumentToken) continue;
    if (clicked.has(o.orderId)) listed.add(o.orderId);
    if (!isWorking(o.status)) continue;
    const at = ladderPriceOf(o);
    if (at !== null && at >= column.lo && at <= column.hi) shown.push(o);
  }
  if (prev && sameMembers(prev.shown, shown) && sameMembers([...prev.listed], [...listed])) return prev;
  return { byPrice: ordersByPrice(shown, instrumentToken), shown, listed };
}

/** Where the market is: the best bid and offer, else the last price for both. */
export interface Touch {
  readonly bid: number | null;
  readonly ask: number | null;
  readonly last: number | null;
}

/**
 * The order a click sends (docs/ladder.md §Clicks): on the bid side a BUY, on the offer side a
 * SELL, a LIMIT at the row's price — unless the row is on the other side of the market (a buy
 * above the best offer, a sell below the best bid), where a limit would fill at once: then an SL
 * that wakes at that price, as ladders do (its limit at the same price).
 */
export function clickOrder(
  side: 'bid' | 'offer',
  priceUnits: number,
  touch: Touch,
  quantity: number,
  product: Product,
  instrument: Pick<Instrument, 'exchange' | 'tradingsymbol'>,
): OrderRequest {
  const buy = side === 'bid';
  const price = fromUnits(priceUnits);
  const far = buy ? (touch.ask ?? touch.last) : (touch.bid ?? touch.last);
  const stop = far !== null && (buy ? priceUnits > toUnits(far) : priceUnits < toUnits(far));
  return {
    exchange: instrument.exchange,
    tradingsymbol: instrument.tradingsymbol,
    transactionType: buy ? 'BUY' : 'SELL',
    quantity,
    orderType: stop ? 'SL' : 'LIMIT',
    product,
    validity: 'DAY',
    price,
    triggerPrice: stop ? price : null,
  };
}

/**
 * The modification a drag sends: the order moved to `toUnits` — a LIMIT's price; a stop's
 * trigger, its limit moved by the same amount (so the gap the trader chose is kept).
 */
export function dragChanges(o: Pick<Order, 'orderType' | 'price' | 'triggerPrice'>, to: number): OrderChanges | null {
  const from = ladderPriceOf(o);
  if (from === null || from === to) return null;
  if (o.orderType === 'LIMIT') return { price: fromUnits(to) };
  if (o.orderType === 'SL-M') return { triggerPrice: fromUnits(to) };
  const limit = o.price !== null && o.price > 0 ? toUnits(o.price) + (to - from) : to;
  return { triggerPrice: fromUnits(to), price: fromUnits(Math.max(1, limit)) };
}
