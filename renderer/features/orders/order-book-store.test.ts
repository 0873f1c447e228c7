import { describe, expect, it } from 'vitest';
import type { Order, OrderBookDelta } from '@shared/domain/order';
import { order } from '../../test/ticket-harness';
import { applyToView, OrderView, selectOrders, type OrderFilter, type SortSpec } from './blotter-model';
import { OrderBookStore, type OrderBookBatch, type OrderChange } from './order-book-store';

const full = (cursor: number, upserts: Order[], book = 'b1'): OrderBookDelta => ({
  book,
  cursor,
  full: true,
  upserts,
  removals: [],
});
const pushed = (from: number, cursor: number, upserts: Order[], book = 'b1') => ({
  book,
  from,
  cursor,
  full: false,
  upserts,
  removals: [],
});
const at = (o: Order, patch: Partial<Order>): Order => ({ ...o, ...patch });

describe("the page's order book", () => {
  it('keeps a sync answer when a pushed event carrying the order as it was before arrives after it', () => {
    const store = new OrderBookStore();
    const o = { ...order('1', 'OPEN'), version: 1, updatedAt: '2026-11-23T09:15:02+05:30' };
    store.applySync(full(1, [o]));
    const modified = at(o, { quantity: 5, version: 2, updatedAt: '2026-11-23T09:15:09+05:30' });
    store.applySync({ book: 'b1', cursor: 3, full: false, upserts: [modified], removals: [] });
    expect(store.applyPushed(pushed(1, 2, [o]))).toBe(false);
    expect(store.get('1')?.quantity).toBe(5);
  });

  it('takes a later fill of the same second over the working report it holds', () => {
    const store = new OrderBookStore();
    const o = order('1', 'OPEN');
    store.applySync(full(1, [o]));
    expect(store.applyPushed(pushed(1, 2, [order('1', 'COMPLETE')]))).toBe(true);
    expect(store.get('1')?.status).toBe('COMPLETE');
    expect(store.applyPushed(pushed(2, 3, [o]))).toBe(false); // the working report, late
    expect(store.get('1')?.status).toBe('COMPLETE');
  });

  it("drops another book's events, and asks from its own cursor after a gap in the pushes", () => {
    const store = new OrderBookStore();
    store.applySync(full(4, [order('1', 'OPEN')]));
    expect(store.applyPushed(pushed(4, 5, [order('2', 'OPEN')], 'an-earlier-login'))).toBe(false);
    expect(store.get('2')).toBeUndefined();
    // Changes 5–6 were missed: the rows of 7 are taken, but the next sync still asks since 4.
    expect(store.applyPushed(pushed(6, 7, [order('3', 'OPEN')]))).toBe(true);
    expect(store.get('3')?.orderId).toBe('3');
    expect(store.syncInput()).toEqual({ book: 'b1', since: 4 });
  });

  it('hands out the same list while nothing changes, and tells listeners only the changed rows', () => {
    const store = new OrderBookStore();
    const seen: OrderChange[][] = [];
    store.subscribe((changes) => seen.push([...changes]));
    store.applySync(full(1, [order('1', 'OPEN'), order('2', 'OPEN')]));
    const list = store.list();
    store.applySync({ book: 'b1', cursor: 1, full: false, upserts: [], removals: [] });
    expect(store.list()).toBe(list);
    const done = order('2', 'COMPLETE');
    store.applySync({ book: 'b1', cursor: 2, full: false, upserts: [done], removals: ['1'] });
    expect(seen.at(-1)?.map((c) => [c.prev?.status, c.next?.status])).toEqual([
      ['OPEN', 'COMPLETE'],
      ['OPEN', undefined],
    ]);
    expect(store.list()).toEqual([done]);
  });
});

/** A small deterministic generator, so a failure replays. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SYMBOLS = ['INFY', 'ITC', 'TCS', 'SBIN'];
const STATUSES: Order['status'][] = ['OPEN', 'TRIGGER PENDING', 'COMPLETE', 'CANCELLED', 'REJECTED'];

describe("the page's order book while a paged first answer loads", () => {
  const key = (o: Order) => ({ placedAt: o.placedAt, orderId: o.orderId });

  it('holds the first page, says how many of how many, and is whole once the last page came', () => {
    const store = new OrderBookStore();
    const [a, b, c, d] = ['4', '3', '2', '1'].map((id) => order(id, 'OPEN')) as [Order, Order, Order, Order];
    store.applySync({ ...full(9, [a, b]), total: 4, next: key(b) });
    expect(store.progress()).toEqual({ held: 2, total: 4 });
    expect(store.pageInput()).toEqual({ book: 'b1', after: key(b) });
    expect(store.applyPage({ book: 'b1', orders: [c], next: key(c) }, key(b))).toBe(true);
    expect(store.progress()).toEqual({ held: 3, total: 4 });
    expect(store.applyPage({ book: 'b1', orders: [d], next: null }, key(c))).toBe(true);
    expect(store.progress()).toBeNull();
    expect(store.pageInput()).toBeNull();
    expect(
      store
        .list()
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(['1', '2', '3', '4']);
  });

  it('keeps a pushed change over the older report a later page carries, and refuses a page it is not waiting for', () => {
    const store = new OrderBookStore();
    const a = order('2', 'OPEN');
    const old = order('1', 'OPEN');
    store.applySync({ ...full(9, [a]), total: 2, next: key(a) });
    expect(store.applyPushed(pushed(9, 10, [order('1', 'COMPLETE')]))).toBe(true);
    expect(store.applyPage({ book: 'another-login', orders: [old], next: null }, key(a))).toBe(false);
    expect(store.applyPage({ book: 'b1', orders: [old], next: null }, key(old))).toBe(false);
    expect(store.applyPage({ book: 'b1', orders: [old], next: null }, key(a))).toBe(true);
    expect(store.get('1')?.status).toBe('COMPLETE');
    expect(store.progress()).toBeNull();
  });

  it('tells listeners a page as a page, not as changes (old orders are not news)', () => {
    const store = new OrderBookStore();
    const a = order('2', 'OPEN');
    const seen: Array<[number, OrderBookBatch]> = [];
    store.subscribe((changes, how) => seen.push([changes.length, how]));
    store.applySync({ ...full(9, [a]), total: 2, next: key(a) });
    store.applyPage({ book: 'b1', orders: [order('1', 'CANCELLED')], next: null }, key(a));
    expect(seen).toEqual([
      [0, 'reset'],
      [0, 'page'],
    ]);
  });
});

describe("the blotter's incremental view", () => {
  it('after random changes, removals and additions shows exactly the rows a full filter and sort would, for every sort and filter', () => {
    const sorts: SortSpec[] = [
      { column: 'time', descending: true },
      { column: 'price', descending: false },
      { column: 'status', descending: true },
      { column: 'symbol', descending: false },
    ];
    const filters: OrderFilter[] = [
      { group: 'all', symbol: '' },
      { group: 'working', symbol: '' },
      { group: 'all', symbol: 'i' },
    ];
    const next = rng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const make = (id: number): Order =>
      at(order(String(260000000000 + id), pick(STATUSES)), {
        tradingsymbol: pick(SYMBOLS),
        price: Math.round(next() * 20) * 5,
        placedAt: `2026-11-23T09:${String(10 + Math.floor(next() * 50)).padStart(2, '0')}:00+05:30`,
      });
    for (const sort of sorts)
      for (const filter of filters) {
        let book = new Map<string, Order>();
        for (let i = 0; i < 300; i += 1) book.set(make(i).orderId, make(i));
        let rows = selectOrders([...book.values()], filter, sort);
        for (let round = 0; round < 50; round += 1) {
          const changes: OrderChange[] = [];
          const ids = [...book.keys()];
          const after = new Map(book);
          for (let k = 0; k < 5; k += 1) {
            const roll = next();
            if (roll < 0.1) {
              const fresh = make(1000 + round * 10 + k);
              changes.push({ prev: after.get(fresh.orderId), next: fresh });
              after.set(fresh.orderId, fresh);
            } else {
              const id = pick(ids);
              const prev = after.get(id);
              if (!prev) continue;
              if (roll < 0.2) {
                after.delete(id);
                changes.push({ prev, next: undefined });
              } else {
                const changed = at(prev, { status: pick(STATUSES), price: Math.round(next() * 20) * 5 });
                after.set(id, changed);
                changes.push({ prev, next: changed });
              }
            }
          }
          rows = applyToView(rows, changes, filter, sort);
          book = after;
          expect(rows).toEqual(selectOrders([...book.values()], filter, sort));
        }
      }
  });

  it('follows the book one batch at a time and flashes only the rows of the last batch', () => {
    const store = new OrderBookStore();
    store.applySync(full(1, [order('1', 'OPEN'), order('2', 'OPEN'), order('3', 'OPEN')]));
    const view = new OrderView(store);
    const sort: SortSpec = { column: 'status', descending: false };
    const all: OrderFilter = { group: 'working', symbol: '' };
    expect(view.read(all, sort).rows.map((o) => o.orderId)).toEqual(['1', '2', '3']);
    const detach = view.attach();
    store.applyPushed(pushed(1, 2, [order('2', 'COMPLETE')]));
    const after = view.read(all, sort);
    expect(after.rows.map((o) => o.orderId)).toEqual(['1', '3']);
    expect([...after.changed]).toEqual(['2']);
    detach();
  });
});
