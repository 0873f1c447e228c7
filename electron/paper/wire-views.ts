import { toIstIso } from '../../shared/lib/ist-time';
import { fromPaise } from '../../shared/trading/money';
import type { WireInstrument, WireOrder } from '../../shared/wire/schemas';
import { Account } from './account';
import type { Bar } from './candles';
import type { PaperInstrument } from './instruments';
import type { Market } from './market';
import type { Engine } from './matching';
import {
  type HistoryEntry,
  type PaperHolding,
  type PaperOrder,
  type PaperPosition,
  type PaperTrade,
  pendingOf,
} from './types';

/**
 * Internal records → the wire spellings of docs/api.md: rupees (from integer paise),
 * ISO times with +05:30, snake_case. The only place those spellings are produced.
 */

/** Average price in rupees, rounded to the paisa (an average need not sit on the tick grid). */
function average(valuePaise: number, quantity: number): number {
  return quantity > 0 ? fromPaise(valuePaise / quantity) : 0;
}

export function wireOrder(o: PaperOrder): WireOrder {
  return {
    order_id: o.orderId,
    client_order_id: o.clientOrderId,
    exchange: o.exchange,
    tradingsymbol: o.tradingsymbol,
    instrument_token: o.token,
    transaction_type: o.transactionType,
    quantity: o.quantity,
    filled_quantity: o.filled,
    pending_quantity: pendingOf(o),
    cancelled_quantity: o.cancelled,
    order_type: o.orderType,
    product: o.product,
    validity: o.validity,
    price: o.pricePaise === null ? null : fromPaise(o.pricePaise),
    trigger_price: o.triggerPaise === null ? null : fromPaise(o.triggerPaise),
    average_price: average(o.filledValuePaise, o.filled),
    status: o.status,
    status_message: o.statusMessage,
    placed_at: toIstIso(o.placedAt),
    updated_at: toIstIso(o.updatedAt),
    version: o.version,
  };
}

export function wireHistoryEntry(h: HistoryEntry): Record<string, unknown> {
  return {
    status: h.status,
    at: toIstIso(h.at),
    filled_quantity: h.filled,
    average_price: average(h.filledValuePaise, h.filled),
    message: h.message,
  };
}

export function wireTrade(t: PaperTrade): Record<string, unknown> {
  return {
    trade_id: t.tradeId,
    order_id: t.orderId,
    exchange: t.exchange,
    tradingsymbol: t.tradingsymbol,
    instrument_token: t.token,
    transaction_type: t.transactionType,
    product: t.product,
    quantity: t.quantity,
    price: fromPaise(t.pricePaise),
    filled_at: toIstIso(t.at),
  };
}

/** LTP for marking, falling back to the last fill when the instrument has expired. */
function markOf(market: Market, token: number, fallback: number): number {
  return market.ltp(token) || fallback;
}

export function wirePosition(p: PaperPosition, market: Market): Record<string, unknown> {
  const ltp = markOf(market, p.token, p.lastFillPaise);
  const unrealised = Account.unrealised(p, ltp);
  return {
    exchange: p.exchange,
    tradingsymbol: p.tradingsymbol,
    instrument_token: p.token,
    product: p.product,
    quantity: p.net,
    average_price: average(p.openCostPaise, Math.abs(p.net)),
    last_price: fromPaise(ltp),
    realised_pnl: fromPaise(p.realisedPaise),
    unrealised_pnl: fromPaise(unrealised),
    pnl: fromPaise(p.realisedPaise + unrealised),
    day_buy_quantity: p.buyQuantity,
    day_sell_quantity: p.sellQuantity,
  };
}

export function wireHolding(h: PaperHolding, market: Market): Record<string, unknown> {
  const ltp = markOf(market, h.token, h.lastFillPaise);
  return {
    exchange: h.exchange,
    tradingsymbol: h.tradingsymbol,
    instrument_token: h.token,
    quantity: h.quantity,
    average_price: average(h.costPaise, h.quantity),
    last_price: fromPaise(ltp),
    pnl: fromPaise(h.quantity * ltp - h.costPaise),
  };
}

export function wireFunds(engine: Engine, market: Market): Record<string, number> {
  const a = engine.account;
  let unrealised = 0;
  for (const p of a.positions.values()) unrealised += Account.unrealised(p, markOf(market, p.token, p.lastFillPaise));
  const used = engine.usedMarginPaise();
  return {
    available_cash: fromPaise(a.cashPaise),
    used_margin: fromPaise(used),
    available_margin: fromPaise(a.cashPaise - used),
    opening_balance: fromPaise(a.openingPaise),
    realised_pnl: fromPaise(a.realisedPaise),
    unrealised_pnl: fromPaise(unrealised),
  };
}

export function wireInstrument(i: PaperInstrument, market: Market): WireInstrument {
  return {
    instrument_token: i.token,
    exchange: i.exchange,
    tradingsymbol: i.tradingsymbol,
    name: i.name,
    segment: i.segment,
    instrument_type: i.instrumentType,
    lot_size: i.lotSize,
    tick_size: i.tickSize,
    freeze_quantity: i.freezeQuantity,
    expiry: i.expiry,
    strike: i.strike,
    last_price: fromPaise(market.ltp(i.token)),
  };
}

export function wireCandle(b: Bar): [string, number, number, number, number, number] {
  return [toIstIso(b[0]), fromPaise(b[1]), fromPaise(b[2]), fromPaise(b[3]), fromPaise(b[4]), b[5]];
}
