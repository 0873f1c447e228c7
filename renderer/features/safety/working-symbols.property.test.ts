import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWorking, type Order } from '@shared/domain/order';
import { order } from '../../test/ticket-harness';
import { OrderBookStore } from '../orders/order-book-store';
import { WorkingSymbols } from './working-symbols';

/** What the menu should list: the book counted whole, as the menu did before it followed changes. */
function recount(book: OrderBookStore): string[] {
  const n = new Map<string, number>();
  for (const o of book.list()) {
    if (!isWorking(o.status)) continue;
    const key = `${o.exchange}:${o.tradingsymbol}`;
    n.set(key, (n.get(key) ?? 0) + 1);
  }
  return [...n.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, c]) => `${k} ${c}`);
}
const shown = (m: WorkingSymbols): string[] => m.read().map((s) => `${s.key} ${s.n}`);

/** An order from a small pool of ids, on one of a few symbols, in any status, reported at any of a few moments. */
const anOrder = fc
  .record({
    id: fc.constantFrom('1', '2', '3', '4', '5', '6'),
    symbol: fc.constantFrom('INFY', 'TCS', 'SBIN'),
    exchange: fc.constantFrom('NSE' as const, 'BSE' as const),
    status: fc.constantFrom<Order['status']>('OPEN', 'TRIGGER PENDING', 'AMO REQ RECEIVED', 'COMPLETE', 'CANCELLED'),
    second: fc.integer({ min: 0, max: 5 }),
    price: fc.option(fc.constantFrom(1490, 1500), { nil: null }),
  })
  .map((o): Order => ({
    ...order(o.id, o.status),
    tradingsymbol: o.symbol,
    exchange: o.exchange,
    price: o.price,
    updatedAt: `2026-11-23T09:15:0${o.second}+05:30`,
  }));
const ids = fc.array(fc.constantFrom('1', '2', '3', '4', '5', '6'), { maxLength: 3 });
const key = (id: string) => ({ placedAt: '2026-11-23T09:15:02+05:30', orderId: id });

/** What can happen to the page's book, and to the menu following it. */
const step = fc.oneof(
  fc.record({
    kind: fc.constant('full' as const),
    book: fc.constantFrom('b1', 'b2'),
    orders: fc.array(anOrder, { maxLength: 6 }),
  }),
  fc.record({
    kind: fc.constant('paged' as const),
    orders: fc.array(anOrder, { maxLength: 3 }),
    next: fc.constantFrom('1', '2'),
  }),
  fc.record({ kind: fc.constant('page' as const), orders: fc.array(anOrder, { maxLength: 3 }), more: fc.boolean() }),
  fc.record({ kind: fc.constant('sync' as const), upserts: fc.array(anOrder, { maxLength: 4 }), removals: ids }),
  fc.record({
    kind: fc.constant('push' as const),
    upserts: fc.array(anOrder, { maxLength: 4 }),
    removals: ids,
    gap: fc.boolean(),
    otherBook: fc.boolean(),
  }),
  fc.constant({ kind: 'detach' as const }),
  fc.constant({ kind: 'attach' as const }),
  fc.constant({ kind: 'read' as const }),
);

describe("the blotter's Cancel all… counts against the book counted whole", () => {
  it('match after any sequence of replaced books, pages, syncs, pushes (missed ones too), symbol and status changes and detaches', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const book = new OrderBookStore();
        let bookId = 'b1';
        let cursor = 1;
        let pageNext = '1';
        book.applySync({ book: bookId, cursor, full: true, upserts: [], removals: [] });
        const menu = new WorkingSymbols(book);
        let detach: (() => void) | null = menu.attach();
        for (const s of steps) {
          switch (s.kind) {
            case 'full':
              bookId = s.book;
              cursor += 1;
              book.applySync({ book: bookId, cursor, full: true, upserts: s.orders, removals: [] });
              break;
            case 'paged':
              cursor += 1;
              pageNext = s.next;
              book.applySync({
                book: bookId,
                cursor,
                full: true,
                upserts: s.orders,
                removals: [],
                total: 10,
                next: key(s.next),
              });
              break;
            case 'page':
              book.applyPage({ book: bookId, orders: s.orders, next: s.more ? key(pageNext) : null }, key(pageNext));
              break;
            case 'sync':
              cursor += 1;
              book.applySync({ book: bookId, cursor, full: false, upserts: s.upserts, removals: s.removals });
              break;
            case 'push': {
              const from = s.gap ? cursor + 1 : cursor;
              cursor = from + 1;
              book.applyPushed({
                book: s.otherBook ? 'other' : bookId,
                from,
                cursor,
                full: false,
                upserts: s.upserts,
                removals: s.removals,
              });
              break;
            }
            case 'detach':
              detach?.();
              detach = null;
              break;
            case 'attach':
              detach ??= menu.attach();
              break;
            case 'read':
              expect(shown(menu)).toEqual(recount(book));
              break;
          }
        }
        expect(shown(menu)).toEqual(recount(book));
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});
