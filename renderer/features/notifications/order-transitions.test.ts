import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { toastFor } from './order-transitions';

const FILLED: Order = {
  orderId: '260000000042',
  clientOrderId: null,
  exchange: 'NSE',
  tradingsymbol: 'SBIN',
  instrumentToken: 779521,
  transactionType: 'BUY',
  quantity: 500,
  filledQuantity: 500,
  pendingQuantity: 0,
  cancelledQuantity: 0,
  orderType: 'MARKET',
  product: 'MIS',
  validity: 'DAY',
  price: null,
  triggerPrice: null,
  averagePrice: 870.6797,
  status: 'COMPLETE',
  statusMessage: null,
  placedAt: '2026-11-23T10:00:00+05:30',
  updatedAt: '2026-11-23T10:00:01+05:30',
};

describe('the fill toast', () => {
  it('gives the average price in the decimals of the instrument’s tick, not the average’s own four', () => {
    expect(toastFor(FILLED, 'OPEN', 0.05)?.detail).toBe('at 870.68 · order 260000000042');
  });
});
