import { describe, expect, it } from 'vitest';
import type { Tick } from '@shared/domain/market';
import { anOrder } from '@shared/testing/order-fixtures';
import { applyTick, bucketOf, orderAtPrice, priceLinesOf, toBars, workingOf } from './candle-model';

const tick = (ts: string, lastPrice: number): Tick => ({ instrumentToken: 1, lastPrice, volume: 0, ts });
const IST_0915 = Date.parse('2026-11-23T09:15:00+05:30');

describe('candle model', () => {
  it('buckets on IST boundaries and labels bars in exchange time', () => {
    // 09:15 IST shown as 09:15 on a UTC axis.
    expect(new Date(bucketOf(IST_0915 + 42_000, 'minute') * 1000).toISOString()).toBe('2026-11-23T09:15:00.000Z');
    expect(new Date(bucketOf(IST_0915, '60minute') * 1000).toISOString()).toBe('2026-11-23T09:00:00.000Z');
    expect(new Date(bucketOf(IST_0915, 'day') * 1000).toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('turns candles into strictly rising bars', () => {
    const c = (ts: string, close: number) => ({ ts, open: close, high: close, low: close, close, volume: 5 });
    const bars = toBars(
      [c('2026-11-23T09:15:00+05:30', 10), c('2026-11-23T09:15:00+05:30', 11), c('2026-11-23T09:16:00+05:30', 12)],
      'minute',
    );
    expect(bars.map((b) => b.close)).toEqual([10, 12]);
  });

  it('moves the forming bar with a tick and opens a new one in the next bucket', () => {
    const first = applyTick(undefined, tick('2026-11-23T09:15:10+05:30', 100), 'minute', 0)!;
    const up = applyTick(first, tick('2026-11-23T09:15:20+05:30', 103), 'minute', 7)!;
    expect(up).toMatchObject({ time: first.time, open: 100, high: 103, low: 100, close: 103, volume: 7 });
    const next = applyTick(up, tick('2026-11-23T09:16:00+05:30', 99), 'minute', 2)!;
    expect(next).toMatchObject({ time: first.time + 60, open: 99, close: 99, volume: 2 });
    expect(applyTick(next, tick('2026-11-23T09:15:50+05:30', 1), 'minute', 0)).toBeNull();
  });

  it('reads a chart click as a LIMIT on the favourable side and an SL on the other', () => {
    expect(orderAtPrice('BUY', 98.03, 100, 0.05)).toEqual({ orderType: 'LIMIT', price: '98.05', triggerPrice: '' });
    expect(orderAtPrice('BUY', 102.02, 100, 0.05)).toEqual({ orderType: 'SL', price: '102', triggerPrice: '102' });
    expect(orderAtPrice('SELL', 102.02, 100, 0.05)).toMatchObject({ orderType: 'LIMIT' });
    expect(orderAtPrice('SELL', 98, 100, 0.05)).toMatchObject({ orderType: 'SL' });
    expect(orderAtPrice('BUY', -1, 100, 0.05)).toBeNull();
  });

  it('draws working orders at their price and trigger, and the position at its average', () => {
    const lines = priceLinesOf(
      [
        {
          orderId: 'a',
          transactionType: 'BUY',
          orderType: 'LIMIT',
          pendingQuantity: 10,
          price: 95,
          triggerPrice: null,
        },
        { orderId: 'b', transactionType: 'SELL', orderType: 'SL', pendingQuantity: 5, price: 90, triggerPrice: 91 },
      ],
      { quantity: -3, averagePrice: 101.5 },
    );
    expect(lines.map((l) => [l.id, l.price, l.kind])).toEqual([
      ['a:price', 95, 'buy'],
      ['b:price', 90, 'sell'],
      ['b:trigger', 91, 'trigger'],
      ['position', 101.5, 'position'],
    ]);
  });

  it('labels each line with its price in the decimals of the instrument’s tick', () => {
    const lines = priceLinesOf(
      [
        {
          orderId: 'a',
          transactionType: 'BUY',
          orderType: 'SL',
          pendingQuantity: 10,
          price: 1499.5,
          triggerPrice: 1499,
        },
      ],
      { quantity: 7, averagePrice: 870.6797 },
      0.05,
    );
    expect(lines.map((l) => l.label)).toEqual([
      'BUY 10 SL @ 1,499.50 · order a',
      'BUY 10 SL trigger 1,499.00 · order a',
      'Position +7 avg 870.68',
    ]);
  });
});

describe('the chart’s working orders', () => {
  const mine = anOrder({ orderId: 'mine', instrumentToken: 408065, tradingsymbol: 'INFY', price: 1400 });
  const other = anOrder({ orderId: 'other', instrumentToken: 2885, tradingsymbol: 'RELIANCE', price: 1300 });

  it('an order of another instrument changing leaves the same list, so the price lines are not drawn again', () => {
    const first = workingOf([mine, other], 408065, null);
    expect(first).toEqual([mine]);
    // The page's order book hands a new list with every change (a 10,000-order churn: 20 a second).
    expect(workingOf([mine, { ...other, price: 1290 }], 408065, first)).toBe(first);
    const filled = workingOf([{ ...mine, status: 'COMPLETE', pendingQuantity: 0 }, other], 408065, first);
    expect(filled).toEqual([]);
  });
});
