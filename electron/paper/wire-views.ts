import { toIstIso } from '@shared/lib/ist-time';
import { fromUnits } from '@shared/trading/money';
import type { WireGtt, WireInstrument, WireOrder, WirePosition } from '../wire/rest-schemas';
import { Account } from './account';
import type { Bar } from './candles';
import type { PaperGtt } from './gtt';
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
 * Internal records → the wire spellings of docs/api.md: rupees (from integer units of ₹0.0001),
 * ISO times with +05:30, snake_case. The only place those spellings are produced.
 */

/** Average price in rupees, rounded to ₹0.0001 (an average need not sit on the tick grid). */
function average(valueUnits: number, quantity: number): number {
  return quantity > 0 ? fromUnits(valueUnits / quantity) : 0;
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
    price: o.priceUnits === null ? null : fromUnits(o.priceUnits),
    trigger_price: o.triggerUnits === null ? null : fromUnits(o.triggerUnits),
    average_price: average(o.filledValueUnits, o.filled),
    status: o.status,
    status_message: o.statusMessage,
    variety: o.variety,
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
    average_price: average(h.filledValueUnits, h.filled),
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
    price: fromUnits(t.priceUnits),
    filled_at: toIstIso(t.at),
  };
}

/** LTP for marking, falling back to the last fill when the instrument has expired. */
function markOf(market: Market, token: number, fallback: number): number {
  return market.ltp(token) || fallback;
}

/**
 * One of the day's positions on IST date `day` (docs/api.md §Margins, positions, holdings,
 * funds): the exact values P&L is made of, and P&L and m2m computed from them.
 */
export function wirePosition(p: PaperPosition, market: Market, day: string): WirePosition {
  const ltp = markOf(market, p.token, p.lastFillUnits);
  const close = market.closeOf(p.token, day) || ltp;
  return {
    exchange: p.exchange,
    tradingsymbol: p.tradingsymbol,
    instrument_token: p.token,
    product: p.product,
    quantity: p.net,
    overnight_quantity: p.overnight,
    multiplier: p.multiplier,
    average_price: average(p.openCostUnits / p.multiplier, Math.abs(p.net)),
    close_price: fromUnits(close),
    last_price: fromUnits(ltp),
    buy_quantity: p.buyQuantity,
    buy_value: fromUnits(p.buyValueUnits),
    sell_quantity: p.sellQuantity,
    sell_value: fromUnits(p.sellValueUnits),
    day_buy_quantity: p.dayBuyQuantity,
    day_buy_value: fromUnits(p.dayBuyValueUnits),
    day_sell_quantity: p.daySellQuantity,
    day_sell_value: fromUnits(p.daySellValueUnits),
    realised_pnl: fromUnits(p.realisedUnits),
    unrealised_pnl: fromUnits(Account.unrealised(p, ltp)),
    pnl: fromUnits(Account.pnl(p, ltp)),
    m2m: fromUnits(Account.m2m(p, ltp, close)),
  };
}

export function wireHolding(h: PaperHolding, market: Market): Record<string, unknown> {
  const ltp = markOf(market, h.token, h.lastFillUnits);
  return {
    exchange: h.exchange,
    tradingsymbol: h.tradingsymbol,
    instrument_token: h.token,
    quantity: h.quantity,
    average_price: average(h.costUnits, h.quantity),
    last_price: fromUnits(ltp),
    pnl: fromUnits(h.quantity * ltp - h.costUnits),
  };
}

export function wireFunds(engine: Engine, market: Market): Record<string, number> {
  const a = engine.account;
  let unrealised = 0;
  for (const p of a.positions.values()) unrealised += Account.unrealised(p, markOf(market, p.token, p.lastFillUnits));
  const used = engine.usedMarginUnits();
  return {
    available_cash: fromUnits(a.cashUnits),
    used_margin: fromUnits(used),
    available_margin: fromUnits(a.cashUnits - used),
    opening_balance: fromUnits(a.openingUnits),
    realised_pnl: fromUnits(a.realisedUnits),
    unrealised_pnl: fromUnits(unrealised),
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
    multiplier: i.multiplier,
    expiry: i.expiry,
    strike: i.strike,
    last_price: fromUnits(market.ltp(i.token)),
  };
}

export function wireCandle(b: Bar): [string, number, number, number, number, number] {
  return [toIstIso(b[0]), fromUnits(b[1]), fromUnits(b[2]), fromUnits(b[3]), fromUnits(b[4]), b[5]];
}

/** A stored GTT in the wire's spelling (docs/api.md §GTT). */
export function wireGtt(g: PaperGtt): WireGtt {
  return {
    gtt_id: g.gttId,
    client_gtt_id: g.clientGttId,
    type: g.type,
    status: g.status,
    exchange: g.exchange,
    tradingsymbol: g.tradingsymbol,
    instrument_token: g.token,
    trigger_values: g.triggerUnits.map(fromUnits),
    last_price: fromUnits(g.ltpAtCreationUnits),
    orders: g.legs.map((l) => ({
      transaction_type: l.transactionType,
      quantity: l.quantity,
      product: l.product,
      order_type: 'LIMIT' as const,
      price: fromUnits(l.priceUnits),
      order_id: l.orderId,
      order_status: l.orderStatus,
    })),
    created_at: toIstIso(g.createdAt),
    updated_at: toIstIso(g.updatedAt),
    expires_at: toIstIso(g.expiresAt),
    status_message: g.statusMessage,
  };
}
