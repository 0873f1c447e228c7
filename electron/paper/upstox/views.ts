import type { Product } from '@shared/domain/order';
import type { Engine } from '../matching';
import type { Market } from '../market';
import type { PaperHolding, PaperOrder, PaperPosition, PaperTrade } from '../types';
import { kiteHistory, kiteHolding, kiteOrder, kitePositions, kiteSegmentMargins, kiteTrade } from '../kite/views';
import { PAPER_USER_ID } from '../sessions';
import { instrumentKey, paperIsin } from './keys';

/**
 * The /upstox dialect's views (docs/upstox.md §Orders, §Portfolio): Upstox's field names and
 * lower-case statuses, built on the Kite dialect's views of the same engine records, so every
 * dialect computes an average, a P&L or an order's history the same way.
 */

/** Upstox's products: `I` intraday, `D` delivery (equity) or carry-forward (F&O), `MTF` margin trading. */
export type UpstoxProduct = 'I' | 'D' | 'MTF';

/** What an order placed on /upstox carried beyond the engine's record. */
export interface UpstoxOrderExtras {
  readonly product: UpstoxProduct;
}

/** The engine's product of an Upstox product on an instrument (`D` is CNC on equity, NRML on a contract). */
export function engineProduct(p: UpstoxProduct, equity: boolean): Product {
  if (p === 'I') return 'MIS';
  return equity ? 'CNC' : 'NRML';
}

/** The Upstox product an engine order or position shows. */
export function upstoxProduct(p: Product, extras?: UpstoxOrderExtras): UpstoxProduct {
  if (extras) return extras.product;
  return p === 'MIS' ? 'I' : 'D';
}

type Fields = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** An order (or one step of its history) from the Kite dialect's view of it. */
function fromKite(k: Fields, o: PaperOrder, key: string, extras?: UpstoxOrderExtras): Fields {
  return {
    exchange: o.exchange,
    product: upstoxProduct(o.product, extras),
    price: num(k.price),
    quantity: num(k.quantity),
    status: String(k.status).toLowerCase(),
    guid: str(k.guid),
    tag: o.clientOrderId,
    instrument_token: key,
    placed_by: PAPER_USER_ID,
    tradingsymbol: o.tradingsymbol,
    trading_symbol: o.tradingsymbol,
    order_type: o.orderType,
    validity: o.validity,
    trigger_price: num(k.trigger_price),
    disclosed_quantity: 0,
    transaction_type: o.transactionType,
    average_price: num(k.average_price),
    filled_quantity: num(k.filled_quantity),
    pending_quantity: num(k.pending_quantity),
    status_message: str(k.status_message),
    status_message_raw: str(k.status_message_raw),
    exchange_order_id: str(k.exchange_order_id),
    parent_order_id: null,
    order_id: o.orderId,
    variety: 'SIMPLE',
    order_timestamp: str(k.order_timestamp),
    exchange_timestamp: str(k.exchange_timestamp),
    is_amo: o.variety === 'amo',
    order_request_id: '1',
    order_ref_id: o.orderId,
  };
}

/** An order as the order book and `GET /v2/order/details` show it. */
export function upstoxOrder(market: Market, o: PaperOrder, extras?: UpstoxOrderExtras): Fields {
  const i = market.instrument(o.token);
  return fromKite(kiteOrder(o), o, i ? instrumentKey(i) : String(o.token), extras);
}

/** An order's history, one entry per step (interim steps included, as Upstox lists them). */
export function upstoxHistory(market: Market, o: PaperOrder, extras?: UpstoxOrderExtras): Fields[] {
  const i = market.instrument(o.token);
  const key = i ? instrumentKey(i) : String(o.token);
  return kiteHistory(o).map((k) => fromKite(k, o, key, extras));
}

/** A fill as `GET /v2/order/trades/get-trades-for-day` lists it. */
export function upstoxTrade(
  market: Market,
  t: PaperTrade,
  o: PaperOrder | undefined,
  extras?: UpstoxOrderExtras,
): Fields {
  const k = kiteTrade(t, o);
  const i = market.instrument(t.token);
  return {
    exchange: t.exchange,
    product: upstoxProduct(t.product, extras),
    tradingsymbol: t.tradingsymbol,
    trading_symbol: t.tradingsymbol,
    instrument_token: i ? instrumentKey(i) : String(t.token),
    order_type: o?.orderType ?? 'MARKET',
    transaction_type: t.transactionType,
    quantity: t.quantity,
    exchange_order_id: str(k.exchange_order_id),
    order_id: t.orderId,
    exchange_timestamp: str(k.exchange_timestamp),
    average_price: num(k.average_price),
    trade_id: t.tradeId,
    order_ref_id: o?.clientOrderId ?? null,
    order_timestamp: str(k.order_timestamp),
  };
}

/** `GET /v2/portfolio/short-term-positions`: every position of the day, carried ones included. */
export function upstoxPositions(positions: Iterable<PaperPosition>, market: Market, now: number): Fields[] {
  const all = [...positions];
  const net = kitePositions(all, market, now).net as Fields[];
  return net.map((k, n) => {
    const p = all[n] as PaperPosition;
    const i = market.instrument(p.token);
    return {
      exchange: p.exchange,
      multiplier: p.multiplier,
      value: num(k.value),
      pnl: num(k.pnl),
      product: upstoxProduct(p.product),
      instrument_token: i ? instrumentKey(i) : String(p.token),
      average_price: num(k.average_price),
      buy_value: num(k.buy_value),
      overnight_quantity: p.overnight,
      day_buy_value: num(k.day_buy_value),
      day_buy_price: num(k.day_buy_price),
      overnight_buy_amount: 0,
      overnight_buy_quantity: Math.max(0, p.overnight),
      day_buy_quantity: p.dayBuyQuantity,
      day_sell_value: num(k.day_sell_value),
      day_sell_price: num(k.day_sell_price),
      overnight_sell_amount: 0,
      overnight_sell_quantity: Math.max(0, -p.overnight),
      day_sell_quantity: p.daySellQuantity,
      quantity: p.net,
      last_price: num(k.last_price),
      unrealised: num(k.unrealised),
      realised: num(k.realised),
      sell_value: num(k.sell_value),
      trading_symbol: p.tradingsymbol,
      tradingsymbol: p.tradingsymbol,
      close_price: num(k.close_price),
      buy_price: num(k.buy_price),
      sell_price: num(k.sell_price),
    };
  });
}

/** A delivery holding as `GET /v2/portfolio/long-term-holdings` lists it. */
export function upstoxHolding(h: PaperHolding, market: Market, now: number): Fields {
  const k = kiteHolding(h, market, now);
  const i = market.instrument(h.token);
  return {
    isin: i ? paperIsin(i) : '',
    cnc_used_quantity: 0,
    collateral_type: 'WC',
    company_name: i?.name ?? h.tradingsymbol,
    haircut: 0,
    product: 'D',
    quantity: h.quantity,
    tradingsymbol: h.tradingsymbol,
    trading_symbol: h.tradingsymbol,
    last_price: num(k.last_price),
    close_price: num(k.close_price),
    pnl: num(k.pnl),
    day_change: num(k.day_change),
    day_change_percentage: num(k.day_change_percentage),
    instrument_token: i ? instrumentKey(i) : String(h.token),
    average_price: num(k.average_price),
    collateral_quantity: 0,
    collateral_update_quantity: 0,
    t1_quantity: 0,
    exchange: h.exchange,
  };
}

/** `GET /v2/user/get-funds-and-margin`: the paper account's one cash pool, under both segments. */
export function upstoxFunds(engine: Engine, market: Market): Fields {
  const k = kiteSegmentMargins(engine, market);
  const available = k.available as Fields;
  const utilised = k.utilised as Fields;
  const segment = {
    used_margin: num(utilised.debits),
    payin_amount: num(available.intraday_payin),
    span_margin: num(utilised.span),
    adhoc_margin: num(available.adhoc_margin),
    notional_cash: 0,
    available_margin: num(k.net),
    exposure_margin: num(utilised.exposure),
  };
  return { equity: segment, commodity: segment };
}
