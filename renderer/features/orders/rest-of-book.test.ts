import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/domain/order';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import { orderQueries, wholeBook } from './queries';

/**
 * The rest of a busy book loads behind its first page (docs/live-data.md §The first screen
 * first): not before the frame showing that page has painted, since a page's reply parsed and
 * drawn ahead of that frame held the first rows back. The frames and timers are the test's own.
 */

let bridge: FakeBridge;
const key = (o: Order) => ({ placedAt: o.placedAt, orderId: o.orderId });
const rows = ['250101000004', '250101000003', '250101000002', '250101000001'].map((id) => order(id, 'OPEN'));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
  bridge = createFakeBridge({
    'orders.sync': () => ({
      ok: true,
      data: {
        book: 'b1',
        cursor: 4,
        full: true,
        upserts: rows.slice(0, 2),
        removals: [],
        total: 4,
        next: key(rows[1]!),
      },
    }),
    'orders.page': () => ({ ok: true, data: { book: 'b1', orders: rows.slice(2), next: null } }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => {
  setBridgeForTests(null);
  vi.useRealTimers();
});

describe('the rest of a paged first answer', () => {
  it('is asked for only once the frame after the first page has painted', async () => {
    const client = createQueryClient();
    const first = await client.fetchQuery(orderQueries.list());
    expect(first.map((o) => o.orderId)).toEqual(['250101000004', '250101000003']);
    await vi.advanceTimersByTimeAsync(0);
    expect(bridge.callsOf('orders.page')).toEqual([]);

    vi.advanceTimersToNextFrame(); // the frame; then the task queued after its paint
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(bridge.callsOf('orders.page')).toHaveLength(1));
    await vi.waitFor(() =>
      expect(client.getQueryData<Order[]>(orderQueries.list().queryKey)?.map((o) => o.orderId)).toEqual(
        rows.map((o) => o.orderId),
      ),
    );
  });

  it('a book that came whole waits for no frame: an export of it is answered at once', async () => {
    bridge.answer('orders.sync', () => ({
      ok: true,
      data: { book: 'b1', cursor: 4, full: true, upserts: rows, removals: [] },
    }));
    const whole = await wholeBook(createQueryClient());
    expect(whole.map((o) => o.orderId)).toEqual(rows.map((o) => o.orderId));
    expect(bridge.callsOf('orders.page')).toEqual([]);
  });
});
