import type { OrderRequest } from '@shared/domain/order';

/** BUY 1 INFY MARKET MIS: the order the ledger and placement tests journal (its content is never the point). */
export const INFY_MARKET_BUY: OrderRequest = {
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  transactionType: 'BUY',
  quantity: 1,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
};
