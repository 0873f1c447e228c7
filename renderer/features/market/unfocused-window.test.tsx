import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/domain/order';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { bookOf, createFakeBridge, INFY, pushOf, type FakeBridge } from '../../test/fake-bridge';
import { layOutBoxes, restoreBoxes } from '../../test/laid-out-boxes';
import { order } from '../../test/ticket-harness';
import { Blotter } from '../orders/blotter';
import { useBridgeEvents } from '../session/use-bridge-events';
import { useQuote } from './use-quotes';

/**
 * A window without the focus draws prices once a second (docs/live-data.md §Windows not
 * focused); an order's state is not a price, and never waits for that pace. The real push
 * handling and the real blotter against an in-memory bridge, on fake timers and frames.
 */

const T0 = Date.parse('2026-11-23T04:00:00Z');

let bridge: FakeBridge;
let brokerOrders: Order[];

beforeEach(() => {
  vi.useFakeTimers({
    now: T0,
    toFake: [
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'Date',
      'requestAnimationFrame',
      'performance',
    ],
  });
  layOutBoxes(); // the blotter's virtualizer renders rows only in a box with a size
  brokerOrders = [order('250101000001', 'OPEN')];
  bridge = createFakeBridge({
    'orders.sync': () => bookOf(brokerOrders),
    'instruments.list': () => ({ ok: true, data: [] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => {
  act(() => {
    window.dispatchEvent(new Event('focus'));
  });
  setBridgeForTests(null);
  restoreBoxes();
  vi.useRealTimers();
});

function Price() {
  return <span data-testid="infy-price">{useQuote(INFY.instrumentToken)?.lastPrice ?? '–'}</span>;
}

function Desk() {
  useBridgeEvents();
  return (
    <>
      <Blotter />
      <Price />
    </>
  );
}

const ticks = (price: number) => ({
  ticks: [{ instrumentToken: INFY.instrumentToken, lastPrice: price, volume: 1, ts: new Date().toISOString() }],
});

async function pass(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

const price = (): string | null => screen.getByTestId('infy-price').textContent;
const status = (): string | null | undefined => screen.queryByText(/^(OPEN|COMPLETE)$/)?.textContent;

describe('a window without the focus', () => {
  it('shows a fill at once while its prices wait for their once-a-second drawing', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Desk />
      </QueryClientProvider>,
    );
    await pass(0);
    await act(async () => bridge.emit('market.ticks', ticks(1500)));
    await pass(20);
    expect(price()).toBe('1500');
    expect(status()).toBe('OPEN');

    act(() => {
      window.dispatchEvent(new Event('blur'));
    });
    await pass(1_100); // the slower pace's second since the last drawing has passed
    await act(async () => bridge.emit('market.ticks', ticks(1501)));
    await pass(20);
    expect(price()).toBe('1501'); // a drawing, then a second's wait

    brokerOrders = [order('250101000001', 'COMPLETE')];
    await act(async () => {
      bridge.emit('market.ticks', ticks(1502));
      bridge.emit('orders.changed', pushOf(brokerOrders[0] as Order));
    });
    await pass(100);
    // The fill is on the blotter; the price that came with it waits for the next drawing.
    expect(status()).toBe('COMPLETE');
    expect(price()).toBe('1501');
    await pass(1_000);
    expect(price()).toBe('1502');
  });
});
