import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { bookOf, createFakeBridge, pushOf, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import { Blotter } from '../orders/blotter';
import { useBridgeEvents } from '../session/use-bridge-events';

/** The blotter's "Cancel all…" menu as a trader opens it, after the book changed under it. */

let bridge: FakeBridge;
const tcs = (id: string, status: Order['status']): Order => ({ ...order(id, status), tradingsymbol: 'TCS' });
const later = (o: Order): Order => ({ ...o, updatedAt: '2026-11-23T09:15:09+05:30' });

beforeEach(() => {
  const orders = [order('1', 'OPEN'), order('2', 'OPEN'), order('3', 'COMPLETE'), tcs('4', 'OPEN')];
  bridge = createFakeBridge({
    'orders.sync': () => bookOf(orders),
    'instruments.list': () => ({ ok: true, data: [] }),
    'placements.list': () => ({ ok: true, data: [] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

function Desk() {
  useBridgeEvents();
  return <Blotter />;
}

const menuOptions = () =>
  within(screen.getByRole('combobox', { name: 'Cancel all orders of a symbol' }))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('Cancel all… of a symbol', () => {
  it('lists each symbol with its working orders as they are now: after a cancel, a new order and a modify', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Desk />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(menuOptions()).toEqual(['Cancel all…', 'INFY (2)', 'TCS (1)']));

    await act(async () =>
      bridge.emit(
        'orders.changed',
        pushOf(later(order('1', 'CANCELLED')), tcs('5', 'OPEN'), later({ ...order('2', 'OPEN'), price: 1490 })),
      ),
    );
    await waitFor(() => expect(menuOptions()).toEqual(['Cancel all…', 'INFY (1)', 'TCS (2)']));

    await act(async () => bridge.emit('orders.changed', pushOf(later(order('2', 'COMPLETE')))));
    await waitFor(() => expect(menuOptions()).toEqual(['Cancel all…', 'TCS (2)']));
  });
});
