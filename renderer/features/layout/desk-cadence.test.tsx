import { QueryClientProvider, focusManager } from '@tanstack/react-query';
import { act, render, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@shared/domain/order';
import type { ConnectionState } from '@shared/domain/session';
import type { RequestChannel } from '@shared/ipc/contract';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { ClockProvider } from '../../lib/use-now';
import { bookOf, createFakeBridge, pushOf, type FakeBridge } from '../../test/fake-bridge';
import { createManualClock, type ManualClock } from '../../test/manual-clock';
import { order } from '../../test/ticket-harness';
import { Blotter } from '../orders/blotter';
import { usePlacementEvents } from '../placements/queries';
import { FundsPanel } from '../portfolio/funds-panel';
import { HoldingsPanel } from '../portfolio/holdings-panel';
import { useBridgeEvents } from '../session/use-bridge-events';
import { useTicketActions } from '../ticket/ticket-store';

/**
 * The desk's cadence end to end in the renderer: real panels (Orders, Funds, Holdings) and the
 * real push handling against an in-memory bridge, under fake timers. What a trader's broker sees
 * is the number of reads per channel, so that is what these tests count.
 */

const T0 = Date.parse('2026-11-23T04:00:00Z');
const FUNDS = {
  availableCash: 5_00_000,
  usedMargin: 0,
  availableMargin: 5_00_000,
  openingBalance: 5_00_000,
  realisedPnl: 0,
  unrealisedPnl: 0,
};
const LIVE: ConnectionState = { rest: 'up', stream: 'open', detail: null };
const RECONNECTING: ConnectionState = { rest: 'up', stream: 'connecting', detail: 'No data from the broker for 10 s' };

/** happy-dom lays nothing out; give the blotter's scroll box a size so its virtualizer renders rows. */
const boxSize = { clientHeight: 600, clientWidth: 1000 } as const;
const realBox = Object.fromEntries(
  Object.keys(boxSize).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)]),
);

let bridge: FakeBridge;
let brokerOrders: Order[];
let clock: ManualClock;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  focusManager.setFocused(undefined);
  clock = createManualClock(T0);
  for (const [k, v] of Object.entries(boxSize)) {
    Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
  }
  brokerOrders = [];
  bridge = createFakeBridge({
    'orders.sync': () => bookOf(brokerOrders),
    'funds.get': () => ({ ok: true, data: FUNDS }),
    'holdings.list': () => ({ ok: true, data: [] }),
    'instruments.list': () => ({ ok: true, data: [] }),
    'connection.status': () => ({ ok: true, data: RECONNECTING }),
  });
  setBridgeForTests(bridge);
  setTicketOpen(false);
});

afterEach(() => {
  setTicketOpen(true);
  setBridgeForTests(null);
  for (const [k, d] of Object.entries(realBox)) {
    if (d) Object.defineProperty(HTMLElement.prototype, k, d);
    else Reflect.deleteProperty(HTMLElement.prototype, k);
  }
  vi.useRealTimers();
});

function setTicketOpen(open: boolean): void {
  const { result } = renderHook(() => useTicketActions());
  act(() => (open ? result.current.ticketOpened('BUY') : result.current.ticketClosed()));
}

function Desk() {
  useBridgeEvents();
  usePlacementEvents();
  return (
    <>
      <Blotter />
      <FundsPanel />
      <HoldingsPanel />
    </>
  );
}

/** Mounts the desk and lets its first reads answer. */
async function openDesk(): Promise<void> {
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <ClockProvider clock={clock}>
        <Desk />
      </ClockProvider>
    </QueryClientProvider>,
  );
  await act(() => vi.advanceTimersByTimeAsync(0));
}

/** Main reports the stream's state, as `connection.changed` does. */
async function stream(state: ConnectionState): Promise<void> {
  bridge.answer('connection.status', () => ({ ok: true, data: state }));
  await act(async () => bridge.emit('connection.changed', state));
  await act(() => vi.advanceTimersByTimeAsync(0));
}

/** Lets `ms` pass on the timers and the panels' clock. */
async function pass(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  act(() => clock.set(Date.now()));
}

/** Reads of one channel since `from` (an index into the recorded calls). */
function readsSince(from: number, channel: RequestChannel): number {
  return bridge.calls.slice(from).filter((c) => c.channel === channel).length;
}

describe('the desk cadence', () => {
  it('asks the broker for orders and funds every 30 s and holdings every 2 min while the stream is live and nothing works', async () => {
    await openDesk();
    await stream(LIVE);
    const from = bridge.calls.length;
    await pass(120_000);
    expect(readsSince(from, 'orders.sync')).toBe(4);
    expect(readsSince(from, 'funds.get')).toBe(4);
    expect(readsSince(from, 'holdings.list')).toBe(1);
  });

  it('shows 29 s old funds as fresh between reconciles while the stream is live, promising 40 s', async () => {
    await openDesk();
    await stream(LIVE);
    await pass(30_000); // the first 30 s reconcile
    await pass(29_000);
    const label = document.querySelector('[aria-labelledby] .freshness[data-max-age-ms="40000"]');
    expect(label?.textContent).toBe('29 s ago');
    expect(label?.getAttribute('data-stale')).toBe('false');
    expect(label?.getAttribute('title')).toMatch(/live stream.*re-checked every 30 s/);
  });

  it('polls everything every 5 s when the stream is down and the ticket closed, and every second with it open', async () => {
    await openDesk();
    await stream(RECONNECTING);
    let from = bridge.calls.length;
    await pass(10_000);
    expect(readsSince(from, 'funds.get')).toBe(2);
    expect(readsSince(from, 'holdings.list')).toBe(2);
    setTicketOpen(true);
    await pass(0);
    from = bridge.calls.length;
    await pass(10_000);
    expect(readsSince(from, 'funds.get')).toBe(10);
    expect(readsSince(from, 'orders.sync')).toBe(10);
  });

  it('re-reads everything at once when the live stream is lost, then polls fast until it is back', async () => {
    await openDesk();
    await stream(LIVE);
    await pass(10_000);
    const from = bridge.calls.length;
    await stream(RECONNECTING);
    // At once: no waiting out the 30 s cadence with figures that may be 30 s old.
    expect(readsSince(from, 'funds.get')).toBe(1);
    expect(readsSince(from, 'holdings.list')).toBe(1);
    expect(readsSince(from, 'orders.sync')).toBe(1);
    await pass(5_000);
    expect(readsSince(from, 'funds.get')).toBe(2);
  });

  it('reconciles at once when the stream comes back after a loss, but not the first time it goes live', async () => {
    await openDesk();
    let from = bridge.calls.length;
    await stream(LIVE);
    expect(readsSince(from, 'funds.get')).toBe(0);
    await stream(RECONNECTING);
    await pass(1_000);
    from = bridge.calls.length;
    await stream(LIVE);
    expect(readsSince(from, 'funds.get')).toBe(1);
    expect(readsSince(from, 'orders.sync')).toBe(1);
    expect(readsSince(from, 'holdings.list')).toBe(1);
  });

  it('reads orders every 2 s while one is working with the stream live, and the rest at their slow cadence', async () => {
    brokerOrders = [order('250101000001', 'OPEN')];
    await openDesk();
    await stream(LIVE);
    let from = bridge.calls.length;
    await pass(60_000);
    expect(readsSince(from, 'orders.sync')).toBe(30);
    expect(readsSince(from, 'funds.get')).toBe(2);
    // Once it no longer works, orders slow down again.
    brokerOrders = [order('250101000001', 'CANCELLED')];
    await pass(2_000);
    from = bridge.calls.length;
    await pass(61_000);
    expect(readsSince(from, 'orders.sync')).toBe(2);
  });

  it('reconciles orders and funds after a pushed order change, and holdings only when the push carries a fill', async () => {
    brokerOrders = [order('250101000001', 'OPEN')];
    await openDesk();
    await stream(LIVE);
    await pass(500);
    let from = bridge.calls.length;
    const modified = { ...order('250101000001', 'OPEN'), price: 1490 };
    await act(async () => bridge.emit('orders.changed', pushOf(modified)));
    await pass(1_100);
    expect(readsSince(from, 'funds.get')).toBe(1);
    expect(readsSince(from, 'holdings.list')).toBe(0);

    from = bridge.calls.length;
    brokerOrders = [order('250101000001', 'COMPLETE')];
    await act(async () => bridge.emit('orders.changed', pushOf(brokerOrders[0] as Order)));
    await pass(1_100);
    expect(readsSince(from, 'funds.get')).toBe(1);
    expect(readsSince(from, 'holdings.list')).toBe(1);
  });
});
