import type { z } from 'zod';
import { type Exchange, InstrumentType, type Instrument } from '@shared/domain/instrument';
import type { Candle, MarketQuote, SessionPhase } from '@shared/domain/market';
import {
  OrderType,
  TransactionType,
  Validity,
  type Order,
  type OrderEvent,
  type OrderStatus,
  type Product,
  type Trade,
} from '@shared/domain/order';
import type { Funds, Holding, Position } from '@shared/domain/portfolio';
import { istDate } from '@shared/lib/ist-time';
import { UNKNOWN_FREEZE_QUANTITY } from '../../wire/kite-instruments-csv';
import {
  type QuoteOwnFigures,
  kiteShapedHolding,
  kiteShapedPositionFigures,
  kiteShapedQuote,
  kiteTime,
} from '../kite/kite-to-domain';
import { SEGMENT_OF } from '../../wire/upstox-segments';
import type {
  UpstoxCandles,
  UpstoxFunds,
  UpstoxHolding,
  UpstoxInstrument,
  UpstoxOrder,
  UpstoxPosition,
  UpstoxQuote,
  UpstoxTrade,
} from './upstox-wire';

/**
 * Upstox's spellings → the app's domain (docs/upstox.md §The adapter). Upstox names an instrument
 * by its key (`NSE_EQ|INE…`); the app by a number, which the adapter gives each key of the
 * instrument master (`UpstoxIndex`). Every mapper returns null for a row the app cannot represent
 * (product MTF, a segment the app does not trade, an instrument not in the master): list reads
 * leave those out, and the caller decides whether that may be silent.
 */

/** Upstox's segments the app trades, each with the number its instruments' tokens end in. */
const SEGMENTS: Readonly<Record<string, { exchange: Exchange; code: number; equity: boolean }>> = {
  NSE_EQ: { exchange: 'NSE', code: 1, equity: true },
  BSE_EQ: { exchange: 'BSE', code: 2, equity: true },
  NSE_FO: { exchange: 'NFO', code: 3, equity: false },
  BSE_FO: { exchange: 'BFO', code: 4, equity: false },
  MCX_FO: { exchange: 'MCX', code: 5, equity: false },
  NCD_FO: { exchange: 'CDS', code: 6, equity: false },
};

export { SEGMENT_OF };

/** Where one instrument key trades, as the app names it. */
export interface KeyedInstrument {
  readonly key: string;
  readonly instrumentToken: number;
  readonly exchange: Exchange;
  readonly tradingsymbol: string;
  readonly equity: boolean;
}

/** Instrument keys ↔ the app's instrument tokens, from the last instrument master read. */
export class UpstoxIndex {
  readonly #byKey = new Map<string, KeyedInstrument>();
  readonly #byToken = new Map<number, KeyedInstrument>();

  public get size(): number {
    return this.#byKey.size;
  }

  public add(i: KeyedInstrument): void {
    this.#byKey.set(i.key, i);
    this.#byToken.set(i.instrumentToken, i);
  }

  public key(key: string): KeyedInstrument | undefined {
    return this.#byKey.get(key);
  }

  public token(token: number): KeyedInstrument | undefined {
    return this.#byToken.get(token);
  }

  /** The instrument an order asks for, by exchange and symbol. */
  public symbol(exchange: Exchange, tradingsymbol: string): KeyedInstrument | undefined {
    for (const i of this.#byKey.values()) if (i.exchange === exchange && i.tradingsymbol === tradingsymbol) return i;
    return undefined;
  }
}

/** Segments in the order their instruments keep the bare exchange token when two share one. */
const SEGMENT_ORDER = Object.keys(SEGMENTS);

/**
 * The app's tokens of the master's rows (docs/upstox.md §The adapter, "Instruments"): each row's
 * exchange token, which the exchange numbers per segment. Where two segments use the same number,
 * the row of the segment first in `SEGMENT_ORDER` keeps it and the others get
 * `segment code × 2⁴⁰ + token`, above every exchange token, so no two instruments share a token.
 * Null for a row whose segment the app does not trade or whose token is not a number.
 */
export function upstoxTokens(rows: readonly UpstoxInstrument[]): (number | null)[] {
  const bare = rows.map((r) => {
    const n = Number(r.exchange_token);
    return SEGMENTS[r.segment] && Number.isSafeInteger(n) && n > 0 && n < 2 ** 40 ? n : null;
  });
  const owner = new Map<number, number>();
  rows.forEach((r, i) => {
    const n = bare[i];
    if (n == null) return;
    const rank = SEGMENT_ORDER.indexOf(r.segment);
    const held = owner.get(n);
    if (held === undefined || rank < held) owner.set(n, rank);
  });
  return rows.map((r, i) => {
    const n = bare[i];
    if (n == null) return null;
    const rank = SEGMENT_ORDER.indexOf(r.segment);
    return owner.get(n) === rank ? n : (SEGMENTS[r.segment]?.code ?? 7) * 2 ** 40 + n;
  });
}

/** One row of the instrument master → ours and its key, or null (a segment or type the app does not trade). */
export function toInstrument(
  w: UpstoxInstrument,
  token: number | null,
): { instrument: Instrument; keyed: KeyedInstrument } | null {
  const s = SEGMENTS[w.segment];
  const type = InstrumentType.safeParse(w.instrument_type);
  if (!s || !type.success || token === null || w.lot_size <= 0 || w.tick_size <= 0) return null;
  const freeze = w.freeze_quantity ?? 0;
  const instrument: Instrument = {
    instrumentToken: token,
    exchange: s.exchange,
    tradingsymbol: w.trading_symbol,
    name: w.name ?? w.trading_symbol,
    segment: w.segment,
    instrumentType: type.data,
    lotSize: Math.round(w.lot_size),
    // Upstox writes the tick in paise.
    tickSize: w.tick_size / 100,
    freezeQuantity: freeze > 0 ? Math.round(freeze) : UNKNOWN_FREEZE_QUANTITY,
    multiplier: 1,
    expiry: w.expiry != null && w.expiry > 0 ? istDate(w.expiry) : null,
    strike: w.strike_price != null && w.strike_price > 0 ? w.strike_price : null,
    lastPrice: 0,
  };
  return {
    instrument,
    keyed: {
      key: w.instrument_key,
      instrumentToken: token,
      exchange: s.exchange,
      tradingsymbol: w.trading_symbol,
      equity: s.equity,
    },
  };
}

/** Upstox's product of ours: `I` intraday, `D` delivery or carry-forward (docs/upstox.md §Orders). */
export function upstoxProduct(p: Product): 'I' | 'D' {
  return p === 'MIS' ? 'I' : 'D';
}

/** Our product of an Upstox one on an instrument; null for `MTF`, which the app does not trade. */
export function domainProduct(p: string, equity: boolean): Product | null {
  if (p === 'I') return 'MIS';
  if (p === 'D') return equity ? 'CNC' : 'NRML';
  return null;
}

/**
 * Upstox's interim statuses (docs/upstox.md §Orders): the order is on its way in, being modified
 * or being cancelled — still working, so `OPEN`, the raw status shown as its message.
 */
const INTERIM = new Set([
  'put order req received',
  'validation pending',
  'open pending',
  'modify validation pending',
  'modify pending',
  'cancel pending',
  'not modified',
  'not cancelled',
  'modified',
]);

/** An Upstox status → ours. An unknown one is taken as still working: never claim an end we do not know. */
export function upstoxStatus(raw: string): OrderStatus {
  switch (raw.toLowerCase()) {
    case 'open':
      return 'OPEN';
    case 'trigger pending':
      return 'TRIGGER PENDING';
    case 'after market order req received':
      return 'AMO REQ RECEIVED';
    case 'complete':
      return 'COMPLETE';
    case 'cancelled':
    case 'cancelled after market order':
      return 'CANCELLED';
    case 'rejected':
      return 'REJECTED';
    default:
      return 'OPEN';
  }
}

const positive = (n: number | null | undefined): number | null => (n != null && n > 0 ? n : null);
const symbolOf = (w: { trading_symbol?: string | undefined; tradingsymbol?: string | undefined }): string =>
  w.trading_symbol ?? w.tradingsymbol ?? '';

/**
 * One Upstox order → ours, or null when the app cannot represent it. Upstox's `tag` is the
 * client reference itself (docs/upstox.md §The adapter, "Exactly once"): an order without one has none.
 */
export function toOrder(w: UpstoxOrder, index: UpstoxIndex): Order | null {
  const where = index.key(w.instrument_token);
  const side = TransactionType.safeParse(w.transaction_type);
  const type = OrderType.safeParse(w.order_type);
  const validity = Validity.safeParse(w.validity);
  if (!where || !side.success || !type.success || !validity.success) return null;
  const product = domainProduct(w.product, where.equity);
  const at = w.exchange_timestamp ?? w.order_timestamp;
  if (product === null || !at) return null;
  const status = upstoxStatus(w.status);
  const interim = INTERIM.has(w.status.toLowerCase());
  return {
    orderId: w.order_id,
    clientOrderId: w.tag != null && w.tag !== '' ? w.tag : null,
    exchange: where.exchange,
    tradingsymbol: where.tradingsymbol,
    instrumentToken: where.instrumentToken,
    transactionType: side.data,
    quantity: w.quantity,
    filledQuantity: w.filled_quantity,
    pendingQuantity: status === 'CANCELLED' || status === 'REJECTED' ? 0 : w.pending_quantity,
    // Upstox reports no cancelled quantity: what a cancelled order did not fill.
    cancelledQuantity: status === 'CANCELLED' ? Math.max(0, w.quantity - w.filled_quantity) : 0,
    orderType: type.data,
    product,
    validity: validity.data,
    price: positive(w.price),
    triggerPrice: positive(w.trigger_price),
    averagePrice: w.average_price ?? 0,
    status,
    statusMessage: w.status_message != null && w.status_message !== '' ? w.status_message : interim ? w.status : null,
    variety: w.is_amo === true ? 'amo' : 'regular',
    placedAt: kiteTime(w.order_timestamp ?? at),
    updatedAt: kiteTime(at),
  };
}

/** One step of an order's history → one event of its life. */
export function toOrderEvent(w: UpstoxOrder): OrderEvent {
  const at = w.order_timestamp ?? w.exchange_timestamp;
  return {
    status: upstoxStatus(w.status),
    at: at ? kiteTime(at) : '1970-01-01T05:30:00+05:30',
    filledQuantity: w.filled_quantity,
    averagePrice: w.average_price ?? 0,
    message: w.status_message ?? (INTERIM.has(w.status.toLowerCase()) ? w.status : null),
  };
}

/** One fill → ours, or null. */
export function toTrade(w: z.infer<typeof UpstoxTrade>, index: UpstoxIndex): Trade | null {
  const where = index.key(w.instrument_token);
  const side = TransactionType.safeParse(w.transaction_type);
  const product = where ? domainProduct(w.product, where.equity) : null;
  const at = w.exchange_timestamp ?? w.order_timestamp;
  if (!where || !side.success || product === null || !at || w.quantity <= 0) return null;
  return {
    tradeId: String(w.trade_id),
    orderId: w.order_id,
    exchange: where.exchange,
    tradingsymbol: where.tradingsymbol,
    instrumentToken: where.instrumentToken,
    transactionType: side.data,
    product,
    quantity: w.quantity,
    price: w.average_price,
    filledAt: kiteTime(at),
  };
}

/** One position of the day → ours, or null. */
export function toPosition(w: z.infer<typeof UpstoxPosition>, index: UpstoxIndex): Position | null {
  const where = index.key(w.instrument_token);
  const product = where ? domainProduct(w.product, where.equity) : null;
  if (!where || product === null) return null;
  const overnightBuy = w.overnight_buy_quantity ?? Math.max(0, w.overnight_quantity);
  const overnightSell = w.overnight_sell_quantity ?? Math.max(0, -w.overnight_quantity);
  return {
    exchange: where.exchange,
    tradingsymbol: where.tradingsymbol || symbolOf(w),
    instrumentToken: where.instrumentToken,
    product,
    quantity: w.quantity,
    overnightQuantity: w.overnight_quantity,
    multiplier: w.multiplier !== undefined && w.multiplier > 0 ? w.multiplier : 1,
    ...kiteShapedPositionFigures(w),
    buyQuantity: w.day_buy_quantity + overnightBuy,
    sellQuantity: w.day_sell_quantity + overnightSell,
    // Upstox reports no mark-to-market apart from the P&L.
    m2m: w.pnl,
  };
}

/** One holding → ours (T+1 quantity included), or null. */
export function toHolding(w: z.infer<typeof UpstoxHolding>, index: UpstoxIndex): Holding | null {
  const where = index.key(w.instrument_token);
  return where ? kiteShapedHolding(where, w) : null;
}

/**
 * The equity segment's funds → ours. Upstox reports no opening balance nor P&L with its funds:
 * the opening balance is what is available and used together, the P&L the positions' (the desk
 * shows the positions' own).
 */
export function toFunds(w: z.infer<typeof UpstoxFunds>['data'], pnl: { realised: number; unrealised: number }): Funds {
  const e = w.equity;
  return {
    availableCash: e.available_margin,
    usedMargin: e.used_margin,
    availableMargin: e.available_margin,
    openingBalance: e.available_margin + e.used_margin,
    realisedPnl: pnl.realised,
    unrealisedPnl: pnl.unrealised,
  };
}

/** `[time, open, high, low, close, volume, oi]` → a candle at +05:30. */
export function toCandle(row: z.infer<typeof UpstoxCandles>['data']['candles'][number]): Candle {
  const [ts, open, high, low, close, volume] = row;
  return { ts: kiteTime(ts), open, high, low, close, volume: Math.max(0, volume) };
}

/** A full quote → ours (Upstox's quote is Kite's shape: kite-to-domain.ts). */
export function toMarketQuote(where: KeyedInstrument, w: UpstoxQuote, phase: SessionPhase, now: string): MarketQuote {
  const own: QuoteOwnFigures = {
    // The previous close is what today's change is counted from.
    previousClose: w.last_price - w.net_change,
    change: w.net_change,
    totalBuyQuantity: w.total_buy_quantity,
    totalSellQuantity: w.total_sell_quantity,
    oi: where.equity ? null : (w.oi ?? 0),
  };
  return kiteShapedQuote(where, w, own, phase, now);
}
