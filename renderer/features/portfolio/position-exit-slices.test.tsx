import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { MarketStatus } from '@shared/domain/market';
import type { OrderRequest } from '@shared/domain/order';
import { positionOf } from '@shared/testing/portfolio-fixtures';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { NIFTY_FUT, type FakeBridge } from '../../test/fake-bridge';
import { installTicketBridge } from '../../test/ticket-harness';
import { usePlacementEvents } from '../placements/queries';
import { OrderTicket } from '../ticket/order-ticket';
import { PositionsPanel } from './positions-panel';

/**
 * A position's own Exit above the freeze quantity: the row's Exit fills the ticket with the whole
 * position, and the ticket offers it as legs the exchange accepts, each its own placement
 * (docs/contract.md §Trading rules) — as the kill switch and "Exit selected" slice in main.
 */

let bridge: FakeBridge;

const OPEN: MarketStatus = {
  now: '2026-11-23T11:00:00+05:30',
  simulated: false,
  speed: 1,
  exchanges: (['NSE', 'NFO'] as const).map((exchange) => ({
    exchange,
    phase: 'open',
    detail: null,
    nextPreOpen: '2026-11-24T09:00:00+05:30',
    nextOpen: '2026-11-24T09:15:00+05:30',
    nextClose: '2026-11-23T15:30:00+05:30',
  })),
};

beforeEach(() => {
  bridge = installTicketBridge();
  bridge.answer('market.status', () => ({ ok: true, data: OPEN }));
  bridge.answer('positions.list', () => ({
    ok: true,
    data: [
      positionOf({
        exchange: 'NFO',
        tradingsymbol: NIFTY_FUT.tradingsymbol,
        instrumentToken: NIFTY_FUT.instrumentToken,
        product: 'MIS',
        quantity: 3_600,
        averagePrice: 26_000,
        lastPrice: 26_010,
        buyQuantity: 3_600,
        dayBuyQuantity: 3_600,
      }),
    ],
  }));
  bridge.answer('holdings.list', () => ({ ok: true, data: [] }));
});

afterEach(() => setBridgeForTests(null));

function Desk() {
  usePlacementEvents();
  return (
    <>
      <PositionsPanel />
      <OrderTicket />
    </>
  );
}

it("a long 3,600 NIFTY's Exit is offered as two SELL legs of 1,800, and each leg is placed once with its own request id", async () => {
  let n = 0;
  bridge.answer('orders.place', () => ({
    ok: true,
    data: { state: 'placed', orderId: String(++n), clientOrderId: `td-${n}`, status: 'COMPLETE', recovered: false },
  }));
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Desk />
    </QueryClientProvider>,
  );
  await user.click(await screen.findByRole('button', { name: `Exit ${NIFTY_FUT.tradingsymbol} MIS` }));

  const form = screen.getByRole('form', { name: 'Order ticket' });
  const offer = await within(form).findByRole('group', { name: 'Freeze limit' });
  expect(offer.textContent).toContain('Quantity 3,600 is above the freeze limit of 1,800 — place as 2 legs?');
  await user.click(within(offer).getByRole('button', { name: 'Place as 2 legs' }));

  await waitFor(() =>
    expect(screen.getAllByTestId('leg-outcome').map((l) => l.textContent)).toEqual([
      'Leg 1 of 2 · 1,800 Order 1 · COMPLETE',
      'Leg 2 of 2 · 1,800 Order 2 · COMPLETE',
    ]),
  );
  const calls = bridge.callsOf('orders.place').map((c) => c.payload as { order: OrderRequest; requestId: string });
  expect(calls.map((c) => [c.order.transactionType, c.order.quantity, c.order.product])).toEqual([
    ['SELL', 1_800, 'MIS'],
    ['SELL', 1_800, 'MIS'],
  ]);
  expect(new Set(calls.map((c) => c.requestId)).size).toBe(2);
});
