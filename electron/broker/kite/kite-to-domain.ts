import type { z } from 'zod';
import { Exchange } from '@shared/domain/instrument';
import type { Candle, MarketDepth, MarketQuote, SessionPhase } from '@shared/domain/market';
import {
  OrderType,
  Product,
  TransactionType,
  Validity,
  Variety,
  type Order,
  type OrderEvent,
  type OrderStatus,
  type Trade,
} from '@shared/domain/order';
import type { BasketMargin, Funds, Holding, OrderMargin, Position } from '@shared/domain/portfolio';
import type { KiteCandles, KiteHolding, KiteMargins, KiteOrder, KitePosition, KiteQuote, KiteTrade } from './kite-wire';

/**
 * Kite's spellings → the app's domain (docs/kite.md). Every mapper returns null for a row the
 * app cannot represent (a product such as MTF, a variety such as iceberg, an exchange such as
 * BCD): list reads leave those out, and the caller decides whether that may be silent.
 */

/** An IST `yyyy-mm-dd hh:mm:ss`, or `…T…+0530`, or an ISO time with offset → ISO with `+05:30`. */
export function kiteTime(text: string): string {
  const plain = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(text);
  if (plain) return `${plain[1]}T${plain[2]}+05:30`;
  const compact = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(\d{2})$/.exec(text);
  if (compact) return `${compact[1]}${compact[2]}:${compact[3]}`;
  return text;
}

/**
 * Kite's interim statuses (docs/kite.md §GET /orders): the order is on its way in, being
 * modified or being cancelled — it is still working, so it maps to `OPEN`; the raw status stays
 * visible as the status message.
 */
const INTERIM = new Set([
  'PUT ORDER REQ RECEIVED',
  'VALIDATION PENDING',
  'OPEN PENDING',
  'MODIFY VALIDATION PENDING',
  'MODIFY PENDING',
  'CANCEL PENDING',
  'TRIGGER PENDING',
]);

/** A Kite status → ours. An unknown one is taken as still working: never claim an end we do not know. */
export function kiteStatus(raw: string): OrderStatus {
  switch (raw) {
    case 'OPEN':
    case 'TRIGGER PENDING':
    case 'AMO REQ RECEIVED':
    case 'COMPLETE':
    case 'CANCELLED':
    case 'REJECTED':
      return raw;
    case 'CANCELLED AMO':
      return 'CANCELLED';
    default:
      return 'OPEN';
  }
}

const positive = (n: number | null | undefined): number | null => (n !== null && n !== undefined && n > 0 ? n : null);

/** The client reference as the app knows it, from the tag(s) Kite echoes; `tagToClient` knows the ones this session sent. */
export type TagResolver = (tag: string) => string | null;

/** One Kite order → ours, or null when the app cannot represent it (see the module note). */
export function toOrder(w: KiteOrder, resolveTag: TagResolver = () => null): Order | null {
  const exchange = Exchange.safeParse(w.exchange);
  const side = TransactionType.safeParse(w.transaction_type);
  const type = OrderType.safeParse(w.order_type);
  const product = Product.safeParse(w.product);
  const validity = Validity.safeParse(w.validity);
  const variety = Variety.safeParse(w.variety);
  if (!exchange.success || !side.success || !type.success || !product.success || !validity.success) return null;
  if (!variety.success) return null;
  const placed = w.exchange_timestamp ?? w.order_timestamp;
  const updated = w.exchange_update_timestamp ?? w.order_timestamp ?? placed;
  if (!placed || !updated) return null;
  const tag = w.tag ?? w.tags?.[0] ?? null;
  const interim = INTERIM.has(w.status) && w.status !== 'TRIGGER PENDING';
  const protection = protectionOf(w);
  return {
    orderId: w.order_id,
    clientOrderId: tag === null ? null : resolveTag(tag),
    exchange: exchange.data,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    transactionType: side.data,
    quantity: w.quantity,
    filledQuantity: w.filled_quantity,
    pendingQuantity: w.pending_quantity,
    cancelledQuantity: w.cancelled_quantity,
    orderType: type.data,
    product: product.data,
    validity: validity.data,
    price: positive(w.price),
    triggerPrice: positive(w.trigger_price),
    averagePrice: w.average_price ?? 0,
    status: kiteStatus(w.status),
    statusMessage: w.status_message ?? (interim ? w.status : null),
    variety: variety.data,
    placedAt: kiteTime(placed),
    updatedAt: kiteTime(updated),
    ...(protection ? { marketProtection: protection } : {}),
  };
}

/**
 * The protection a MARKET or SL-M order was placed under, which Kite then holds as a LIMIT (SL):
 * its tags say `mktp` and `mktp:2.00` (the percentage applied); `market_protection` says -1 when
 * it was Kite's automatic one (docs/kite.md §Market protection). Null for any other order.
 */
function protectionOf(w: KiteOrder): { percent: number; automatic: boolean } | null {
  const tags = w.tags ?? [];
  if (!tags.includes('mktp')) return null;
  const applied = tags.map((t) => /^mktp:(\d+(?:\.\d+)?)$/.exec(t)?.[1]).find((v) => v !== undefined);
  const percent = applied === undefined ? (w.market_protection ?? 0) : Number(applied);
  if (!(percent > 0 && percent <= 100)) return null;
  return { percent, automatic: w.market_protection === -1 };
}

/** One entry of GET /orders/:id (the order at one step) → one event of its life. */
export function toOrderEvent(w: KiteOrder): OrderEvent {
  const at = w.order_timestamp ?? w.exchange_update_timestamp ?? w.exchange_timestamp;
  return {
    status: kiteStatus(w.status),
    at: at ? kiteTime(at) : '1970-01-01T05:30:00+05:30',
    filledQuantity: w.filled_quantity,
    averagePrice: w.average_price ?? 0,
    message: w.status_message ?? (INTERIM.has(w.status) || !Variety.safeParse(w.variety).success ? w.status : null),
  };
}

/** One fill → ours, or null (see the module note). */
export function toTrade(w: z.infer<typeof KiteTrade>): Trade | null {
  const exchange = Exchange.safeParse(w.exchange);
  const side = TransactionType.safeParse(w.transaction_type);
  const product = Product.safeParse(w.product);
  const at = w.fill_timestamp ?? w.exchange_timestamp;
  if (!exchange.success || !side.success || !product.success || !at || w.quantity <= 0) return null;
  return {
    tradeId: String(w.trade_id),
    orderId: w.order_id,
    exchange: exchange.data,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    transactionType: side.data,
    product: product.data,
    quantity: w.quantity,
    price: w.average_price,
    filledAt: kiteTime(at),
  };
}

/** One net position → ours, or null (see the module note). */
export function toPosition(w: z.infer<typeof KitePosition>): Position | null {
  const exchange = Exchange.safeParse(w.exchange);
  const product = Product.safeParse(w.product);
  if (!exchange.success || !product.success) return null;
  return {
    exchange: exchange.data,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    product: product.data,
    quantity: w.quantity,
    overnightQuantity: w.overnight_quantity,
    multiplier: w.multiplier > 0 ? w.multiplier : 1,
    ...kiteShapedPositionFigures(w),
    buyQuantity: w.buy_quantity,
    sellQuantity: w.sell_quantity,
    m2m: w.m2m,
  };
}

/** The figures Kite's and Upstox's position rows report alike (Upstox's row is Kite's shape). */
export interface KiteShapedPosition {
  readonly average_price: number;
  readonly close_price: number;
  readonly last_price: number;
  readonly buy_value: number;
  readonly sell_value: number;
  readonly day_buy_quantity: number;
  readonly day_buy_value: number;
  readonly day_sell_quantity: number;
  readonly day_sell_value: number;
  readonly realised: number;
  readonly unrealised: number;
  readonly pnl: number;
}

/** Those figures as ours: prices never below zero, traded values as magnitudes. */
export function kiteShapedPositionFigures(
  w: KiteShapedPosition,
): Omit<
  Position,
  | 'exchange'
  | 'tradingsymbol'
  | 'instrumentToken'
  | 'product'
  | 'quantity'
  | 'overnightQuantity'
  | 'multiplier'
  | 'buyQuantity'
  | 'sellQuantity'
  | 'm2m'
> {
  return {
    averagePrice: Math.max(0, w.average_price),
    closePrice: Math.max(0, w.close_price),
    lastPrice: Math.max(0, w.last_price),
    buyValue: Math.abs(w.buy_value),
    sellValue: Math.abs(w.sell_value),
    dayBuyQuantity: w.day_buy_quantity,
    dayBuyValue: Math.abs(w.day_buy_value),
    daySellQuantity: w.day_sell_quantity,
    daySellValue: Math.abs(w.day_sell_value),
    realisedPnl: w.realised,
    unrealisedPnl: w.unrealised,
    pnl: w.pnl,
  };
}

/** One holding → ours (T+1 quantity included), or null for an exchange the app does not trade. */
export function toHolding(w: z.infer<typeof KiteHolding>): Holding | null {
  const exchange = Exchange.safeParse(w.exchange);
  if (!exchange.success) return null;
  return kiteShapedHolding(
    { exchange: exchange.data, tradingsymbol: w.tradingsymbol, instrumentToken: w.instrument_token },
    w,
  );
}

/** Where a row's instrument trades, as the app names it. */
export interface NamedInstrument {
  readonly instrumentToken: number;
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
}

/** A Kite-shaped holding row (Kite's, Upstox's) of `key` → ours, its T+1 quantity included. */
export function kiteShapedHolding(
  key: NamedInstrument,
  w: {
    readonly quantity: number;
    readonly t1_quantity?: number | null;
    readonly average_price: number;
    readonly last_price: number;
    readonly pnl: number;
  },
): Holding {
  return {
    exchange: key.exchange,
    tradingsymbol: key.tradingsymbol,
    instrumentToken: key.instrumentToken,
    quantity: Math.max(0, w.quantity + (w.t1_quantity ?? 0)),
    averagePrice: w.average_price,
    lastPrice: w.last_price,
    pnl: w.pnl,
  };
}

/**
 * The equity segment's margins → funds. The paper account reports one cash pool under both
 * segments (docs/kite.md §User), and a real account's equity segment is where equity and F&O
 * trade, so the commodity segment is not added in.
 */
export function toFunds(w: z.infer<typeof KiteMargins>['data']): Funds {
  const e = w.equity;
  return {
    availableCash: e.available.live_balance,
    usedMargin: e.utilised.debits,
    availableMargin: e.net,
    openingBalance: e.available.opening_balance,
    realisedPnl: e.utilised.m2m_realised,
    unrealisedPnl: e.utilised.m2m_unrealised,
  };
}

/** The margin calculator's entry for one order → ours; `orderValue` is price × quantity as asked. */
export function toOrderMargin(w: { total: number; leverage?: number | undefined }, orderValue: number): OrderMargin {
  return {
    total: Math.max(0, w.total),
    orderValue: Math.max(0, orderValue),
    leverage: w.leverage && w.leverage > 0 ? w.leverage : 1,
  };
}

/**
 * Kite's basket margin → ours: the basket's total before (`initial`) and after (`final`) the
 * hedging Kite counts, and each leg's own `total` (docs/kite.md §POST /margins/basket).
 */
export function toBasketMargin(w: {
  initial: { total: number };
  final: { total: number };
  orders: ReadonlyArray<{ total: number }>;
}): BasketMargin {
  return {
    initial: Math.max(0, w.initial.total),
    final: Math.max(0, w.final.total),
    legs: w.orders.map((o) => ({ total: Math.max(0, o.total) })),
  };
}

/** `[time, open, high, low, close, volume(, oi)]` → a candle at +05:30. */
export function toCandle(row: z.infer<typeof KiteCandles>['data']['candles'][number]): Candle {
  const [ts, open, high, low, close, volume] = row;
  return { ts: kiteTime(ts), open, high, low, close, volume: Math.max(0, volume) };
}

/** Kite (and Upstox) pad a thin book with zero levels; the app never shows padding (domain MarketDepth). */
export function depthSide(levels: readonly { price: number; quantity: number; orders: number }[]): MarketDepth['buy'] {
  return levels
    .filter((l) => l.price > 0 || l.quantity > 0)
    .slice(0, 5)
    .map((l) => ({ price: l.price, quantity: l.quantity, orders: l.orders }));
}

/** What Kite's and Upstox's full quotes carry alike: Upstox's quote is Kite's shape. */
export interface KiteShapedQuote {
  readonly last_price: number;
  readonly last_trade_time?: string | null;
  readonly timestamp?: string | null;
  readonly volume: number;
  readonly ohlc: { readonly open: number; readonly high: number; readonly low: number };
  readonly depth: {
    readonly buy: readonly { price: number; quantity: number; orders: number }[];
    readonly sell: readonly { price: number; quantity: number; orders: number }[];
  };
  readonly lower_circuit_limit: number;
  readonly upper_circuit_limit: number;
}

/** What a Kite-shaped quote's broker counts its own way: the previous close and change, the book's totals, OI. */
export type QuoteOwnFigures = Pick<
  MarketQuote,
  'previousClose' | 'change' | 'totalBuyQuantity' | 'totalSellQuantity' | 'oi'
>;

/**
 * A Kite-shaped quote (Kite's, Upstox's) → ours, at `key`; the phase comes from the calendar
 * (neither quote has one) and `now` stands in for a missing timestamp.
 */
export function kiteShapedQuote(
  key: NamedInstrument,
  w: KiteShapedQuote,
  own: QuoteOwnFigures,
  phase: SessionPhase,
  now: string,
): MarketQuote {
  const buy = depthSide(w.depth.buy);
  const sell = depthSide(w.depth.sell);
  return {
    ...own,
    instrumentToken: key.instrumentToken,
    exchange: key.exchange,
    tradingsymbol: key.tradingsymbol,
    lastPrice: w.last_price,
    lastTradeAt: w.last_trade_time ? kiteTime(w.last_trade_time) : null,
    volume: w.volume,
    ohlc: { open: w.ohlc.open, high: w.ohlc.high, low: w.ohlc.low, close: w.last_price },
    changePercent: own.previousClose > 0 ? (own.change / own.previousClose) * 100 : 0,
    bid: buy[0]?.price ?? null,
    ask: sell[0]?.price ?? null,
    depth: { buy, sell },
    lowerCircuit: w.lower_circuit_limit,
    upperCircuit: w.upper_circuit_limit,
    phase,
    ts: w.timestamp ? kiteTime(w.timestamp) : now,
  };
}

/** A Kite quote keyed `EXCHANGE:SYMBOL` → ours. */
export function toMarketQuote(
  key: { exchange: Exchange; tradingsymbol: string },
  w: KiteQuote,
  phase: SessionPhase,
  now: string,
): MarketQuote {
  const own: QuoteOwnFigures = {
    previousClose: w.ohlc.close,
    change: w.last_price - w.ohlc.close,
    totalBuyQuantity: w.buy_quantity,
    totalSellQuantity: w.sell_quantity,
    oi: key.exchange === 'NSE' || key.exchange === 'BSE' ? null : w.oi,
  };
  return kiteShapedQuote({ ...key, instrumentToken: w.instrument_token }, w, own, phase, now);
}
