import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { orderMessage } from './order-message';

/** The blotter's message column (docs/kite.md §Market protection). */

const ORDER: Order = {
  orderId: '260000000001',
  clientOrderId: null,
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  instrumentToken: 408065,
  transactionType: 'BUY',
  quantity: 50_000,
  filledQuantity: 1_200,
  pendingQuantity: 48_800,
  cancelledQuantity: 0,
  orderType: 'LIMIT',
  product: 'MIS',
  validity: 'DAY',
  price: 1534.5,
  triggerPrice: null,
  averagePrice: 1500.2,
  status: 'OPEN',
  statusMessage: null,
  placedAt: '2026-11-23T10:00:00+05:30',
  updatedAt: '2026-11-23T10:00:00+05:30',
};

describe('orderMessage', () => {
  it('a protected order resting says why it rests at a price the trader never typed', () => {
    expect(orderMessage({ ...ORDER, marketProtection: { percent: 2, automatic: false } }, 0.05)).toBe(
      'Market protection 2%: limit 1,534.50',
    );
    expect(orderMessage({ ...ORDER, price: 1_23_456.5, marketProtection: { percent: 3, automatic: true } }, 0.05)).toBe(
      'Market protection automatic 3%: limit 1,23,456.50',
    );
  });

  it('once it is done, or for any other order, the broker’s words: the exchange’s LPP cancellation among them', () => {
    const lpp =
      'The order was cancelled by the exchange because the price is outside the current allowed limit price protection range.';
    expect(
      orderMessage({
        ...ORDER,
        status: 'CANCELLED',
        statusMessage: lpp,
        marketProtection: { percent: 2, automatic: false },
      }),
    ).toBe(lpp);
    expect(orderMessage({ ...ORDER, statusMessage: 'Triggered at ₹1,500.00' })).toBe('Triggered at ₹1,500.00');
    expect(orderMessage(ORDER)).toBe('');
  });
});
