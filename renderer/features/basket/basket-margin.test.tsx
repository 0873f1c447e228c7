import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OrderRequest } from '@shared/domain/order';
import type { IpcResult } from '@shared/ipc/result';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { useBasketsActions } from '../../state/baskets-store';
import { BasketPanel } from './basket-panel';
import { BASKET_MARGIN_DEBOUNCE_MS, BasketMarginError, BasketMarginSummary, useBasketMargin } from './basket-margin';

/**
 * The basket's margin line against an in-memory bridge under fake timers: asked once the legs
 * settle, "Margin ₹X (₹Y before hedging)", marked while it belongs to older legs, and a failure
 * shown as such with a retry (docs/desk.md §Baskets).
 */

const leg = (tradingsymbol: string, transactionType: 'BUY' | 'SELL', price: number): OrderRequest => ({
  exchange: 'NFO',
  tradingsymbol,
  transactionType,
  quantity: 75,
  orderType: 'LIMIT',
  product: 'NRML',
  validity: 'DAY',
  price,
});
const LONG = leg('NIFTY26NOV24500CE', 'BUY', 100);
const SHORT = leg('NIFTY26NOV24600CE', 'SELL', 40);
const SPREAD = { initial: 8_250, final: 5_250, legs: [{ total: 7_500 }, { total: 750 }] };

let bridge: FakeBridge;
let reply: () => IpcResult<unknown>;
beforeEach(() => {
  vi.useFakeTimers();
  reply = () => ({ ok: true, data: SPREAD });
  bridge = createFakeBridge({ 'margins.basket': () => reply() });
  setBridgeForTests(bridge);
});
afterEach(() => {
  setBridgeForTests(null);
  vi.useRealTimers();
});

function Harness({ legs }: { readonly legs: readonly OrderRequest[] }) {
  const view = useBasketMargin(legs);
  return (
    <>
      <BasketMarginSummary view={view} />
      <BasketMarginError view={view} />
    </>
  );
}

function mount(legs: readonly OrderRequest[]) {
  const client = createQueryClient();
  const ui = (l: readonly OrderRequest[]) => (
    <QueryClientProvider client={client}>
      <Harness legs={l} />
    </QueryClientProvider>
  );
  const r = render(ui(legs));
  return { rerender: (l: readonly OrderRequest[]) => r.rerender(ui(l)) };
}

const summary = () => screen.getByTestId('basket-margin-summary');
/** The debounce passes, then the bridge's reply is rendered (fake time: nothing waits for real). */
const settle = async () => {
  await act(() => vi.advanceTimersByTimeAsync(BASKET_MARGIN_DEBOUNCE_MS));
  await act(() => vi.advanceTimersByTimeAsync(50));
};

describe('basket margin', () => {
  it('shows the hedged figure and the figure before hedging, from one call for legs changed three times in a row', async () => {
    const { rerender } = mount([]);
    rerender([LONG]);
    rerender([LONG, SHORT]);
    rerender([LONG, { ...SHORT, price: 45 }]);
    rerender([LONG, SHORT]);
    expect(bridge.callsOf('margins.basket')).toHaveLength(0);
    await settle();
    expect(bridge.callsOf('margins.basket')).toEqual([
      { channel: 'margins.basket', payload: { orders: [LONG, SHORT] } },
    ]);
    expect(summary().dataset.state).toBe('fresh');
    expect(summary().textContent).toContain('Margin ₹5,250.00 (₹8,250.00 before hedging)');
  });

  it('marks the last figure as updating while the legs have changed and the new one is not in', async () => {
    const { rerender } = mount([LONG, SHORT]);
    await settle();
    rerender([LONG]);
    expect(summary().dataset.state).toBe('stale');
    expect(summary().textContent).toContain('updating');
    reply = () => ({ ok: true, data: { initial: 7_500, final: 7_500, legs: [{ total: 7_500 }] } });
    await settle();
    expect(summary().dataset.state).toBe('fresh');
    expect(summary().textContent).toContain('Margin ₹7,500.00 (₹7,500.00 before hedging)');
  });

  it('a failed call shows "unknown" and the reason, not the old figure, and Retry brings the figure', async () => {
    reply = () => ({ ok: false, error: { kind: 'timeout', message: 'The broker did not answer in time' } });
    mount([LONG, SHORT]);
    await settle();
    expect(summary().dataset.state).toBe('failed');
    expect(screen.getByTestId('basket-margin').textContent).toContain('unknown');
    expect(screen.getByRole('alert').textContent).toMatch(/^Margin not known: .+You can still place the basket/);
    reply = () => ({ ok: true, data: SPREAD });
    await act(async () => screen.getByRole('button', { name: 'Retry' }).click());
    await settle();
    expect(summary().textContent).toContain('Margin ₹5,250.00 (₹8,250.00 before hedging)');
  });

  it('asks nothing for an empty basket and shows a dash', async () => {
    mount([]);
    await settle();
    expect(bridge.callsOf('margins.basket')).toHaveLength(0);
    expect(screen.getByTestId('basket-margin').textContent).toContain('–');
  });

  it('in the basket panel, a failed margin leaves Place all enabled: the figure is advisory', async () => {
    reply = () => ({ ok: false, error: { kind: 'server_error', message: 'The broker failed' } });
    const { result } = renderHook(() => useBasketsActions());
    act(() => result.current.basketsChanged('none', () => ({ legs: [LONG, SHORT], saved: [] })));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <BasketPanel />
      </QueryClientProvider>,
    );
    await settle();
    expect(summary().dataset.state).toBe('failed');
    expect(screen.getByRole('button', { name: 'Place all 2 legs' })).toHaveProperty('disabled', false);
    act(() => result.current.basketsChanged('none', () => ({ legs: [], saved: [] })));
  });
});
