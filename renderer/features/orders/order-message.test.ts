import { describe, expect, it } from 'vitest';
import { CANCELLED_BY_BRACKET, type Bracket, type BracketChild } from '@shared/domain/bracket';
import type { Order } from '@shared/domain/order';
import { bracketCancelNotes, orderMessage } from './order-message';

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

describe('an order Tradedesk cancelled as the other half of a bracket', () => {
  const child = (orderId: string, status: BracketChild['status'], message: string | null): BracketChild => ({
    ref: 'tdb0000000000000000s1',
    order: {
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transactionType: 'SELL',
      quantity: 10,
      orderType: 'LIMIT',
      product: 'MIS',
      validity: 'DAY',
      price: 1600,
    } as BracketChild['order'],
    orderId,
    status,
    filled: status === 'filled' ? 10 : 0,
    averagePrice: 0,
    message,
    pending: null,
    failures: 0,
    retryAt: null,
    gen: 0,
  });
  const bracket = (stop: BracketChild, target: BracketChild, cancelRequested = false): Bracket =>
    ({ stop, target, entry: null, cancelRequested }) as unknown as Bracket;

  it('says Tradedesk cancelled it and why, instead of the broker’s "Cancelled by the user"', () => {
    const notes = bracketCancelNotes([
      bracket(child('s1', 'filled', null), child('t1', 'cancelled', CANCELLED_BY_BRACKET)),
      bracket(child('s2', 'cancelled', CANCELLED_BY_BRACKET), child('t2', 'cancelled', CANCELLED_BY_BRACKET), true),
      bracket(child('s3', 'working', null), child('t3', 'cancelled', 'Cancelled by the user')),
    ]);
    const cancelled = { ...ORDER, status: 'CANCELLED' as const, statusMessage: 'Cancelled by the user' };
    expect(orderMessage({ ...cancelled, orderId: 't1' }, 0.05, notes.get('t1'))).toBe(
      'Cancelled by Tradedesk: the stop-loss filled (bracket)',
    );
    expect(notes.get('s2')).toBe('Cancelled by Tradedesk: you cancelled the bracket (bracket)');
    // Cancelled from elsewhere (the trader in the blotter, the broker's site): the broker's words.
    expect(notes.has('t3')).toBe(false);
    expect(orderMessage({ ...cancelled, orderId: 't3' }, 0.05, notes.get('t3'))).toBe('Cancelled by the user');
  });
});
