import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { toUnits } from '@shared/trading/money';
import {
  clickOrder,
  dragChanges,
  halfRowsFor,
  ladderPrices,
  ordersByPrice,
  outsideMiddleThird,
  visibleRows,
} from './ladder-model';

const INFY = { exchange: 'NSE' as const, tradingsymbol: 'INFY' };
const TOUCH = { bid: 1499.95, ask: 1500.05, last: 1500 };

function order(over: Partial<Order>): Order {
  return {
    orderId: 'o1',
    clientOrderId: null,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    instrumentToken: 408065,
    transactionType: 'BUY',
    quantity: 2,
    filledQuantity: 0,
    pendingQuantity: 2,
    cancelledQuantity: 0,
    orderType: 'LIMIT',
    product: 'MIS',
    validity: 'DAY',
    price: 1499.5,
    triggerPrice: null,
    averagePrice: 0,
    status: 'OPEN',
    statusMessage: null,
    placedAt: '2026-11-27T04:00:00.000Z',
    updatedAt: '2026-11-27T04:00:00.000Z',
    ...over,
  };
}

describe('the ladder column', () => {
  it('is one tick a row around the centre, highest first, snapped to the tick', () => {
    const p = ladderPrices(1500.02, 0.05, 2);
    expect(p).toEqual([1500.1, 1500.05, 1500, 1499.95, 1499.9].map(toUnits));
  });

  it('never shows a price at or below zero', () => {
    expect(ladderPrices(0.1, 0.05, 3)).toEqual([0.25, 0.2, 0.15, 0.1, 0.05].map(toUnits));
  });
});

describe('what a click sends', () => {
  it.each([
    ['bid', 1499.9, 'BUY', 'LIMIT', null],
    ['bid', 1500.05, 'BUY', 'LIMIT', null], // at the offer: a limit that takes it
    ['bid', 1500.2, 'BUY', 'SL', 1500.2], // above the offer: a stop that wakes there
    ['offer', 1500.2, 'SELL', 'LIMIT', null],
    ['offer', 1499.95, 'SELL', 'LIMIT', null],
    ['offer', 1499.8, 'SELL', 'SL', 1499.8], // below the bid
  ] as const)('%s side at %d → %s %s (trigger %s)', (side, price, tx, type, trigger) => {
    const o = clickOrder(side, toUnits(price), TOUCH, 3, 'MIS', INFY);
    expect(o).toEqual({
      exchange: 'NSE',
      tradingsymbol: 'INFY',
      transactionType: tx,
      quantity: 3,
      orderType: type,
      product: 'MIS',
      validity: 'DAY',
      price,
      triggerPrice: trigger,
    });
  });

  it('with no book, the last price decides which side of the market a row is', () => {
    const none = { bid: null, ask: null, last: 1500 };
    expect(clickOrder('bid', toUnits(1500.5), none, 1, 'CNC', INFY).orderType).toBe('SL');
    expect(clickOrder('bid', toUnits(1499.5), none, 1, 'CNC', INFY).orderType).toBe('LIMIT');
  });
});

describe('working orders on the ladder', () => {
  it('sit at a limit price, a stop at its trigger; finished orders and other instruments are left out', () => {
    const at = ordersByPrice(
      [
        order({ orderId: 'a' }),
        order({ orderId: 'b', orderType: 'SL', price: 1501, triggerPrice: 1500.5, transactionType: 'SELL' }),
        order({ orderId: 'c', status: 'CANCELLED' }),
        order({ orderId: 'd', instrumentToken: 1 }),
        order({ orderId: 'e', orderType: 'MARKET', price: null }),
      ],
      408065,
    );
    expect([...at.entries()]).toEqual([
      [toUnits(1499.5), [{ orderId: 'a', side: 'BUY', pending: 2, orderType: 'LIMIT' }]],
      [toUnits(1500.5), [{ orderId: 'b', side: 'SELL', pending: 2, orderType: 'SL' }]],
    ]);
  });

  it('a drag moves a limit’s price, a stop’s trigger and its limit by the same amount, and nothing to its own row', () => {
    expect(dragChanges(order({}), toUnits(1499.4))).toEqual({ price: 1499.4 });
    expect(dragChanges(order({ orderType: 'SL-M', price: null, triggerPrice: 1490 }), toUnits(1489))).toEqual({
      triggerPrice: 1489,
    });
    expect(dragChanges(order({ orderType: 'SL', price: 1491, triggerPrice: 1490 }), toUnits(1489.5))).toEqual({
      triggerPrice: 1489.5,
      price: 1490.5,
    });
    expect(dragChanges(order({}), toUnits(1499.5))).toBeNull();
  });
});

describe('the ladder fills its height and follows the price', () => {
  it('has rows to fill a tall view and scroll a screen either way', () => {
    expect(visibleRows(420, 21)).toBe(20);
    expect(halfRowsFor(visibleRows(420, 21))).toBe(20);
    // A pop-out 1,000 px tall: 47 rows in view, 47 either side of the centre (41 before).
    expect(halfRowsFor(visibleRows(1000, 21))).toBe(47);
    expect(ladderPrices(1500, 0.05, halfRowsFor(47))).toHaveLength(95);
  });

  it('recentres once the price leaves the middle third of the view, not before', () => {
    const tick = toUnits(0.05);
    const centre = toUnits(1500);
    // 21 rows in view: the middle third is 3 ticks either side of the centre.
    expect(outsideMiddleThird(centre, centre + 3 * tick, tick, 21)).toBe(false);
    expect(outsideMiddleThird(centre, centre + 4 * tick, tick, 21)).toBe(true);
    expect(outsideMiddleThird(centre, centre - 80 * tick, tick, 21)).toBe(true);
  });
});
