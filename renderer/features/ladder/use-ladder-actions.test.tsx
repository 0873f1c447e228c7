import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor, act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import type { IpcResult } from '@shared/ipc/result';
import { anOrder } from '@shared/testing/order-fixtures';
import { useLadderActions } from './use-ladder-actions';

/**
 * A cancel from the ladder that main cannot confirm stays in its order's cell as "not yet
 * confirmed — checking" — never "not cancelled" — until main has read the order back
 * (docs/ladder.md §Each state in its cell).
 */

let bridge: FakeBridge;
const ID = '260000000042';
const CHECKING = `Checking with the broker whether order ${ID} was cancelled…`;

beforeEach(() => {
  bridge = createFakeBridge();
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

function wrapper({ children }: { readonly children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

describe('the ladder cancels honestly', () => {
  it('"not yet confirmed — checking" in the cell while main reads the order back, then cancelled', async () => {
    let settled = false;
    bridge.answer('orders.cancel', () => ({
      ok: true,
      data: { state: 'unconfirmed', action: 'cancel', orderId: ID, detail: CHECKING },
    }));
    bridge.answer('orders.action', () => ({
      ok: true,
      data: settled
        ? { state: 'done', action: 'cancel', orderId: ID, status: 'CANCELLED' }
        : { state: 'unconfirmed', action: 'cancel', orderId: ID, detail: CHECKING },
    }));
    const { result } = renderHook(() => useLadderActions(), { wrapper });
    act(() => result.current.cancel(ID));
    await waitFor(() => expect(result.current.actions.get(ID)?.checking).toMatch(/^Not yet confirmed — checking/));
    expect(result.current.actions.get(ID)?.failed).toBeNull();
    expect(result.current.last).toBe(
      `Order ${ID}: Not yet confirmed — checking with the broker whether order ${ID} was cancelled…`,
    );
    settled = true;
    await waitFor(() => expect(result.current.actions.has(ID)).toBe(false), { timeout: 5_000 });
    expect(result.current.last).toBe(`Order ${ID}: Cancelled`);
  });

  it('a cancel whose reading back main stopped tracking (another window\'s action on the order was confirmed) no longer says "checking"', async () => {
    bridge.answer('orders.cancel', () => ({
      ok: true,
      data: { state: 'unconfirmed', action: 'cancel', orderId: ID, detail: CHECKING },
    }));
    bridge.answer('orders.action', () => ({ ok: true, data: null }));
    const { result } = renderHook(() => useLadderActions(), { wrapper });
    act(() => result.current.cancel(ID));
    await waitFor(() => expect(result.current.actions.get(ID)?.checking).toMatch(/^Not confirmed: /), {
      timeout: 5_000,
    });
    expect(result.current.actions.get(ID)?.checking).toBe(
      `Not confirmed: a newer action on order ${ID} was answered first — check the order`,
    );
    expect(result.current.actions.get(ID)?.failed).toBeNull();
  });

  it('a refusal is "Not cancelled: why"', async () => {
    bridge.answer('orders.cancel', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'The order is an AMO and cannot be cancelled now' },
    }));
    const { result } = renderHook(() => useLadderActions(), { wrapper });
    act(() => result.current.cancel(ID));
    await waitFor(() =>
      expect(result.current.actions.get(ID)?.failed).toBe(
        'Not cancelled: The order is an AMO and cannot be cancelled now',
      ),
    );
  });
});

describe('the ladder moves honestly', () => {
  it("a second move's answer stays in the cell: the first move's reading back, settled later, does not overwrite it", async () => {
    const order = anOrder({ orderId: ID });
    const MOVING = `Checking with the broker whether order ${ID} was modified…`;
    bridge.answer('orders.modify', () => ({
      ok: true,
      data: { state: 'unconfirmed', action: 'modify', orderId: ID, detail: MOVING },
    }));
    // The first move's reading back: main answers it once the second move has been refused.
    let settleFirst: (r: IpcResult<unknown>) => void = () => undefined;
    bridge.answer('orders.action', () => new Promise((resolve) => (settleFirst = resolve)));
    const { result } = renderHook(() => useLadderActions(), { wrapper });
    act(() => result.current.move(order, 80_000_000, 79_950_000, { price: 7995 }));
    await waitFor(() => expect(bridge.callsOf('orders.action')).toHaveLength(1), { timeout: 5_000 });

    bridge.answer('orders.modify', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'price: outside the day’s band' },
    }));
    act(() => result.current.move(order, 80_000_000, 70_000_000, { price: 7000 }));
    await waitFor(() =>
      expect(result.current.actions.get(ID)).toMatchObject({ to: 70_000_000, failed: /^Not modified: price/ }),
    );

    await act(async () => {
      settleFirst({ ok: true, data: { state: 'done', action: 'modify', orderId: ID, status: 'OPEN' } });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(result.current.actions.get(ID)).toMatchObject({ to: 70_000_000, failed: /^Not modified: price/ });
  });
});
