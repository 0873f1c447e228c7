import type { Order, OrderRequest } from '../domain/order';

/** BUY 1 INFY MARKET MIS: an order whose content is never the point (ledger, placement and contract tests). */
export const INFY_MARKET_BUY: OrderRequest = {
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  transactionType: 'BUY',
  quantity: 1,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
};

/** BUY 10 INFY LIMIT 1,450 MIS: an order that rests below a market at 1,500 (modify and cancel tests). */
export const INFY_RESTING_BUY: OrderRequest = { ...INFY_MARKET_BUY, quantity: 10, orderType: 'LIMIT', price: 1450 };

/** When the fixtures below were placed, filled or marked: 2026-11-23 10:30 IST, a Monday in session. */
export const FIXTURE_TIME = '2026-11-23T10:30:00+05:30';

/** An open LIMIT order as the broker reports it: BUY 10 SBIN at 800, nothing filled; tests override what they are about. */
export function anOrder(over: Partial<Order> = {}): Order {
  return {
    orderId: '260000000001',
    clientOrderId: null,
    exchange: 'NSE',
    tradingsymbol: 'SBIN',
    instrumentToken: 1,
    transactionType: 'BUY',
    quantity: 10,
    filledQuantity: 0,
    pendingQuantity: 10,
    cancelledQuantity: 0,
    orderType: 'LIMIT',
    product: 'MIS',
    validity: 'DAY',
    price: 800,
    triggerPrice: null,
    averagePrice: 0,
    status: 'OPEN',
    statusMessage: null,
    placedAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
    ...over,
  };
}
