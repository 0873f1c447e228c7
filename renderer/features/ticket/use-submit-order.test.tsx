import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { bookOf, createFakeBridge, placement, type FakeBridge } from '../../test/fake-bridge';
import { usePlacementEvents } from '../placements/queries';
import { useSubmitOrder } from './use-submit-order';

/**
 * The submit hook alone (no ticket around it, so nothing else re-renders it): what it reports
 * must follow every read of the unconfirmed list, even one that returns the same list.
 */

let bridge: FakeBridge;
const order = placement().order;

beforeEach(() => {
  bridge = createFakeBridge({ 'orders.sync': () => bookOf([]) });
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

function wrapper({ children }: { readonly children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

describe('useSubmitOrder', () => {
  it('after a lost reply, a read of the list that is unchanged (still empty) makes it "no record"', async () => {
    const { result } = renderHook(
      () => {
        usePlacementEvents();
        return useSubmitOrder(order);
      },
      { wrapper },
    );
    await waitFor(() => expect(bridge.callsOf('placements.list')).toHaveLength(1));
    bridge.answer('orders.place', () => ({ ok: false, error: { kind: 'disconnected', message: 'gone' } }));
    act(() => result.current.submit());
    await waitFor(() => expect(result.current.outcome).toMatchObject({ kind: 'unconfirmed', noRecord: false }));

    await act(async () => bridge.emit('placements.changed', { placements: [] })); // the same empty list as before
    await waitFor(() => expect(result.current.outcome).toMatchObject({ kind: 'unconfirmed', noRecord: true }));
  });
});
