import type { Order } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { beforeEach, describe, expect, it } from 'vitest';
import { KnownPositions } from './known-positions';

const RELIANCE = { exchange: 'NSE', tradingsymbol: 'RELIANCE', product: 'MIS' } as const;
const TCS = { exchange: 'NSE', tradingsymbol: 'TCS', product: 'MIS' } as const;

function position(
  key: typeof RELIANCE | typeof TCS,
  quantity: number,
  dayBuy = Math.max(quantity, 0),
  daySell = Math.max(-quantity, 0),
): Position {
  return {
    ...key,
    instrumentToken: key.tradingsymbol === 'RELIANCE' ? 738561 : 2953217,
    quantity,
    overnightQuantity: quantity - dayBuy + daySell,
    multiplier: 1,
    averagePrice: 100,
    closePrice: 100,
    lastPrice: 100,
    buyQuantity: dayBuy,
    buyValue: dayBuy * 100,
    sellQuantity: daySell,
    sellValue: daySell * 100,
    dayBuyQuantity: dayBuy,
    dayBuyValue: dayBuy * 100,
    daySellQuantity: daySell,
    daySellValue: daySell * 100,
    realisedPnl: 0,
    unrealisedPnl: 0,
    pnl: 0,
    m2m: 0,
  };
}

function order(id: string, side: 'BUY' | 'SELL', filled: number, key: typeof RELIANCE | typeof TCS = RELIANCE): Order {
  return {
    orderId: id,
    clientOrderId: null,
    ...key,
    instrumentToken: key.tradingsymbol === 'RELIANCE' ? 738561 : 2953217,
    transactionType: side,
    quantity: 100,
    filledQuantity: filled,
    pendingQuantity: 100 - filled,
    cancelledQuantity: 0,
    orderType: 'LIMIT',
    validity: 'DAY',
    price: 100,
    triggerPrice: null,
    averagePrice: filled > 0 ? 100 : 0,
    status: filled === 100 ? 'COMPLETE' : 'OPEN',
    statusMessage: null,
    placedAt: '2026-11-20T09:15:00+05:30',
    updatedAt: '2026-11-20T09:15:00+05:30',
  };
}

let now: number;
let complete: number | null;
let stream: boolean;
let known: KnownPositions;

beforeEach(() => {
  now = 1_000;
  complete = null;
  stream = false;
  known = new KnownPositions({ bookCompleteAsOf: () => complete, streamOpen: () => stream, now: () => now });
});

describe('KnownPositions', () => {
  it('is unknown, never zero, before any positions read, since the desk started', () => {
    now = 5_000;
    known.noteOrder(order('a', 'BUY', 25));
    expect(known.position(RELIANCE)).toMatchObject({ known: false, since: 1_000 });
    expect(known.account()).toMatchObject({ known: false, since: 1_000 });
  });

  it('keeps the latest fill main saw, at its own price and time: an older order cancelled later does not replace it', () => {
    now = 2_000;
    known.noteOrder({ ...order('a', 'BUY', 40), averagePrice: 120 });
    now = 3_000;
    known.noteOrder({ ...order('b', 'BUY', 10), averagePrice: 80 });
    expect(known.lastFill(RELIANCE)).toEqual({ price: 80, seenAt: 3_000 });
    // Order a's rest is cancelled (its broker timestamp is now the latest): no fill, nothing changes.
    now = 4_000;
    known.noteOrder({
      ...order('a', 'BUY', 40),
      averagePrice: 120,
      status: 'CANCELLED',
      updatedAt: '2026-11-20T09:16:00+05:30',
    });
    expect(known.lastFill(RELIANCE)).toEqual({ price: 80, seenAt: 3_000 });
    // When a's fills grow again, the new fills' own price counts (40 at 120, then 10 more: average 112 means 80).
    now = 5_000;
    known.noteOrder({ ...order('a', 'BUY', 50), averagePrice: 112 });
    expect(known.lastFill(RELIANCE)).toEqual({ price: 80, seenAt: 5_000 });
    expect(known.lastFill(TCS)).toBeNull();
  });

  it('counts a fill seen after the read while the book is live: a read of +25 and a 10 filled since is +35', () => {
    complete = 900;
    stream = true;
    // The book holds the order that bought the 25 (it lists every order of the day).
    known.noteOrder(order('a', 'BUY', 25));
    known.noteRead([position(RELIANCE, 25)], 2_000);
    now = 3_000;
    known.noteOrder(order('b', 'BUY', 10));
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 35, asOf: 3_000, live: true });
  });

  it('does not count twice a fill the read already held, even when the stream reports it late', () => {
    complete = 900;
    stream = true;
    // The read (began at 2,000) holds 25 bought by order a; the stream reports a's fill afterwards.
    known.noteRead([position(RELIANCE, 25)], 2_000);
    now = 2_500;
    known.noteOrder(order('a', 'BUY', 25));
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 25 });
  });

  it('keeps a position opened outside the desk that only the read shows, and nets the desk exit against it', () => {
    complete = 900;
    stream = true;
    known.noteRead([position(RELIANCE, 25)], 2_000);
    // The desk's exit sold 25 (the buy of 25 was placed elsewhere and the book also holds it).
    known.noteOrder(order('outside', 'BUY', 25));
    known.noteOrder(order('exit', 'SELL', 25));
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 0 });
  });

  it('knows a position the read did not list, when a fill on it came after the read and the book is live', () => {
    complete = 900;
    stream = true;
    known.noteRead([position(RELIANCE, 25)], 2_000);
    known.noteOrder(order('t', 'SELL', 40, TCS));
    expect(known.position(TCS)).toMatchObject({ known: true, quantity: -40 });
    expect(known.account()).toMatchObject({ known: true });
    expect(known.account().positions.map((p) => (p.known ? p.quantity : null))).toEqual([25, -40]);
  });

  it('counts an order once however many times it is reported, each fill only by what it adds', () => {
    complete = 900;
    stream = true;
    known.noteRead([], 2_000);
    known.noteOrder(order('a', 'BUY', 10));
    known.noteOrder(order('a', 'BUY', 30));
    known.noteOrder(order('a', 'BUY', 30));
    known.noteOrder(order('a', 'BUY', 20)); // an older report read late
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 30 });
  });

  it('keeps the quantity carried in from the previous day', () => {
    complete = 900;
    stream = true;
    // Long 50 overnight, sold 20 today by the time of the read: +30.
    known.noteRead([position(RELIANCE, 30, 0, 20)], 2_000);
    known.noteOrder(order('s', 'SELL', 20));
    known.noteOrder(order('s2', 'SELL', 30));
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 0 });
  });

  it('is unknown from the fill on, when the book may lack orders and a fill came after the read', () => {
    known.noteRead([position(RELIANCE, 25)], 2_000);
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 25, asOf: 2_000, live: false });
    now = 4_000;
    known.noteOrder(order('b', 'BUY', 10));
    expect(known.position(RELIANCE)).toMatchObject({ known: false, since: 4_000 });
    expect(known.account()).toMatchObject({ known: false, since: 4_000 });
    // A position without fills since stays as read.
    expect(known.position(TCS)).toMatchObject({ known: true, quantity: 0 });
    // The next complete read settles it.
    known.noteRead([position(RELIANCE, 35)], 5_000);
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 35, asOf: 5_000 });
  });

  it('is known up to when the book was complete, once the stream is closed', () => {
    known.noteRead([position(RELIANCE, 25)], 2_000);
    // A read of the book at 3,000 lists the order that bought the 25 and one that bought 10 since.
    complete = 3_000;
    known.noteOrder(order('a', 'BUY', 25));
    known.noteOrder(order('b', 'BUY', 10));
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 35, asOf: 3_000, live: false });
  });

  it('keeps the newest read when an older one comes back last', () => {
    known.noteRead([position(RELIANCE, 25)], 3_000);
    known.noteRead([position(RELIANCE, 10)], 2_000);
    expect(known.position(RELIANCE)).toMatchObject({ known: true, quantity: 25 });
  });

  it('says since when reads have been failing, until one succeeds', () => {
    known.noteReadFailed(2_000);
    known.noteReadFailed(3_000);
    expect(known.readFailingSince()).toBe(2_000);
    known.noteRead([], 4_000);
    expect(known.readFailingSince()).toBeNull();
  });

  it('tells its subscribers of each read and each new fill, not of a repeated report', () => {
    let told = 0;
    const off = known.onChange(() => (told += 1));
    known.noteRead([], 2_000);
    known.noteOrder(order('a', 'BUY', 10));
    known.noteOrder(order('a', 'BUY', 10));
    known.noteStream();
    expect(told).toBe(3);
    off();
    known.noteOrder(order('a', 'BUY', 20));
    expect(told).toBe(3);
  });
});
