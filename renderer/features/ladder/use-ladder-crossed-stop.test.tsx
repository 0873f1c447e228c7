import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { order } from '../../test/ticket-harness';
import { createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { useLadderActions } from './use-ladder-actions';

/**
 * The ladder refuses a stop the last price has already crossed before anything is sent
 * (`shared/trading/stop-trigger.ts`): it would trigger at once (Zerodha refuses it too).
 */

let bridge: FakeBridge;
beforeEach(() => {
  bridge = createFakeBridge({
    'orders.modify': () => ({ ok: true, data: { orderId: '250101000041', status: 'TRIGGER PENDING' } }),
  });
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

function wrapper({ children }: { readonly children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

const stop: Order = {
  ...order('250101000041', 'TRIGGER PENDING'),
  transactionType: 'SELL',
  orderType: 'SL-M',
  price: null,
  triggerPrice: 1380,
};

describe('the ladder and a stop past the last price', () => {
  it('dragging a SELL SL-M trigger from 1,380 to 1,405 with the price at 1,400 sends nothing and says why in the cell', () => {
    const { result } = renderHook(() => useLadderActions(), { wrapper });
    act(() => result.current.move(stop, 13_800_000, 14_050_000, { triggerPrice: 1405 }, 1400));
    expect(bridge.callsOf('orders.modify')).toEqual([]);
    expect(result.current.actions.get(stop.orderId)).toMatchObject({
      kind: 'moving',
      failed: "A sell stop's trigger must be below the last price (₹1,400.00): at ₹1,405.00 it would trigger at once",
    });
    // Below the last price it is sent.
    act(() => result.current.move(stop, 13_800_000, 13_900_000, { triggerPrice: 1390 }, 1400));
    expect(bridge.callsOf('orders.modify')).toHaveLength(1);
  });

  it('a BUY stop clicked at or below the last price is refused in its cell, unsent', () => {
    const { result } = renderHook(() => useLadderActions(), { wrapper });
    const buy = {
      exchange: 'NSE' as const,
      tradingsymbol: 'INFY',
      transactionType: 'BUY' as const,
      quantity: 1,
      orderType: 'SL' as const,
      product: 'MIS' as const,
      validity: 'DAY' as const,
      price: 1399,
      triggerPrice: 1399,
    };
    act(() => result.current.place('offer', 13_990_000, buy, 1400));
    expect(bridge.callsOf('orders.place')).toEqual([]);
    expect([...result.current.clicks.values()][0]?.state).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/^A buy stop's trigger must be above the last price \(₹1,400\.00\)/),
    });
  });
});
