import { describe, expect, it } from 'vitest';
import { fromUnits, toUnits } from '@shared/trading/money';
import { Account } from './account';
import { generateInstruments } from './instruments';
import { Market } from './market';
import { Engine } from './matching';
import { LaggingOrderBook } from './order-book-lag';

/**
 * The lagging order book's memory (docs/api.md §A lagging order book), on the broker's own
 * engine: 10,000 orders changing continuously keep only the lag's window of changes, and a
 * flood faster than the cap shows early rather than grow.
 */

/** Wed 25 Nov 2026, 11:00 IST: every exchange is open. */
const NOW = Date.parse('2026-11-25T11:00:00+05:30');
const INFY = generateInstruments(1, NOW).find((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY');
const ORDERS = 10_000;
const LAG = 1500;

/**
 * An engine watched by a lagging book, with `count` resting CNC buys of INFY placed one a real
 * millisecond (CNC: their margin checks skip the other orders), all showing by the end.
 */
function world(
  count: number,
  maxWaiting?: number,
): {
  engine: Engine;
  book: LaggingOrderBook;
  real: { now: number };
  ids: string[];
  limit: number;
} {
  if (!INFY) throw new Error('no INFY');
  const market = new Market([INFY], 1, NOW);
  const engine = new Engine(market, new Account(toUnits(1e12)), { order() {}, trade() {} });
  const real = { now: NOW };
  const book = new LaggingOrderBook(engine, LAG, () => real.now, maxWaiting);
  book.start();
  const limit = Math.round(fromUnits(market.ltp(INFY.token)) * 0.9 * 20) / 20;
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    real.now += 1;
    const o = engine.place(
      {
        instrument: INFY,
        clientOrderId: null,
        transactionType: 'BUY',
        quantity: 1,
        orderType: 'LIMIT',
        product: 'CNC',
        validity: 'DAY',
        priceUnits: toUnits(limit),
        triggerUnits: null,
      },
      NOW,
    );
    ids.push(o.orderId);
  }
  real.now += LAG;
  expect(book.at(real.now).allOrders()).toHaveLength(count);
  return { engine, book, real, ids, limit };
}

describe('the lagging order book’s memory', () => {
  it('keeps only the changes of the last lag while 10,000 orders change continuously, one a millisecond', () => {
    const { engine, book, real, ids, limit } = world(ORDERS);
    let most = 0;
    // Three rounds of a price change on every order: 30,000 changes over 30 s of real time.
    for (let round = 1; round <= 3; round++) {
      for (const id of ids) {
        real.now += 1;
        engine.modify(id, { price: limit - round * 0.05 }, NOW);
        most = Math.max(most, book.waitingCount());
      }
    }
    // One change a millisecond: the lag's window holds 1,500 of them.
    expect(most).toBe(LAG);
    // The reads show each order as it was 1.5 s ago: the last 1,500 still at the second round's price.
    const reads = book.at(real.now);
    expect(reads.order(ids.at(-1) ?? '')?.priceUnits).toBe(toUnits(limit - 0.1));
    expect(reads.order(ids[0] ?? '')?.priceUnits).toBe(toUnits(limit - 0.15));
    const before = book.at(real.now).changeCursor();
    real.now += LAG;
    expect(book.at(real.now).allOrders()).toEqual(engine.allOrders());
    expect(book.waitingCount()).toBe(0);
    // The since read from the earlier cursor answers the last 1,500 orders, in the order they changed.
    expect(book.ordersChangedSince(before).map((o) => o.orderId)).toEqual(ids.slice(-LAG));
  });

  it('past the cap, a flood of changes at one instant shows its oldest early instead of growing', () => {
    const { engine, book, real, ids, limit } = world(2000, 800);
    for (const id of ids) engine.modify(id, { price: limit - 0.05 }, NOW);
    expect(book.waitingCount()).toBe(800);
    const reads = book.at(real.now);
    // The first 1,200 changes showed early; the last 800 wait their lag.
    expect(reads.order(ids[1199] ?? '')?.priceUnits).toBe(toUnits(limit - 0.05));
    expect(reads.order(ids[1200] ?? '')?.priceUnits).toBe(toUnits(limit));
  });
});
