import type { OrderRequest } from '@shared/domain/order';

/**
 * A LIMIT BUY of 1 NSE INFY, MIS, DAY at `price`, in the app's words: the order of the adapter
 * and conformance tests whenever the order itself is not the point.
 */
export const limitBuyInfy = (price: number): OrderRequest => ({
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  transactionType: 'BUY',
  quantity: 1,
  orderType: 'LIMIT',
  product: 'MIS',
  validity: 'DAY',
  price,
});
