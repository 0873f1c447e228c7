import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, INFY, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import type { PriceLine } from './candle-model';
import { useChartTrading } from './use-chart-trading';

/**
 * Chart trading refuses to move a stop past the last price before anything is sent or asked
 * (`shared/trading/stop-trigger.ts`): it would trigger at once (Zerodha refuses it too).
 */

let bridge: FakeBridge;
beforeEach(() => {
  bridge = createFakeBridge({
    'orders.modify': () => ({ ok: true, data: { orderId: '250101000051', status: 'TRIGGER PENDING' } }),
  });
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

function wrapper({ children }: { readonly children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

const stop: Order = {
  ...order('250101000051', 'TRIGGER PENDING'),
  transactionType: 'SELL',
  orderType: 'SL-M',
  price: null,
  triggerPrice: 1380,
};
const line = { id: `${stop.orderId}:trigger`, price: 1380, title: 'SELL SL-M 1' } as PriceLine;

describe('a stop line dragged on the chart', () => {
  it('from 1,380 to 1,405 with the price at 1,400: not asked, not sent, "Not modified" with why', () => {
    const { result } = renderHook(() => useChartTrading(INFY, [stop], null, 1400, [line]), { wrapper });
    act(() => result.current.onDrop(line, 1405));
    expect(result.current.confirming).toBeNull();
    expect(bridge.callsOf('orders.modify')).toEqual([]);
    expect(result.current.modifyError).toBe(
      "Not modified: A sell stop's trigger must be below the last price (₹1,400.00): at ₹1,405.00 it would trigger at once",
    );
    // Below the last price the move is asked as before.
    act(() => result.current.onDrop(line, 1390));
    expect(result.current.confirming).toMatchObject({ orderId: stop.orderId, changes: { triggerPrice: 1390 } });
  });
});
