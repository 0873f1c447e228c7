import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import type { OptionChain } from '@shared/domain/market';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { FILL_DEADLINE_MS } from '@shared/trading/buys-first';
import { createFakeBridge, NIFTY_CE, NIFTY_FUT, type FakeBridge } from '../../test/fake-bridge';
import { order } from '../../test/ticket-harness';
import { legOf } from './builder-model';
import { StrategyBuilder } from './strategy-builder';
import { useStrategyActions } from './strategy-store';

/**
 * The strategy builder against an in-memory bridge (docs/strategy.md): its figures from the legs
 * it holds, and Place — each leg through `orders.place`, buys first, the rest not sent once a leg
 * is refused (docs/desk.md §Baskets).
 */

let bridge: FakeBridge;
const CE: Instrument = {
  ...NIFTY_CE,
  tradingsymbol: 'NIFTY26NOV24600CE',
  instrumentToken: 7001,
  strike: 24_600,
  lastPrice: 80,
};
const PE: Instrument = {
  ...NIFTY_CE,
  tradingsymbol: 'NIFTY26NOV24400PE',
  instrumentToken: 7002,
  instrumentType: 'PE',
  strike: 24_400,
  lastPrice: 90,
};
const CE2: Instrument = {
  ...CE,
  tradingsymbol: 'NIFTY26NOV24700CE',
  instrumentToken: 7003,
  strike: 24_700,
  lastPrice: 50,
};

const CHAIN: OptionChain = {
  underlying: 'NIFTY',
  exchange: 'NFO',
  expiry: '2026-11-26',
  expiries: ['2026-11-26'],
  underlyingPrice: 24_512.35,
  atmStrike: 24_500,
  lotSize: 75,
  rows: [],
  ts: '2026-11-23T10:41:27+05:30',
};

beforeEach(() => {
  bridge = createFakeBridge({
    'instruments.list': () => ({ ok: true, data: [CE, PE, CE2, NIFTY_FUT] }),
    'options.chain': () => ({ ok: true, data: CHAIN }),
    'positions.list': () => ({ ok: true, data: [] }),
    'margins.basket': () => ({
      ok: true,
      data: { initial: 20_000, final: 9_000, legs: [{ total: 1 }, { total: 1 }, { total: 1 }] },
    }),
  });
  setBridgeForTests(bridge);
  const { result } = renderHook(() => useStrategyActions());
  act(() =>
    result.current.legsReplaced('NIFTY', [legOf(CE, 'SELL', 80)!, legOf(CE2, 'BUY', 50)!, legOf(PE, 'SELL', 90)!]),
  );
});
afterEach(() => setBridgeForTests(null));

function renderBuilder() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <StrategyBuilder onClose={() => undefined} />
    </QueryClientProvider>,
  );
  return screen.getByRole('dialog', { name: 'Strategy builder — NIFTY' });
}

describe('StrategyBuilder', () => {
  it('shows the payoff’s figures from the legs: max profit, an unlimited side, breakevens, the credit', async () => {
    const dialog = renderBuilder();
    const d = within(dialog);
    // Sold a 24,600 call and a 24,400 put, bought a 24,700 call: a credit of 80 + 90 − 50 = 120 a unit.
    await waitFor(() => expect(d.getByTestId('strategy-premium').textContent).toBe('Credit ₹9,000.00'));
    expect(d.getByTestId('strategy-max-profit').textContent).toBe('+₹9,000.00');
    // The put side is naked: the loss below the put's strike grows without a floor but zero.
    expect(d.getByTestId('strategy-max-loss').textContent).toMatch(/^−₹/);
    expect(d.getByTestId('strategy-breakevens').textContent).toBe('24,280');
    expect(d.getByRole('img', { name: /^Payoff of the NIFTY strategy at expiry/ })).toBeTruthy();
    expect(d.getAllByTestId('payoff-breakeven')).toHaveLength(1);
  });

  it('places the legs buys first, each once; a refused leg stops the rest, which are not sent', async () => {
    let n = 0;
    bridge.answer('orders.place', () => {
      n++;
      if (n === 2)
        return { ok: false, error: { kind: 'bad_request', message: 'Insufficient margin', field: 'quantity' } };
      return {
        ok: true,
        data: { state: 'placed', orderId: String(n), clientOrderId: `td-${n}`, status: 'OPEN', recovered: false },
      };
    });
    // The buy has filled when it is read: the sells may go.
    bridge.answer('orders.get', (p) => ({
      ok: true,
      data: { ...order((p as { orderId: string }).orderId, 'COMPLETE'), filledQuantity: 75, quantity: 75 },
    }));
    const dialog = renderBuilder();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Place 3 orders' }));
    const confirm = screen.getByRole('dialog', { name: 'Place 3 orders?' });
    expect(
      within(confirm)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'BUY 75 NIFTY26NOV24700CE @ 51.00',
      'SELL 75 NIFTY26NOV24600CE @ 80.00',
      'SELL 75 NIFTY26NOV24400PE @ 90.00',
    ]);
    await user.click(within(confirm).getByRole('button', { name: 'Place 3 orders' }));
    const outcomes = await screen.findAllByTestId('leg-outcome');
    await waitFor(() => expect(outcomes[2]?.getAttribute('data-state')).toBe('not_sent'));
    const sent = bridge
      .callsOf('orders.place')
      .map((c) => (c.payload as { order: { transactionType: string; tradingsymbol: string } }).order);
    expect(sent.map((o) => `${o.transactionType} ${o.tradingsymbol}`)).toEqual([
      'BUY NIFTY26NOV24700CE',
      'SELL NIFTY26NOV24600CE',
    ]);
    expect(outcomes[0]?.getAttribute('data-state')).toBe('placed');
    expect(outcomes[2]?.textContent).toMatch(/Not sent — nothing was created for this leg/);
  });

  it('a buy that does not fill holds the sells back: after the deadline they are not sent, and the builder names the buy still working', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      bridge.answer('orders.place', () => ({
        ok: true,
        data: { state: 'placed', orderId: '2600000001', clientOrderId: 'td-1', status: 'OPEN', recovered: false },
      }));
      bridge.answer('orders.get', () => ({
        ok: true,
        data: { ...order('2600000001', 'OPEN'), quantity: 75, filledQuantity: 0, pendingQuantity: 75 },
      }));
      const dialog = renderBuilder();
      expect(within(dialog).getByText(/Sells wait for the buys to fill/)).toBeTruthy();
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await user.click(within(dialog).getByRole('button', { name: 'Place 3 orders' }));
      await user.click(
        within(screen.getByRole('dialog', { name: 'Place 3 orders?' })).getByRole('button', { name: 'Place 3 orders' }),
      );
      await waitFor(() => expect(bridge.callsOf('orders.get').length).toBeGreaterThan(0));
      expect(bridge.callsOf('orders.place')).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(FILL_DEADLINE_MS + 1_000));
      const alert = await within(dialog).findByText(/The buys did not fill in time, so the sells were not sent/);
      expect(alert.textContent).toMatch(/leg 1 \(order 2600000001\) working, 0 of 75 filled/);
      const outcomes = within(dialog).getAllByTestId('leg-outcome');
      expect(outcomes.map((o) => o.getAttribute('data-state'))).toEqual(['placed', 'not_sent', 'not_sent']);
      expect(bridge.callsOf('orders.place')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
