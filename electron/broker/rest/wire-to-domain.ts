import type { z } from 'zod';
import type { Instrument } from '@shared/domain/instrument';
import type {
  Candle,
  MarketDepth,
  MarketQuote,
  MarketStatus,
  OptionChain,
  OptionLeg,
  Tick,
} from '@shared/domain/market';
import type { Order, OrderAck, OrderEvent, Trade } from '@shared/domain/order';
import type { Funds, Holding, OrderMargin, Position } from '@shared/domain/portfolio';
import type {
  WireCandle,
  WireDepth,
  WireFunds,
  WireHolding,
  WireInstrument,
  WireMarketStatus,
  WireOptionChain,
  WireOptionLeg,
  WireOrder,
  WireOrderAck,
  WireOrderEvent,
  WireOrderMargin,
  WirePosition,
  WireQuote,
  WireTick,
  WireTrade,
} from '../../wire/rest-schemas';

/*
 * Wire (snake_case, docs/api.md) → domain (camelCase) mappings. Pure functions of already
 * parsed replies: the field spellings of the REST dialect live here and in rest-broker.ts only.
 */

/** Maps one order. */
export function toOrder(w: WireOrder): Order {
  return {
    orderId: w.order_id,
    clientOrderId: w.client_order_id,
    exchange: w.exchange,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    transactionType: w.transaction_type,
    quantity: w.quantity,
    filledQuantity: w.filled_quantity,
    pendingQuantity: w.pending_quantity,
    cancelledQuantity: w.cancelled_quantity,
    orderType: w.order_type,
    product: w.product,
    validity: w.validity,
    price: w.price,
    triggerPrice: w.trigger_price,
    averagePrice: w.average_price,
    status: w.status,
    statusMessage: w.status_message,
    ...(w.variety !== undefined ? { variety: w.variety } : {}),
    placedAt: w.placed_at,
    updatedAt: w.updated_at,
    ...(w.version !== undefined ? { version: w.version } : {}),
  };
}

/** Maps a place/modify/cancel acknowledgement. */
export function toOrderAck(w: WireOrderAck): OrderAck {
  return { orderId: w.order_id, clientOrderId: w.client_order_id ?? null, status: w.status };
}

/** Maps one history transition. */
export function toOrderEvent(w: z.output<typeof WireOrderEvent>): OrderEvent {
  return {
    status: w.status,
    at: w.at,
    filledQuantity: w.filled_quantity,
    averagePrice: w.average_price,
    message: w.message,
  };
}

/** Maps one fill. */
export function toTrade(w: z.output<typeof WireTrade>): Trade {
  return {
    tradeId: w.trade_id,
    orderId: w.order_id,
    exchange: w.exchange,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    transactionType: w.transaction_type,
    product: w.product,
    quantity: w.quantity,
    price: w.price,
    filledAt: w.filled_at,
  };
}

/** Maps one net position. */
export function toPosition(w: z.output<typeof WirePosition>): Position {
  return {
    exchange: w.exchange,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    product: w.product,
    quantity: w.quantity,
    overnightQuantity: w.overnight_quantity,
    multiplier: w.multiplier,
    averagePrice: w.average_price,
    closePrice: w.close_price,
    lastPrice: w.last_price,
    buyQuantity: w.buy_quantity,
    buyValue: w.buy_value,
    sellQuantity: w.sell_quantity,
    sellValue: w.sell_value,
    dayBuyQuantity: w.day_buy_quantity,
    dayBuyValue: w.day_buy_value,
    daySellQuantity: w.day_sell_quantity,
    daySellValue: w.day_sell_value,
    realisedPnl: w.realised_pnl,
    unrealisedPnl: w.unrealised_pnl,
    pnl: w.pnl,
    m2m: w.m2m,
  };
}

/** Maps one holding. */
export function toHolding(w: z.output<typeof WireHolding>): Holding {
  return {
    exchange: w.exchange,
    tradingsymbol: w.tradingsymbol,
    instrumentToken: w.instrument_token,
    quantity: w.quantity,
    averagePrice: w.average_price,
    lastPrice: w.last_price,
    pnl: w.pnl,
  };
}

/** Maps the funds summary. */
export function toFunds(w: z.output<typeof WireFunds>): Funds {
  const f = w.funds;
  return {
    availableCash: f.available_cash,
    usedMargin: f.used_margin,
    availableMargin: f.available_margin,
    openingBalance: f.opening_balance,
    realisedPnl: f.realised_pnl,
    unrealisedPnl: f.unrealised_pnl,
  };
}

/** Maps a margin estimate. */
export function toOrderMargin(w: z.output<typeof WireOrderMargin>): OrderMargin {
  return { total: w.margin.total, orderValue: w.margin.order_value, leverage: w.margin.leverage };
}

/** Maps one instrument. */
export function toInstrument(w: WireInstrument): Instrument {
  return {
    instrumentToken: w.instrument_token,
    exchange: w.exchange,
    tradingsymbol: w.tradingsymbol,
    name: w.name,
    segment: w.segment,
    instrumentType: w.instrument_type,
    lotSize: w.lot_size,
    tickSize: w.tick_size,
    freezeQuantity: w.freeze_quantity,
    multiplier: w.multiplier,
    expiry: w.expiry,
    strike: w.strike,
    lastPrice: w.last_price,
  };
}

/** Maps a `[ts, o, h, l, c, v]` row. */
export function toCandle(w: z.output<typeof WireCandle>): Candle {
  const [ts, open, high, low, close, volume] = w;
  return { ts, open, high, low, close, volume };
}

/** Maps a book's visible levels (the same shape on both sides of the wire). */
function toDepth(w: z.output<typeof WireDepth>): MarketDepth {
  return { buy: w.buy.map((l) => ({ ...l })), sell: w.sell.map((l) => ({ ...l })) };
}

/** Maps a stream tick; the fields of richer modes are carried only when the broker sent them. */
export function toTick(w: z.output<typeof WireTick>): Tick {
  return {
    instrumentToken: w.instrument_token,
    lastPrice: w.last_price,
    volume: w.volume,
    ts: w.ts,
    ...(w.bid !== undefined ? { bid: w.bid } : {}),
    ...(w.ask !== undefined ? { ask: w.ask } : {}),
    ...(w.net_change !== undefined ? { change: w.net_change } : {}),
    ...(w.depth !== undefined ? { depth: toDepth(w.depth) } : {}),
    ...(w.buy_quantity !== undefined ? { totalBuyQuantity: w.buy_quantity } : {}),
    ...(w.sell_quantity !== undefined ? { totalSellQuantity: w.sell_quantity } : {}),
    ...(w.oi !== undefined ? { oi: w.oi } : {}),
  };
}

/** Maps one full quote. */
export function toMarketQuote(w: WireQuote): MarketQuote {
  return {
    instrumentToken: w.instrument_token,
    exchange: w.exchange,
    tradingsymbol: w.tradingsymbol,
    lastPrice: w.last_price,
    lastTradeAt: w.last_trade_time,
    volume: w.volume,
    ohlc: { ...w.ohlc },
    previousClose: w.previous_close,
    change: w.net_change,
    changePercent: w.change_percent,
    bid: w.bid,
    ask: w.ask,
    depth: toDepth(w.depth),
    totalBuyQuantity: w.buy_quantity,
    totalSellQuantity: w.sell_quantity,
    lowerCircuit: w.lower_circuit_limit,
    upperCircuit: w.upper_circuit_limit,
    oi: w.oi,
    phase: w.session,
    ts: w.timestamp,
  };
}

/** Maps the market clock and sessions. */
export function toMarketStatus(w: WireMarketStatus): MarketStatus {
  return {
    now: w.now,
    simulated: w.simulated,
    speed: w.speed,
    exchanges: w.exchanges.map((e) => ({
      exchange: e.exchange,
      phase: e.phase,
      detail: e.detail,
      nextPreOpen: e.next_pre_open,
      nextOpen: e.next_open,
      nextClose: e.next_close,
    })),
  };
}

function toOptionLeg(w: WireOptionLeg | null): OptionLeg | null {
  if (w === null) return null;
  return {
    instrumentToken: w.instrument_token,
    tradingsymbol: w.tradingsymbol,
    lastPrice: w.last_price,
    change: w.net_change,
    oi: w.oi,
    oiChange: w.oi_change ?? null,
    iv: w.iv,
    delta: w.delta,
    bid: w.bid,
    ask: w.ask,
    volume: w.volume,
  };
}

/** Maps an option chain. */
export function toOptionChain(w: WireOptionChain): OptionChain {
  return {
    underlying: w.underlying,
    exchange: w.exchange,
    expiry: w.expiry,
    expiries: [...w.expiries],
    underlyingPrice: w.underlying_price,
    atmStrike: w.atm_strike,
    lotSize: w.lot_size,
    rows: w.strikes.map((r) => ({ strike: r.strike, call: toOptionLeg(r.call), put: toOptionLeg(r.put) })),
    ts: w.timestamp,
  };
}
