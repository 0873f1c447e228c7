import type { OrderRequest } from '../domain/order';

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
