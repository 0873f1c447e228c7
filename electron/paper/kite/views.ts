import { istDate } from '@shared/lib/ist-time';
import { fromUnits } from '@shared/trading/money';
import { Account } from '../account';
import type { PaperGtt } from '../gtt';
import type { PaperInstrument } from '../instruments';
import type { Market } from '../market';
import type { Engine } from '../matching';
import { bookOf } from '../quote-view';
import { PAPER_USER_ID } from '../sessions';
import { type HistoryEntry, type PaperHolding, type PaperOrder, type PaperPosition, type PaperTrade } from '../types';
import { wirePosition, wireTrade } from '../wire-views';
import type { DepthLevel, PacketMode, TickFields } from './packets';
import { kiteTime } from './wire';
import { protectionTags } from './protection';

/**
 * The broker's records in Kite Connect's field names and formats (docs/kite.md §Orders,
 * §Portfolio, §Quotes): string order ids, IST `yyyy-mm-dd hh:mm:ss` times, 0 where Kite writes 0
 * for "none" (price, trigger_price), `tag` for the order's client reference.
 */

/** What the /kite dialect remembers of an order beyond the engine's record (not journaled). */
export interface KiteOrderExtras {
  /** `market_protection` as the order carried it (0 when it had none). */
  readonly marketProtection: number;
  /** A protected MARKET or SL-M order: what it was placed as, and the percentage applied (docs/kite.md §Market protection). */
  readonly protectedAs?: { readonly orderType: 'MARKET' | 'SL-M'; readonly percent: number };
}

const avg = (valueUnits: number, qty: number): number => (qty > 0 ? fromUnits(valueUnits / qty) : 0);

/** The order's fields as Kite writes them, with `status`, time and fill taken from `at` (history). */
function orderFields(
  o: PaperOrder,
  extras: KiteOrderExtras | undefined,
  at: { status: string; time: number; filled: number; valueUnits: number; message: string | null },
): Record<string, unknown> {
  const cancelled = at.status === 'CANCELLED' || at.status === 'REJECTED' ? o.cancelled : 0;
  const working = at.status !== 'COMPLETE' && at.status !== 'CANCELLED' && at.status !== 'REJECTED';
  return {
    placed_by: PAPER_USER_ID,
    order_id: o.orderId,
    exchange_order_id: at.status === 'REJECTED' ? null : `1${o.orderId}`,
    parent_order_id: null,
    status: at.status,
    status_message: at.message,
    status_message_raw: at.message,
    order_timestamp: kiteTime(at.time),
    exchange_update_timestamp: kiteTime(at.time),
    exchange_timestamp: at.status === 'REJECTED' ? null : kiteTime(o.placedAt),
    variety: o.variety,
    modified: o.version > 1,
    exchange: o.exchange,
    tradingsymbol: o.tradingsymbol,
    instrument_token: o.token,
    order_type: o.orderType,
    transaction_type: o.transactionType,
    validity: o.validity,
    validity_ttl: 0,
    product: o.product,
    quantity: o.quantity,
    disclosed_quantity: 0,
    price: o.priceUnits === null ? 0 : fromUnits(o.priceUnits),
    trigger_price: o.triggerUnits === null ? 0 : fromUnits(o.triggerUnits),
    average_price: avg(at.valueUnits, at.filled),
    filled_quantity: at.filled,
    pending_quantity: working ? o.quantity - at.filled : 0,
    cancelled_quantity: cancelled,
    market_protection: extras?.marketProtection ?? 0,
    meta: {},
    tag: o.clientOrderId,
    tags: [
      ...(o.clientOrderId === null ? [] : [o.clientOrderId]),
      ...(extras?.protectedAs ? protectionTags(extras.protectedAs.percent) : []),
    ],
    guid: `paper-${o.orderId}`,
  };
}

/** An order as `GET /orders` lists it. */
export function kiteOrder(o: PaperOrder, extras?: KiteOrderExtras): Record<string, unknown> {
  return orderFields(o, extras, {
    status: o.status,
    time: o.updatedAt,
    filled: o.filled,
    valueUnits: o.filledValueUnits,
    message: o.statusMessage,
  });
}

/**
 * `GET /orders/:id`: the order at each step of its life, as Kite's history shows it — the
 * interim statuses a real exchange round-trip passes (`PUT ORDER REQ RECEIVED`, `VALIDATION
 * PENDING`, then `OPEN PENDING` for an order that went to the market; `MODIFY VALIDATION PENDING`,
 * `MODIFY PENDING` before a change,
 * `CANCEL PENDING` before a cancel by the user) and then each status the engine recorded.
 * Quantity and prices are the order's current ones (the engine keeps no earlier copies).
 */
export function kiteHistory(o: PaperOrder, extras?: KiteOrderExtras): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const step = (status: string, h: HistoryEntry, message: string | null = null): void => {
    out.push(orderFields(o, extras, { status, time: h.at, filled: h.filled, valueUnits: h.filledValueUnits, message }));
  };
  o.history.forEach((h, n) => {
    if (n === 0) {
      step('PUT ORDER REQ RECEIVED', h);
      step('VALIDATION PENDING', h);
      // Only an order that went to the exchange waited for it; a refused or after-market one did not.
      if (h.status === 'OPEN' || h.status === 'TRIGGER PENDING') step('OPEN PENDING', h);
    } else if (h.message?.startsWith('Modified')) {
      step('MODIFY VALIDATION PENDING', h);
      step('MODIFY PENDING', h);
    } else if (h.status === 'CANCELLED' && h.message === 'Cancelled by the user') {
      step('CANCEL PENDING', h);
    }
    step(h.status, h, h.message);
  });
  return out;
}

/** A fill as `GET /trades` and `GET /orders/:id/trades` list it. */
export function kiteTrade(t: PaperTrade, order: PaperOrder | undefined): Record<string, unknown> {
  // The /v1 view of the fill (one view for every dialect), with Kite's names for its price and times.
  const { price, filled_at: _filledAt, ...fill } = wireTrade(t);
  return {
    ...fill,
    average_price: price,
    exchange_order_id: `1${t.orderId}`,
    fill_timestamp: kiteTime(t.at),
    order_timestamp: kiteTime(order?.placedAt ?? t.at).slice(11),
    exchange_timestamp: kiteTime(t.at),
  };
}

/** Kite's position fields from the /v1 view (so both dialects mark a position the same way). */
function positionFields(p: PaperPosition, market: Market, day: string, dayOnly: boolean): Record<string, unknown> {
  const w = wirePosition(p, market, day);
  const m = p.multiplier;
  const buyQ = dayOnly ? p.dayBuyQuantity : p.buyQuantity;
  const sellQ = dayOnly ? p.daySellQuantity : p.sellQuantity;
  const buyV = dayOnly ? p.dayBuyValueUnits : p.buyValueUnits;
  const sellV = dayOnly ? p.daySellValueUnits : p.sellValueUnits;
  const per = (v: number, q: number): number => (q > 0 ? fromUnits(v / (q * m)) : 0);
  const quantity = dayOnly ? buyQ - sellQ : p.net;
  return {
    tradingsymbol: p.tradingsymbol,
    exchange: p.exchange,
    instrument_token: p.token,
    product: p.product,
    quantity,
    overnight_quantity: dayOnly ? 0 : p.overnight,
    multiplier: m,
    average_price: dayOnly ? per(quantity >= 0 ? buyV : sellV, quantity >= 0 ? buyQ : sellQ) : w.average_price,
    close_price: w.close_price,
    last_price: w.last_price,
    value: fromUnits(sellV - buyV),
    pnl: w.pnl,
    m2m: w.m2m,
    unrealised: w.unrealised_pnl,
    realised: w.realised_pnl,
    buy_quantity: buyQ,
    buy_price: per(buyV, buyQ),
    buy_value: fromUnits(buyV),
    buy_m2m: fromUnits(buyV),
    sell_quantity: sellQ,
    sell_price: per(sellV, sellQ),
    sell_value: fromUnits(sellV),
    sell_m2m: fromUnits(sellV),
    day_buy_quantity: p.dayBuyQuantity,
    day_buy_price: per(p.dayBuyValueUnits, p.dayBuyQuantity),
    day_buy_value: fromUnits(p.dayBuyValueUnits),
    day_sell_quantity: p.daySellQuantity,
    day_sell_price: per(p.daySellValueUnits, p.daySellQuantity),
    day_sell_value: fromUnits(p.daySellValueUnits),
  };
}

/**
 * `GET /portfolio/positions`: `net` is every position of the day (carried ones included), `day`
 * only what was traded today, its quantity the day's buys less the day's sells.
 */
export function kitePositions(
  positions: Iterable<PaperPosition>,
  market: Market,
  now: number,
): Record<string, unknown> {
  const day = istDate(now);
  const all = [...positions];
  return {
    net: all.map((p) => positionFields(p, market, day, false)),
    day: all
      .filter((p) => p.dayBuyQuantity > 0 || p.daySellQuantity > 0)
      .map((p) => positionFields(p, market, day, true)),
  };
}

/** A delivery holding as `GET /portfolio/holdings` lists it. */
export function kiteHolding(h: PaperHolding, market: Market, now: number): Record<string, unknown> {
  const ltp = market.ltp(h.token) || h.lastFillUnits;
  const close = market.closeOf(h.token, istDate(now)) || ltp;
  const dayChange = fromUnits(ltp - close);
  return {
    tradingsymbol: h.tradingsymbol,
    exchange: h.exchange,
    instrument_token: h.token,
    isin: '',
    product: 'CNC',
    price: 0,
    quantity: h.quantity,
    used_quantity: 0,
    t1_quantity: 0,
    realised_quantity: h.quantity,
    authorised_quantity: 0,
    authorised_date: null,
    opening_quantity: h.quantity,
    short_quantity: 0,
    collateral_quantity: 0,
    collateral_type: '',
    discrepancy: false,
    average_price: avg(h.costUnits, h.quantity),
    last_price: fromUnits(ltp),
    close_price: fromUnits(close),
    pnl: fromUnits(h.quantity * ltp - h.costUnits),
    day_change: dayChange,
    day_change_percentage: close > 0 ? ((ltp - close) / close) * 100 : 0,
  };
}

/** One segment of `GET /user/margins`: the paper account's single cash pool (docs/kite.md §User). */
export function kiteSegmentMargins(engine: Engine, market: Market): Record<string, unknown> {
  const a = engine.account;
  let unrealised = 0;
  for (const p of a.positions.values()) unrealised += Account.unrealised(p, market.ltp(p.token) || p.lastFillUnits);
  const used = engine.usedMarginUnits();
  const net = fromUnits(a.cashUnits - used);
  return {
    enabled: true,
    net,
    available: {
      adhoc_margin: 0,
      cash: fromUnits(a.cashUnits),
      opening_balance: fromUnits(a.openingUnits),
      live_balance: net,
      collateral: 0,
      intraday_payin: 0,
    },
    utilised: {
      debits: fromUnits(used),
      exposure: 0,
      m2m_realised: fromUnits(a.realisedUnits),
      m2m_unrealised: fromUnits(unrealised),
      option_premium: 0,
      payout: 0,
      span: fromUnits(used),
      holding_sales: 0,
      turnover: 0,
      liquid_collateral: 0,
      stock_collateral: 0,
      delivery: 0,
    },
  };
}

/** `GET /user/profile`. */
export function kiteProfile(): Record<string, unknown> {
  return {
    user_id: PAPER_USER_ID,
    user_type: 'individual',
    email: 'paper@tradedesk.invalid',
    user_name: 'Paper Trader',
    user_shortname: 'Paper',
    broker: 'PAPER',
    exchanges: ['NSE', 'BSE', 'NFO', 'BFO', 'MCX', 'CDS'],
    products: ['CNC', 'NRML', 'MIS'],
    order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
    avatar_url: null,
    meta: { demat_consent: 'physical' },
  };
}

/** Five levels a side, padded with zero levels as Kite pads a thin book. */
function depth5(market: Market, i: PaperInstrument): Record<'buy' | 'sell', Array<Record<string, number>>> {
  const book = bookOf(market, i);
  const side = (levels: ReadonlyArray<{ price: number; quantity: number; orders: number }>) =>
    Array.from({ length: 5 }, (_, n) => {
      const l = levels[n];
      return l
        ? { price: fromUnits(l.price), quantity: l.quantity, orders: l.orders }
        : { price: 0, quantity: 0, orders: 0 };
    });
  return { buy: side(book.buy), sell: side(book.sell) };
}

/** `GET /quote/ltp` for one instrument. */
export function kiteLtp(market: Market, i: PaperInstrument): Record<string, unknown> {
  return { instrument_token: i.token, last_price: fromUnits(market.ltp(i.token)) };
}

/** `GET /quote/ohlc` for one instrument: `ohlc.close` is the previous session's close, as on Kite. */
export function kiteOhlc(market: Market, i: PaperInstrument, now: number): Record<string, unknown> {
  const bar = market.dayBar(i.token);
  const close = market.closeOf(i.token, istDate(now));
  return {
    instrument_token: i.token,
    last_price: fromUnits(market.ltp(i.token)),
    ohlc: { open: fromUnits(bar.open), high: fromUnits(bar.high), low: fromUnits(bar.low), close: fromUnits(close) },
  };
}

/** `GET /quote` for one instrument: the full quote with 5-level depth and circuit limits. */
export function kiteQuote(market: Market, i: PaperInstrument, now: number): Record<string, unknown> {
  const ltp = market.ltp(i.token);
  const bar = market.dayBar(i.token);
  const close = market.closeOf(i.token, istDate(now));
  const [lo, hi] = market.band(i.token);
  const book = market.book(i.token);
  const oi = market.oi(i.token) ?? 0;
  return {
    instrument_token: i.token,
    timestamp: kiteTime(now),
    last_trade_time: bar.lastTradeAt === null ? null : kiteTime(bar.lastTradeAt),
    last_price: fromUnits(ltp),
    last_quantity: 0,
    buy_quantity: book?.total('buy') ?? 0,
    sell_quantity: book?.total('sell') ?? 0,
    volume: market.volume(i.token),
    average_price: fromUnits(ltp),
    oi,
    oi_day_high: oi,
    oi_day_low: oi,
    net_change: fromUnits(ltp - close),
    lower_circuit_limit: fromUnits(lo),
    upper_circuit_limit: fromUnits(hi),
    ohlc: { open: fromUnits(bar.open), high: fromUnits(bar.high), low: fromUnits(bar.low), close: fromUnits(close) },
    depth: depth5(market, i),
  };
}

/** No depth: what `ltp` and `quote` packets are built from (they carry none). */
const NO_DEPTH = { buy: [], sell: [] } as const;

/**
 * The ticker's fields of `i` at market time `at` for a packet of `mode` (docs/kite.md §Ticker):
 * the same market as `/quote`. Only a `full` packet reads the book's levels, only `quote` and
 * `full` its totals and the day's bar: a tick costs what its packet carries.
 */
export function tickFields(market: Market, i: PaperInstrument, at: number, mode: PacketMode = 'full'): TickFields {
  const ltp = fromUnits(market.ltp(i.token));
  if (mode === 'ltp') {
    return {
      token: i.token,
      lastPrice: ltp,
      lastQuantity: 0,
      averagePrice: 0,
      volume: 0,
      buyQuantity: 0,
      sellQuantity: 0,
      open: 0,
      high: 0,
      low: 0,
      close: 0,
      lastTradeTime: 0,
      oi: 0,
      oiDayHigh: 0,
      oiDayLow: 0,
      exchangeTimestamp: 0,
      depth: NO_DEPTH,
    };
  }
  const bar = market.dayBar(i.token);
  const book = market.book(i.token);
  const oi = market.oi(i.token) ?? 0;
  const levels = (side: ReadonlyArray<Record<string, number>>): DepthLevel[] =>
    side.map((l) => ({ price: l.price ?? 0, quantity: l.quantity ?? 0, orders: l.orders ?? 0 }));
  const d = mode === 'full' ? depth5(market, i) : null;
  return {
    token: i.token,
    lastPrice: ltp,
    lastQuantity: 0,
    averagePrice: ltp,
    volume: market.volume(i.token),
    buyQuantity: book?.total('buy') ?? 0,
    sellQuantity: book?.total('sell') ?? 0,
    open: fromUnits(bar.open),
    high: fromUnits(bar.high),
    low: fromUnits(bar.low),
    close: fromUnits(market.changeBase(i.token, at)),
    lastTradeTime: bar.lastTradeAt === null ? 0 : Math.floor(bar.lastTradeAt / 1000),
    oi,
    oiDayHigh: oi,
    oiDayLow: oi,
    exchangeTimestamp: Math.floor(at / 1000),
    depth: d === null ? NO_DEPTH : { buy: levels(d.buy), sell: levels(d.sell) },
  };
}

/** Kite's GTT statuses for the broker's: a trigger the user deleted is `deleted` on Kite. */
const KITE_GTT_STATUS: Readonly<Record<PaperGtt['status'], string>> = {
  active: 'active',
  triggered: 'triggered',
  rejected: 'rejected',
  cancelled: 'deleted',
  expired: 'expired',
};

/** A GTT as `GET /gtt/triggers` lists it (docs/kite.md §GTT), fired legs with their `result`. */
export function kiteGtt(g: PaperGtt, userId: string): Record<string, unknown> {
  return {
    id: Number(g.gttId),
    user_id: userId || PAPER_USER_ID,
    parent_trigger: null,
    type: g.type === 'oco' ? 'two-leg' : 'single',
    created_at: kiteTime(g.createdAt),
    updated_at: kiteTime(g.updatedAt),
    expires_at: kiteTime(g.expiresAt),
    status: KITE_GTT_STATUS[g.status],
    condition: {
      exchange: g.exchange,
      last_price: fromUnits(g.ltpAtCreationUnits),
      tradingsymbol: g.tradingsymbol,
      trigger_values: g.triggerUnits.map(fromUnits),
      instrument_token: g.token,
    },
    orders: g.legs.map((l) => ({
      exchange: g.exchange,
      tradingsymbol: g.tradingsymbol,
      product: l.product,
      order_type: 'LIMIT',
      transaction_type: l.transactionType,
      quantity: l.quantity,
      price: fromUnits(l.priceUnits),
      result:
        l.orderId === null
          ? null
          : {
              account_id: userId || PAPER_USER_ID,
              exchange: g.exchange,
              tradingsymbol: g.tradingsymbol,
              validity: 'DAY',
              product: l.product,
              order_type: 'LIMIT',
              transaction_type: l.transactionType,
              quantity: l.quantity,
              price: fromUnits(l.priceUnits),
              meta: JSON.stringify({ gtt: Number(g.gttId) }),
              timestamp: kiteTime(g.fired?.at ?? g.updatedAt),
              triggered_at: g.fired ? fromUnits(g.fired.ltpUnits) : null,
              order_result: {
                status: l.orderStatus === 'REJECTED' ? 'failed' : 'success',
                order_id: l.orderId,
                rejection_reason: l.orderStatus === 'REJECTED' ? g.statusMessage : null,
              },
            },
    })),
    meta: null,
  };
}
