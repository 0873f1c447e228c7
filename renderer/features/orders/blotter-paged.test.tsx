import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order, OrderPage } from '@shared/domain/order';
import type { IpcResult } from '@shared/ipc/result';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import { Blotter } from './blotter';
import { orderQueries, wholeBook } from './queries';

/** The blotter while the rest of a paged first answer loads (docs/live-data.md §The first screen first). */

let bridge: FakeBridge;
const key = (o: Order) => ({ placedAt: o.placedAt, orderId: o.orderId });
const rows = ['250101000004', '250101000003', '250101000002', '250101000001'].map((id) => order(id, 'OPEN'));

beforeEach(() => {
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
    'instruments.list': () => ({ ok: true, data: [] }),
    'placements.list': () => ({ ok: true, data: [] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

describe('Blotter: a busy book loading', () => {
  it('says "Loading 2 of 4 orders" while only the first page is held, then the whole count once the rest came', async () => {
    let release!: () => void;
    bridge.answer(
      'orders.page',
      () =>
        new Promise<IpcResult<OrderPage>>(
          (r) => (release = () => r({ ok: true, data: { book: 'b1', orders: rows.slice(2), next: null } })),
        ),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Blotter />
      </QueryClientProvider>,
    );
    const count = await screen.findByTestId('orders-count');
    await waitFor(() => expect(count.textContent).toBe('Loading 2 of 4 orders'));
    await waitFor(() => expect(release).toBeTypeOf('function'));
    await act(async () => release());
    await waitFor(() => expect(count.textContent).toBe('4 orders'));
  });
});

/**
 * The rest loads behind the first page, not before the next frame after that page arrived has
 * painted: a page's reply parsed and drawn ahead of it held the first rows back. The frames and
 * timers here are the test's own.
 */
describe('the rest of a paged first answer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    bridge.answer('orders.page', () => ({ ok: true, data: { book: 'b1', orders: rows.slice(2), next: null } }));
  });
  afterEach(() => vi.useRealTimers());

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
