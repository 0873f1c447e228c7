import { describe, expect, it } from 'vitest';
import type { Order, Trade } from '@shared/domain/order';
import type { Position } from '@shared/domain/portfolio';
import { anOrder } from '@shared/testing/order-fixtures';
import { positionOf } from '@shared/testing/portfolio-fixtures';
import { compareDrift, tradingDay, type BrokerSnapshot, type DeskPlacement, type DeskView } from './drift-rules';

const T = '2026-11-23T10:30:00+05:30';

function order(orderId: string, clientOrderId: string | null, over: Partial<Order> = {}): Order {
  return anOrder({ orderId, clientOrderId, placedAt: T, updatedAt: T, ...over });
}

function trade(orderId: string, quantity: number, over: Partial<Trade> = {}): Trade {
  return {
    tradeId: `t-${orderId}-${quantity}`,
    orderId,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    instrumentToken: 2,
    transactionType: 'BUY',
    product: 'MIS',
    quantity,
    price: 1500,
    filledAt: T,
    ...over,
  };
}

function position(tradingsymbol: string, quantity: number, overnightQuantity = 0): Position {
  return positionOf({
    tradingsymbol,
    instrumentToken: 3,
    quantity,
    overnightQuantity,
    averagePrice: 100,
    closePrice: 100,
    lastPrice: 100,
  });
}

function snapshot(over: Partial<BrokerSnapshot>): BrokerSnapshot {
  const trades = over.tradesAfter ?? over.tradesBefore ?? [];
  return {
    orders: [],
    positions: [],
    tradesBefore: trades,
    tradesAfter: trades,
    startedAt: 1_000,
    day: '2026-11-23',
    gttOrders: new Set(),
    ...over,
  };
}

function desk(
  over: Partial<DeskView> & { refs?: string[]; filled?: Record<string, number>; absent?: string[] } = {},
): DeskView {
  const refs = new Set(over.refs ?? []);
  const filled = over.filled ?? {};
  return {
    ownsReference: (r) => r !== null && refs.has(r),
    toldAbsent: (r) => r !== null && (over.absent ?? []).includes(r),
    placed: over.placed ?? [],
    seenFilled: (id) => filled[id],
    opening: over.opening ?? (() => 0),
  };
}

const placement = (orderId: string, at: number): DeskPlacement => ({
  orderId,
  clientOrderId: `td-${orderId}`,
  exchange: 'NSE',
  tradingsymbol: 'TCS',
  at,
});

describe('compareDrift: each kind of drift, and no false alarm', () => {
  it.each([
    {
      title: 'an order whose reference this desk never journaled is named as placed outside Tradedesk',
      snap: snapshot({ orders: [order('260000000007', 'other-terminal-1')] }),
      view: desk({ refs: ['td-a'] }),
      messages: ['Order 260000000007 for SBIN (BUY 10) was placed outside Tradedesk'],
    },
    {
      title: 'an order with no reference at all is placed outside Tradedesk',
      snap: snapshot({ orders: [order('260000000008', null)] }),
      view: desk(),
      messages: ['Order 260000000008 for SBIN (BUY 10) was placed outside Tradedesk'],
    },
    {
      title: 'an order a GTT placed when it fired (the GTT list names it) raises nothing',
      snap: snapshot({ orders: [order('260000000010', 'gtt-7000001-0')], gttOrders: new Set(['260000000010']) }),
      view: desk(),
      messages: [],
    },
    {
      title: 'an order carrying a reference the desk journaled but reported as not placed is named, with the reference',
      snap: snapshot({ orders: [order('260000000011', 'td-gone')] }),
      view: desk({ refs: ['td-gone'], absent: ['td-gone'] }),
      messages: [
        'Order 260000000011 for SBIN (BUY 10) carries reference td-gone, which Tradedesk reported as not placed',
      ],
    },
    {
      title: 'an order the desk journaled raises nothing',
      snap: snapshot({ orders: [order('260000000009', 'td-a')] }),
      view: desk({ refs: ['td-a'] }),
      messages: [],
    },
    {
      title: 'an order the desk placed before the reads began that the broker does not list is missing',
      snap: snapshot({ startedAt: 1_000 }),
      view: desk({ placed: [placement('260000000010', 900)] }),
      messages: ["Order 260000000010 for TCS, placed by Tradedesk, is not in the broker's order book"],
    },
    {
      title: 'an order placed after the reads began is not looked for in them (in flight)',
      snap: snapshot({ startedAt: 1_000 }),
      view: desk({ placed: [placement('260000000011', 1_000)] }),
      messages: [],
    },
    {
      title: 'trades filling more of an order than the desk saw are a fill not seen by Tradedesk',
      snap: snapshot({
        orders: [order('260000000012', 'td-b')],
        tradesAfter: [trade('260000000012', 50), trade('260000000012', 25)],
        positions: [position('INFY', 75)],
      }),
      view: desk({ refs: ['td-b'], filled: { '260000000012': 25 } }),
      messages: [
        "Fill of 50 INFY on order 260000000012 not seen by Tradedesk (broker's trades: 75 filled; Tradedesk saw 25)",
      ],
    },
    {
      title: 'a fill that arrives between the two tradebook reads is not judged on this check',
      snap: snapshot({
        orders: [order('260000000013', 'td-b')],
        tradesBefore: [],
        tradesAfter: [trade('260000000013', 50)],
        positions: [position('INFY', 50)],
      }),
      view: desk({ refs: ['td-b'], filled: {} }),
      messages: [],
    },
    {
      title: 'a position that is not the sum of its fills names both figures',
      snap: snapshot({
        tradesAfter: [trade('a', 20, { tradingsymbol: 'RELIANCE' })],
        positions: [position('RELIANCE', 30)],
      }),
      view: desk({ filled: { a: 20 } }),
      messages: ['RELIANCE (MIS) position: broker says 30, fills add up to 20'],
    },
    {
      title: 'the opening position counts towards what the fills should add up to',
      snap: snapshot({
        tradesAfter: [trade('a', 20, { tradingsymbol: 'RELIANCE', transactionType: 'SELL' })],
        positions: [position('RELIANCE', 10, 30)],
      }),
      view: desk({ filled: { a: 20 }, opening: (k) => (k === 'NSE:RELIANCE:MIS' ? 30 : 0) }),
      messages: [],
    },
    {
      title: 'fills with no position at the broker are a drift of the position to 0',
      snap: snapshot({ tradesAfter: [trade('a', 20, { tradingsymbol: 'RELIANCE' })] }),
      view: desk({ filled: { a: 20 }, opening: () => 5 }),
      messages: ['RELIANCE (MIS) position: broker says 0, opening 5 plus fills add up to 25'],
    },
    {
      title: "a fill of an earlier day is in the opening position already, not added to today's fills",
      snap: snapshot({
        tradesAfter: [
          trade('y', 10, { tradingsymbol: 'RELIANCE', filledAt: '2026-11-20T14:00:00+05:30' }),
          trade('a', 5, { tradingsymbol: 'RELIANCE' }),
        ],
        positions: [position('RELIANCE', 15, 10)],
      }),
      view: desk({ filled: { a: 5 }, opening: () => 10 }),
      messages: [],
    },
    {
      title: 'an order placed elsewhere on an earlier day that no longer works is not judged; one still working is',
      snap: snapshot({
        orders: [
          order('250000000001', null, { status: 'COMPLETE', updatedAt: '2026-11-20T15:20:00+05:30' }),
          order('250000000002', null, { status: 'AMO REQ RECEIVED', updatedAt: '2026-11-20T18:00:00+05:30' }),
        ],
      }),
      view: desk(),
      messages: ['Order 250000000002 for SBIN (BUY 10) was placed outside Tradedesk'],
    },
  ])('$title', ({ snap, view, messages }) => {
    expect(compareDrift(snap, view).map((o) => o.message)).toEqual(messages);
  });

  it("the trading day is the market clock's, or the later day the broker's fills and orders carry (a local clock behind a simulated one)", () => {
    expect(tradingDay('2026-11-23T10:31:00+05:30', [trade('a', 1)], [order('1', null)])).toBe('2026-11-23');
    // 23:00 UTC on the 23rd is already the 24th in IST.
    expect(tradingDay('2026-11-23T23:00:00Z', [], [])).toBe('2026-11-24');
    expect(
      tradingDay('2026-11-24T04:35:00+05:30', [trade('a', 2, { filledAt: '2026-11-25T09:15:21+05:30' })], []),
    ).toBe('2026-11-25');
    expect(
      tradingDay('2026-11-24T04:35:00+05:30', [], [order('1', null, { updatedAt: '2026-11-25T09:15:00+05:30' })]),
    ).toBe('2026-11-25');
  });

  it('the same drift keeps its id from check to check, and other figures make another id', () => {
    const view = desk({ filled: { a: 20 } });
    const at = (held: number) =>
      compareDrift(
        snapshot({
          tradesAfter: [trade('a', 20, { tradingsymbol: 'RELIANCE' })],
          positions: [position('RELIANCE', held)],
        }),
        view,
      ).map((o) => o.id);
    expect(at(30)).toEqual(at(30));
    expect(at(31)).not.toEqual(at(30));
  });
});
