import { afterEach, describe, expect, it } from 'vitest';
import type { Order, OrderPageKey } from '@shared/domain/order';
import { newestFirst } from '@shared/trading/order-page';
import { supersedes } from '@shared/trading/order-recency';
import type { OrderChangesPage } from '../../broker/broker';
import { restingAtBroker, startCoreFixture, type CoreFixture } from '../testing/core-fixture';
import type { TradingCore } from '../trading-core';
import { OrderBook, type OrderSource, type PushedDelta } from './order-book';

/** The REST adapter's change listing (the core holds it as a `Broker`, where it is optional). */
function sinceOf(core: TradingCore): (cursor: string | null) => Promise<OrderChangesPage> {
  const list = core.broker.listOrdersSince?.bind(core.broker);
  if (!list) throw new Error('this adapter lists no changes');
  return list;
}

/** docs/live-data.md §The order book in main, against the real paper broker. */

let fx: CoreFixture;
afterEach(async () => fx.close());

async function started(paper: Parameters<typeof startCoreFixture>[0] = {}): Promise<TradingCore> {
  fx = await startCoreFixture(paper);
  const core = await fx.newCore({ rate: null });
  await core.start();
  return core;
}

/** A resting LIMIT buy 5% under the market (it stays OPEN, so it can be modified). */
async function resting(core: TradingCore): Promise<Order> {
  return (await restingAtBroker(core, 'book')).order;
}

/** The real broker's reads, counted, with a gate that can hold the next reply back after it arrived. */
function gatedSource(core: TradingCore): {
  source: OrderSource;
  reads: string[];
  hold(): { arrived: Promise<void>; release(): void };
} {
  const reads: string[] = [];
  let gate: { arrived: () => void; released: Promise<void> } | null = null;
  const pass = async <T>(reply: T): Promise<T> => {
    const g = gate;
    gate = null;
    if (g) {
      g.arrived();
      await g.released;
    }
    return reply;
  };
  return {
    reads,
    source: {
      listOrders: async () => {
        reads.push('all');
        return pass(await core.broker.listOrders());
      },
      listOrdersSince: async (cursor: string | null): Promise<OrderChangesPage> => {
        reads.push(cursor === null ? 'since:none' : 'since:cursor');
        return pass(await sinceOf(core)(cursor));
      },
    },
    hold() {
      let arrived!: () => void;
      let release!: () => void;
      const a = new Promise<void>((r) => (arrived = r));
      gate = { arrived, released: new Promise<void>((r) => (release = r)) };
      return { arrived: a, release };
    },
  };
}

describe('the order book in main', () => {
  it('keeps a pushed modification when a poll reply read before it arrives after it: the row never moves back', async () => {
    const core = await started();
    const o = await resting(core);
    const { source, hold } = gatedSource(core);
    const book = new OrderBook(source);
    const held = hold();
    const syncing = book.sync(); // reads the order at quantity 2, then waits at the gate
    await held.arrived;
    await core.broker.modifyOrder(o.orderId, { quantity: 3 });
    const pushed = await core.broker.getOrder(o.orderId);
    expect(book.push(pushed)).toBe(true);
    held.release();
    await syncing;
    expect(book.order(o.orderId)?.quantity).toBe(3);
  });

  it('ignores, and does not pass on, a push older than what a poll already brought', async () => {
    const core = await started();
    const o = await resting(core);
    const pushes: PushedDelta[] = [];
    const book = new OrderBook(core.broker, { onPush: (d) => pushes.push(d) });
    await core.broker.modifyOrder(o.orderId, { quantity: 3 });
    await book.sync();
    expect(book.push(o)).toBe(false); // the stream's report from before the modification, late
    expect(book.order(o.orderId)?.quantity).toBe(3);
    expect(pushes).toEqual([]);
  });

  it('after the first full read asks the broker only since its cursor, and answers the page only the rows changed after its cursor', async () => {
    const core = await started();
    const a = await resting(core);
    const b = await resting(core);
    const { source, reads } = gatedSource(core);
    const book = new OrderBook(source);
    await book.sync();
    const first = book.changesSince(undefined, undefined);
    expect(first.full).toBe(true);
    expect(first.upserts.map((o) => o.orderId).sort()).toEqual([a.orderId, b.orderId].sort());

    await core.broker.modifyOrder(b.orderId, { quantity: 5 });
    const c = await resting(core);
    await book.sync();
    const next = book.changesSince(first.book, first.cursor);
    expect(next.full).toBe(false);
    expect(next.upserts.map((o) => [o.orderId, o.quantity])).toEqual([
      [b.orderId, 5],
      [c.orderId, 2],
    ]);
    expect(reads).toEqual(['since:none', 'since:cursor']);

    await book.sync();
    expect(book.changesSince(next.book, next.cursor)).toMatchObject({ full: false, upserts: [], removals: [] });
  });

  it('answers a page holding another book’s cursor (an earlier login) with everything, marked full', async () => {
    const core = await started();
    await resting(core);
    const book = new OrderBook(core.broker);
    await book.sync();
    const answer = book.changesSince('another-book', book.cursor());
    expect(answer.full).toBe(true);
    expect(answer.upserts).toHaveLength(1);
  });

  it('reads a broker without a cursor in full each time and removes an order the list no longer has', async () => {
    const core = await started();
    const a = await resting(core);
    const b = await resting(core);
    let hide: string | null = null;
    let reads = 0;
    const noCursor: OrderSource = {
      listOrders: async () => {
        reads += 1;
        return (await core.broker.listOrders()).filter((o) => o.orderId !== hide);
      },
    };
    const book = new OrderBook(noCursor);
    await book.sync();
    const first = book.changesSince(undefined, undefined);
    hide = a.orderId; // the broker's list no longer has it (a new trading day)
    await book.sync();
    expect(reads).toBe(2);
    expect(book.order(a.orderId)).toBeUndefined();
    expect(book.changesSince(first.book, first.cursor)).toMatchObject({ removals: [a.orderId], upserts: [] });
    expect(book.order(b.orderId)?.orderId).toBe(b.orderId);
  });

  it('reads in full again after the stream reconnects, and once the slow pace is due', async () => {
    const core = await started();
    await resting(core);
    let now = 0;
    const { source, reads } = gatedSource(core);
    const book = new OrderBook(source, { clock: () => now, fullEveryMs: 60_000 });
    await book.sync();
    await book.sync();
    book.reconnected();
    await book.sync();
    await book.sync();
    now = 60_000;
    await book.sync();
    expect(reads).toEqual(['since:none', 'since:cursor', 'since:none', 'since:cursor', 'since:none']);
  });

  /**
   * The read at login on its way (its reply back, not yet taken) while a resting order is
   * modified at the broker before the stream is open (no push); the test opens the stream.
   */
  async function changedDuringLoginRead(): Promise<{
    o: Order;
    book: OrderBook;
    reads: string[];
    held: { release(): void };
    login: Promise<unknown>;
  }> {
    const core = await started();
    const o = await resting(core);
    const { source, reads, hold } = gatedSource(core);
    const book = new OrderBook(source);
    const held = hold();
    const login = book.sync();
    await held.arrived;
    await core.broker.modifyOrder(o.orderId, { quantity: 3 });
    return { o, book, reads, held, login };
  }

  it('does not read the whole book twice when the stream opens while a full read is on its way: what changed meanwhile comes since its cursor', async () => {
    const { o, book, reads, held, login: warming } = await changedDuringLoginRead();
    book.reconnected(); // the stream opens
    held.release();
    await warming;
    await book.sync(); // the page's first sync
    expect(reads).toEqual(['since:none', 'since:cursor']);
    expect(book.order(o.orderId)?.quantity).toBe(3);
  });

  it('is complete before any page asks when the stream opened while the login read was on its way: one more read since its cursor', async () => {
    const { o, book, reads, held, login } = await changedDuringLoginRead();
    book.reconnected(); // the stream opens…
    const warmed = book.warm(); // …and main warms the book
    held.release();
    await login;
    await warmed;
    // Fresh with no page's sync: a window's first sync is answered from it (order-handlers).
    expect(book.completeAsOf()).not.toBeNull();
    expect(reads).toEqual(['since:none', 'since:cursor']);
    expect(book.order(o.orderId)?.quantity).toBe(3);
  });

  it('answers a first page of the newest rows with the count, and its pages plus the changes since make up the whole book in its latest state', async () => {
    const core = await started({ rate: { perSecond: 1000, burst: 1000 } }); // eight placements and their look-ups at once
    const placed: Order[] = [];
    for (let i = 0; i < 7; i += 1) placed.push(await resting(core));
    const book = new OrderBook(core.broker);
    await book.sync();
    const first = book.changesSince(undefined, undefined, 3);
    const newest = [...placed].sort(newestFirst).map((o) => o.orderId);
    expect(first).toMatchObject({ full: true, total: 7 });
    expect(first.upserts.map((o) => o.orderId)).toEqual(newest.slice(0, 3));

    // While the page loads the rest, an old order is modified and a new one placed.
    const old = placed.find((o) => o.orderId === newest[6]) as Order;
    await core.broker.modifyOrder(old.orderId, { quantity: 5 });
    const late = await resting(core);
    await book.sync();

    const held = new Map(first.upserts.map((o) => [o.orderId, o]));
    const take = (o: Order): void => {
      const prev = held.get(o.orderId);
      if (!prev || supersedes(o, prev)) held.set(o.orderId, o);
    };
    for (const o of book.changesSince(first.book, first.cursor).upserts) take(o);
    let after: OrderPageKey | null = first.next ?? null;
    let pages = 0;
    while (after) {
      const page = book.page(first.book, after, 2);
      page.orders.forEach(take);
      after = page.next;
      pages += 1;
    }
    expect(pages).toBe(2);
    expect([...held.keys()].sort()).toEqual([...newest, late.orderId].sort());
    expect(held.get(old.orderId)?.quantity).toBe(5);
  });

  it('answers a page asked of another book (an earlier login) with no rows, naming this book', async () => {
    const core = await started();
    const o = await resting(core);
    const book = new OrderBook(core.broker);
    await book.sync();
    expect(book.page('an-earlier-login', { placedAt: o.placedAt, orderId: 'x' }, 10)).toEqual({
      book: book.id,
      orders: [],
      next: null,
    });
  });

  it('answers a full answer whole, without a page key, when the book holds no more than the first page', async () => {
    const core = await started();
    await resting(core);
    const book = new OrderBook(core.broker);
    await book.sync();
    const answer = book.changesSince(undefined, undefined, 3);
    expect(answer.upserts).toHaveLength(1);
    expect(answer.next).toBeUndefined();
  });
});
