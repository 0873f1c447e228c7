import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { order } from '../../test/ticket-harness';
import { OrderBookStore } from '../orders/order-book-store';
import { WorkingSymbols } from './working-symbols';

const tcs = (id: string, status: Order['status']): Order => ({ ...order(id, status), tradingsymbol: 'TCS' });
const shown = (m: WorkingSymbols) => m.read().map((s) => `${s.tradingsymbol} (${s.n})`);

function bookOf(orders: Order[]): OrderBookStore {
  const book = new OrderBookStore();
  book.applySync({ book: 'b1', cursor: 1, full: true, upserts: orders, removals: [] });
  return book;
}
let cursor = 1;
const push = (book: OrderBookStore, upserts: Order[], removals: string[] = []) =>
  book.applyPushed({ book: 'b1', from: cursor, cursor: ++cursor, full: false, upserts, removals });

describe("the blotter's Cancel all… counts", () => {
  it('counts working orders by symbol and follows cancels, new orders and removals as they come', () => {
    cursor = 1;
    const book = bookOf([order('1', 'OPEN'), order('2', 'TRIGGER PENDING'), order('3', 'COMPLETE'), tcs('4', 'OPEN')]);
    const menu = new WorkingSymbols(book);
    menu.attach();
    expect(shown(menu)).toEqual(['INFY (2)', 'TCS (1)']);
    push(book, [{ ...order('1', 'CANCELLED'), updatedAt: '2026-11-23T09:15:09+05:30' }, tcs('5', 'OPEN')]);
    expect(shown(menu)).toEqual(['INFY (1)', 'TCS (2)']);
    push(book, [], ['2']);
    expect(shown(menu)).toEqual(['TCS (2)']);
  });

  it('hands out the same list while changes move no count (a modified price), a new one when one moves', () => {
    cursor = 1;
    const book = bookOf([order('1', 'OPEN'), tcs('2', 'OPEN')]);
    const menu = new WorkingSymbols(book);
    menu.attach();
    const first = menu.read();
    push(book, [{ ...order('1', 'OPEN'), price: 1490, updatedAt: '2026-11-23T09:15:09+05:30' }]);
    expect(menu.read()).toBe(first);
    push(book, [order('3', 'OPEN')]);
    expect(menu.read()).not.toBe(first);
    expect(shown(menu)).toEqual(['INFY (2)', 'TCS (1)']);
  });

  it('counts the whole book again after changes it missed while detached, and after a new book', () => {
    cursor = 1;
    const book = bookOf([order('1', 'OPEN')]);
    const menu = new WorkingSymbols(book);
    expect(shown(menu)).toEqual(['INFY (1)']);
    push(book, [order('2', 'OPEN')]); // not attached: missed
    const detach = menu.attach();
    push(book, [tcs('3', 'OPEN')]);
    expect(shown(menu)).toEqual(['INFY (2)', 'TCS (1)']);
    detach();
    book.applySync({ book: 'b2', cursor: 1, full: true, upserts: [tcs('9', 'OPEN')], removals: [] });
    expect(shown(menu)).toEqual(['TCS (1)']);
  });
});
