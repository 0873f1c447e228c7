import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order, OrderPage } from '@shared/domain/order';
import type { IpcResult } from '@shared/ipc/result';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import { Blotter } from './blotter';

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
