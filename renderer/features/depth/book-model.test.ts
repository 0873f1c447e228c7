import { describe, expect, it } from 'vitest';
import { INFY_DEPTH } from '@shared/testing/market-fixtures';
import { latestBook, marketImpact, spreadOf, type Book } from './book-model';

const book = (ts: string, over: Partial<Book> = {}): Book => ({
  bid: 1499.95,
  ask: 1500.05,
  depth: INFY_DEPTH,
  totalBuyQuantity: 11_874,
  totalSellQuantity: 12_406,
  ts,
  ...over,
});

describe('latestBook', () => {
  it('shows a tick newer than the last read, and never lets a late read move the ladder back', () => {
    const read = book('2026-11-23T10:41:27+05:30');
    const tick = book('2026-11-23T10:41:28+05:30', { bid: 1500, ask: 1500.1, totalBuyQuantity: 9_000 });
    expect(latestBook(tick, read)).toMatchObject({ bid: 1500, ask: 1500.1, totalBuyQuantity: 9_000 });
    const lateRead = book('2026-11-23T10:41:26+05:30', { bid: 1400 });
    expect(latestBook(tick, lateRead)?.bid).toBe(1500);
  });

  it('takes the touch from a newer quote-mode tick but keeps the ladder of the read that has one', () => {
    const read = book('2026-11-23T10:41:27+05:30');
    const quoteTick = book('2026-11-23T10:41:29+05:30', {
      bid: 1500.5,
      ask: 1500.6,
      depth: null,
      totalBuyQuantity: null,
      totalSellQuantity: null,
    });
    const shown = latestBook(quoteTick, read);
    expect(shown).toMatchObject({ bid: 1500.5, ask: 1500.6, depth: INFY_DEPTH, totalBuyQuantity: 11_874 });
  });

  it('is the one source known when the other is not', () => {
    const read = book('2026-11-23T10:41:27+05:30');
    expect(latestBook(null, read)).toBe(read);
    expect(latestBook(read, null)).toBe(read);
    expect(latestBook(null, null)).toBeNull();
  });
});

describe('spreadOf', () => {
  it('says a one-tick CDS spread is ₹0.0025 and 1 tick, not 0.00', () => {
    expect(spreadOf(83.25, 83.2525, 0.0025)).toEqual({ abs: 0.0025, ticks: 1 });
  });

  it('counts ticks exactly where floats would not (1500.05 − 1499.95 on ₹0.05)', () => {
    expect(spreadOf(1499.95, 1500.05, 0.05)).toEqual({ abs: 0.1, ticks: 2 });
  });

  it('has no spread while a side is empty (a price at its circuit limit)', () => {
    expect(spreadOf(1499.95, null, 0.05)).toBeNull();
  });
});

describe('marketImpact', () => {
  it('fills a buy inside the best offer at the touch, over one level', () => {
    expect(marketImpact(INFY_DEPTH, 'BUY', 200)).toMatchObject({
      side: 'ask',
      fillable: 200,
      levels: 1,
      averagePrice: 1500.05,
      worst: 1500.05,
      exceedsVisible: false,
    });
  });

  it('walks a buy larger than the best offer up the levels, to a worse average than the touch', () => {
    // 297 at 1500.05, 470 at 1500.10, 33 at 1500.15: ₹12,00,066.80 for 800 → 1500.0835.
    const impact = marketImpact(INFY_DEPTH, 'BUY', 800);
    expect(impact).toMatchObject({ fillable: 800, levels: 3, touch: 1500.05, worst: 1500.15 });
    expect(impact.averagePrice).toBe(1500.0835);
  });

  it('takes a sell from the bids, downwards', () => {
    expect(marketImpact(INFY_DEPTH, 'SELL', 500)).toMatchObject({ side: 'bid', levels: 2, worst: 1499.9 });
  });

  it('says a MARKET order is larger than everything visible on the side it takes', () => {
    const impact = marketImpact(INFY_DEPTH, 'SELL', 5_000);
    expect(impact).toMatchObject({ visible: 3548, fillable: 3548, levels: 5, exceedsVisible: true });
  });

  it('fills nothing from an empty side', () => {
    expect(marketImpact({ buy: INFY_DEPTH.buy, sell: [] }, 'BUY', 1)).toMatchObject({
      fillable: 0,
      averagePrice: null,
      touch: null,
      exceedsVisible: true,
    });
  });
});
