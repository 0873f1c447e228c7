import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { ClockProvider } from '../../lib/use-now';
import { useTicketActions } from '../ticket/ticket-store';
import { bookOf, createFakeBridge, funds } from '../../test/fake-bridge';
import { createManualClock, type ManualClock } from '../../test/manual-clock';
import { FundsPanel } from '../portfolio/funds-panel';
import { sessionQueries } from '../session/queries';

/**
 * A real polled panel (Funds) against an in-memory bridge whose poll never answers, under a
 * hand-moved clock and fake timers: the header must stop passing the figures off as live once
 * they outlive the panel's promise, though no error ever arrives.
 */

const T0 = Date.parse('2026-11-23T04:00:00Z');
const FUNDS = funds();

let clock: ManualClock;
let answered: number;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  clock = createManualClock(T0);
  answered = 0;
  setBridgeForTests(
    createFakeBridge({
      'orders.sync': () => bookOf([]),
      // The first poll answers; every later one hangs, as a poll retrying inside main does.
      'funds.get': () => (answered++ === 0 ? { ok: true, data: FUNDS } : new Promise(() => {})),
    }),
  );
});

/** Opens or closes the ticket (module state): with no live stream, an open ticket makes every panel poll each second. */
function setTicketOpen(open: boolean): void {
  const { result } = renderHook(() => useTicketActions());
  act(() => (open ? result.current.ticketOpened('BUY') : result.current.ticketClosed()));
}

afterEach(() => {
  setTicketOpen(true);
  setBridgeForTests(null);
  vi.useRealTimers();
});

/** Moves timers and the panel clock together, a second at a time, for `seconds`. */
async function pass(seconds: number): Promise<void> {
  for (let i = 0; i < seconds; i++) {
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    act(() => clock.set(Date.now()));
  }
}

function renderFunds() {
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <ClockProvider clock={clock}>
        <FundsPanel />
      </ClockProvider>
    </QueryClientProvider>,
  );
  const region = screen.getByRole('region', { name: 'Funds' });
  const label = () => region.querySelector('.freshness')!;
  return { client, region, label };
}

describe('Panel freshness', () => {
  it('keeps an idle panel fresh while its poll is young, then marks it stale at 16 s with no error', async () => {
    setTicketOpen(false); // idle: polled every 5 s
    const { region, label } = renderFunds();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(label().textContent).toBe('just now');

    await pass(14); // the 5 s poll went out at 5 s and has hung since
    expect(label().textContent).toBe('14 s ago');
    expect(label().getAttribute('data-stale')).toBe('false');
    expect(region.className).not.toMatch(/panel--stale/);

    await pass(2);
    expect(label().getAttribute('data-stale')).toBe('true');
    expect(label().textContent).toBe('Stale 16 s · No reply for 11 s');
    expect(region.className).toMatch(/panel--stale/);
    expect(region.textContent).toContain('₹12,34,567.50'); // the figures stay, marked stale
  });

  it('turns a busy panel (ticket open, no live stream, polled each second) stale at 11 s, naming the degraded link main reported', async () => {
    const { client, label } = renderFunds();
    await act(() => vi.advanceTimersByTimeAsync(0));
    await pass(10); // the 1 s poll went out at 1 s and has hung since
    expect(label().textContent).toBe('10 s ago');
    act(() => {
      client.setQueryData(sessionQueries.connection().queryKey, {
        rest: 'degraded',
        stream: 'connecting',
        detail: 'Too many requests',
      });
    });
    await pass(1);
    expect(label().textContent).toBe('Stale 11 s · Broker degraded (Too many requests) · retrying now');
  });
});
