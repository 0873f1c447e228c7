import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Placement } from '@shared/domain/placement';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, placement, type FakeBridge } from '../../test/fake-bridge';
import { Toaster } from '../notifications/toaster';
import { usePlacementEvents } from './queries';

/**
 * An order reported not found that appears later is a loud alert (docs/money-path.md §After the
 * landing horizon): a toast that stays until dismissed, said once, in the trader's words.
 */

let bridge: FakeBridge;

beforeEach(() => {
  bridge = createFakeBridge();
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

function Listener() {
  usePlacementEvents();
  return <Toaster />;
}

async function push(placements: Placement[]): Promise<void> {
  bridge.answer('placements.list', () => ({ ok: true, data: placements }));
  await act(async () => bridge.emit('placements.changed', { placements }));
}

describe('an order reported not found that appears', () => {
  it('raises an alert that stays, once', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Listener />
      </QueryClientProvider>,
    );
    const notFound = placement({
      clientOrderId: 'td-late1',
      state: 'not_placed',
      detail: 'Not found at the broker after 12 s — most likely not placed (order td-late1)',
    });
    await push([notFound]);
    expect(screen.queryByRole('alert')).toBeNull();

    const appeared = {
      ...notFound,
      state: 'placed' as const,
      orderId: '260000000123',
      appearedLate: true,
      detail: 'An order reported not found has appeared: BUY 10 INFY, order 260000000123',
    };
    await push([appeared]);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('An order reported not found has appeared');
    expect(alert.textContent).toContain('BUY 10 INFY, order 260000000123');
    await push([appeared]);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
