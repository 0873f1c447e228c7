import { describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import type { PushedDelta } from '../core/orders/order-book';
import { OrdersChangedBatcher, type BatchTimers } from './orders-changed-batcher';
import { anOrder } from '@shared/testing/order-fixtures';

/** Timers that fire only when the test says so. */
function manualTimers(): BatchTimers & { fire(): void; pending(): number } {
  let due: Array<() => void> = [];
  return {
    set: (fn) => {
      due.push(fn);
      return fn;
    },
    clear: (h) => {
      due = due.filter((f) => f !== h);
    },
    fire: () => {
      const now = due;
      due = [];
      now.forEach((f) => f());
    },
    pending: () => due.length,
  };
}

const row = (orderId: string, quantity: number): Order =>
  anOrder({ orderId, tradingsymbol: 'ITC', instrumentToken: 424961, quantity, pendingQuantity: quantity, price: 400 });

const delta = (from: number, upserts: Order[], book = 'b1'): PushedDelta => ({
  book,
  from,
  cursor: from + upserts.length,
  full: false,
  upserts,
  removals: [],
});

describe('orders.changed batching (docs/live-data.md §The order book in main)', () => {
  it('sends the first change at once and the burst after it as one delta, each order once in its latest state', () => {
    const sent: PushedDelta[] = [];
    const timers = manualTimers();
    const b = new OrdersChangedBatcher((d) => sent.push(d), 50, timers);
    b.push(delta(0, [row('1', 1)]));
    expect(sent).toHaveLength(1);
    b.push(delta(1, [row('2', 1)]));
    b.push(delta(2, [row('1', 5)]));
    b.push(delta(3, [row('3', 1)]));
    expect(sent).toHaveLength(1);
    timers.fire();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ book: 'b1', from: 1, cursor: 4, full: false, removals: [] });
    expect(sent[1]?.upserts.map((o) => [o.orderId, o.quantity])).toEqual([
      ['2', 1],
      ['1', 5],
      ['3', 1],
    ]);
    // A quiet window ends the burst: the next change goes at once again.
    timers.fire();
    expect(timers.pending()).toBe(0);
    b.push(delta(4, [row('4', 1)]));
    expect(sent).toHaveLength(3);
  });

  it('never joins deltas across a gap (a change a poll brought) or another book, so no page skips a change', () => {
    const sent: PushedDelta[] = [];
    const timers = manualTimers();
    const b = new OrdersChangedBatcher((d) => sent.push(d), 50, timers);
    b.push(delta(0, [row('1', 1)]));
    b.push(delta(1, [row('2', 1)]));
    b.push(delta(5, [row('3', 1)])); // changes 2–5 came from a poll, not a push
    b.push(delta(0, [row('9', 1)], 'b2')); // a new login's book
    timers.fire();
    expect(sent.map((d) => [d.book, d.from, d.cursor])).toEqual([
      ['b1', 0, 1],
      ['b1', 1, 2],
      ['b1', 5, 6],
      ['b2', 0, 1],
    ]);
  });
});
