import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toUnits } from '@shared/trading/money';
import { Account } from './account';
import { generateInstruments, type PaperInstrument } from './instruments';
import { Market } from './market';
import { Engine, type PlaceRequest } from './matching';
import type { PaperTrade } from './types';

/**
 * The order book and matching (docs/api.md §The order book, §Matching) as properties, on the
 * broker's own market and engine: an order that takes the book never fills better than the touch
 * or worse than its limit, takes exactly what the book loses, and the orders that share a price
 * event's book take it in price-time priority.
 */

/** Wed 25 Nov 2026, 11:00 IST: every exchange is open. */
const NOW = Date.parse('2026-11-25T11:00:00+05:30');
const UNIVERSE = generateInstruments(1, NOW);
const pick = (pred: (i: PaperInstrument) => boolean): PaperInstrument => {
  const i = UNIVERSE.find(pred);
  if (!i) throw new Error('no such instrument');
  return i;
};
/** A liquid stock, a thin one, an index option, a stock future, a CDS future on the ₹0.0025 tick. */
const KINDS = [
  pick((i) => i.exchange === 'NSE' && i.tradingsymbol === 'INFY'),
  pick((i) => i.exchange === 'BSE' && i.tradingsymbol === 'ITC'),
  pick((i) => i.exchange === 'NFO' && i.name === 'NIFTY' && i.instrumentType === 'CE'),
  pick((i) => i.exchange === 'NFO' && i.name === 'SBIN' && i.instrumentType === 'FUT'),
  pick((i) => i.exchange === 'CDS' && i.name === 'USDINR'),
];

/** A market and engine of their own, with money enough that margin never refuses. */
function world(): { market: Market; engine: Engine; trades: PaperTrade[] } {
  const market = new Market(KINDS, 1, NOW);
  const trades: PaperTrade[] = [];
  const engine = new Engine(market, new Account(toUnits(1e11)), { order() {}, trade: (t) => trades.push(t) });
  market.onMoves((moves) => engine.onMoves(moves));
  return { market, engine, trades };
}

function request(i: PaperInstrument, side: 'BUY' | 'SELL', quantity: number, limit: number | null): PlaceRequest {
  return {
    instrument: i,
    clientOrderId: null,
    transactionType: side,
    quantity,
    orderType: limit === null ? 'MARKET' : 'LIMIT',
    product: i.instrumentType === 'EQ' ? 'MIS' : 'NRML',
    validity: 'DAY',
    priceUnits: limit,
    triggerUnits: null,
  };
}

const taker = fc.record({
  side: fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
  /** Quantity as a share of what the side holds (up to three times it). */
  share: fc.double({ min: 0.01, max: 3, noNaN: true }),
  /** A limit this many ticks beyond the touch (null: MARKET). */
  ticks: fc.option(fc.integer({ min: -2, max: 12 }), { nil: null }),
});

describe('the order book (properties)', () => {
  it('an order that takes the book fills level by level from the touch, within its limit, and takes exactly what the book loses', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: KINDS.length - 1 }),
        fc.integer({ min: -30, max: 30 }),
        fc.array(taker, { minLength: 1, maxLength: 6 }),
        (k, shift, orders) => {
          const i = KINDS[k]!;
          const { market, engine, trades } = world();
          market.set(i.token, Math.max(i.tickUnits * 40, market.ltp(i.token) + shift * i.tickUnits), NOW);
          const book = market.book(i.token)!;
          for (const t of orders) {
            const from = t.side === 'BUY' ? 'sell' : 'buy';
            const touch = book.best(from);
            const before = book.total(from);
            const lots = Math.max(1, Math.round((before * t.share) / i.lotSize));
            const quantity = Math.min(lots * i.lotSize, Math.floor(i.freezeQuantity / i.lotSize) * i.lotSize);
            const limit =
              t.ticks === null || touch === null ? null : touch + (t.side === 'BUY' ? 1 : -1) * t.ticks * i.tickUnits;
            const seen = trades.length;
            const o = engine.place(request(i, t.side, quantity, limit), NOW);
            const fills = trades.slice(seen);
            const filled = fills.reduce((s, f) => s + f.quantity, 0);
            // Conservation: what the order got is what the book lost, and the order adds up.
            expect(filled).toBe(before - book.total(from));
            expect(o.filled).toBe(filled);
            expect(o.filled + (o.quantity - o.filled - o.cancelled) + o.cancelled).toBe(o.quantity);
            for (const [n, f] of fills.entries()) {
              // Never better than the touch, never worse than the limit, each level further out.
              if (touch !== null) expect(t.side === 'BUY' ? f.priceUnits >= touch : f.priceUnits <= touch).toBe(true);
              if (limit !== null) expect(t.side === 'BUY' ? f.priceUnits <= limit : f.priceUnits >= limit).toBe(true);
              const prev = fills[n - 1];
              if (prev)
                expect(t.side === 'BUY' ? f.priceUnits > prev.priceUnits : f.priceUnits < prev.priceUnits).toBe(true);
            }
            // A limit that reaches nothing takes nothing; MARKET stops only when the side is empty.
            if (limit === null && o.status === 'OPEN') expect(book.total(from)).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('orders sharing one price event take its book in price-time priority: MARKET, then the better limit, then the older', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: KINDS.length - 1 }),
        fc.array(
          fc.record({
            market: fc.boolean(),
            ticks: fc.integer({ min: 0, max: 9 }),
            lots: fc.integer({ min: 1, max: 40 }),
          }),
          { minLength: 2, maxLength: 6 },
        ),
        (k, specs) => {
          const i = KINDS[k]!;
          const { market, engine, trades } = world();
          const L = market.ltp(i.token);
          const book = market.book(i.token)!;
          // Empty the ask side, so the buys below all wait for the next price event.
          engine.place(request(i, 'BUY', book.total('sell'), null), NOW);
          expect(book.total('sell')).toBe(0);
          const triggerAt = L + 2 * i.tickUnits;
          const waiting = specs.map((s) => {
            const quantity = Math.min(s.lots * i.lotSize, Math.floor(i.freezeQuantity / i.lotSize) * i.lotSize);
            // MARKET buys wait OPEN with the side empty; stop-limit buys wait for the trigger.
            return s.market
              ? engine.place(request(i, 'BUY', quantity, null), NOW)
              : engine.place(
                  {
                    ...request(i, 'BUY', quantity, triggerAt + s.ticks * i.tickUnits),
                    orderType: 'SL',
                    triggerUnits: triggerAt,
                  },
                  NOW,
                );
          });
          const seen = trades.length;
          market.set(i.token, triggerAt, NOW);
          const got = new Map<string, number[]>();
          for (const t of trades.slice(seen)) got.set(t.orderId, [...(got.get(t.orderId) ?? []), t.priceUnits]);
          const rank = (o: (typeof waiting)[number]): number =>
            o.orderType === 'MARKET' ? -Infinity : -(o.priceUnits as number);
          const ordered = [...waiting].sort((a, b) => rank(a) - rank(b) || Number(a.orderId) - Number(b.orderId));
          for (const [n, later] of ordered.entries()) {
            for (const price of got.get(later.orderId) ?? []) {
              // Whoever is ahead and could trade at that price has nothing left to fill.
              for (const ahead of ordered.slice(0, n)) {
                const could = ahead.orderType === 'MARKET' || (ahead.priceUnits as number) >= price;
                if (could) expect(ahead.quantity - ahead.filled - ahead.cancelled).toBe(0);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a MARKET buy larger than the best level fills at a worse average price than the touch', () => {
    const { market, engine, trades } = world();
    const i = KINDS[0]!;
    const [best, second] = market.book(i.token)!.levels('sell', 2);
    const o = engine.place(request(i, 'BUY', best!.quantity + second!.quantity, null), NOW);
    expect(trades.map((t) => [t.priceUnits, t.quantity])).toEqual([
      [best!.price, best!.quantity],
      [second!.price, second!.quantity],
    ]);
    expect(o.filledValueUnits / o.filled).toBeGreaterThan(best!.price);
    // The depth shows the two levels gone; the next is now the touch.
    expect(market.book(i.token)!.best('sell')).toBe(second!.price + i.tickUnits);
  });
});
