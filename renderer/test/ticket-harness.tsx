import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import type { Order } from '@shared/domain/order';
import type { PlaceOutcome } from '@shared/domain/placement';
import type { IpcResult } from '@shared/ipc/result';
import { setBridgeForTests } from '../lib/bridge';
import { createQueryClient } from '../lib/query-client';
import { EMPTY_DRAFT } from '../features/ticket/ticket-model';
import { useTicketActions } from '../features/ticket/ticket-store';
import { usePlacementEvents } from '../features/placements/queries';
import { OrderTicket } from '../features/ticket/order-ticket';
import { bookOf, createFakeBridge, funds, INFY, NIFTY_CE, NIFTY_FUT, type FakeBridge } from './fake-bridge';

/**
 * The order ticket mounted as the app mounts it (with the `placements.changed` subscription),
 * against an in-memory bridge, plus the steps a trader takes with it.
 */

/** A fake bridge with instruments, funds, margin and an empty blotter, installed as the app's bridge. */
export function installTicketBridge(): FakeBridge {
  const bridge = createFakeBridge({
    'instruments.list': () => ({ ok: true, data: [INFY, NIFTY_FUT, NIFTY_CE] }),
    'funds.get': () => ({ ok: true, data: funds() }),
    'margins.order': () => ({ ok: true, data: { total: 1_23_456.5, orderValue: 1_23_456.5, leverage: 1 } }),
    'orders.sync': () => bookOf([]),
  });
  setBridgeForTests(bridge);
  return bridge;
}

function TicketInApp() {
  usePlacementEvents();
  return <OrderTicket />;
}

/** Renders a fresh ticket (the ticket store is module state, so it is reset first). */
export async function renderTicket(bridge: FakeBridge) {
  const { result } = renderHook(() => useTicketActions());
  act(() => {
    result.current.draftEdited({ ...EMPTY_DRAFT });
    result.current.ticketOpened('BUY');
  });
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={createQueryClient()}>
      <TicketInApp />
    </QueryClientProvider>,
  );
  const form = screen.getByRole('form', { name: 'Order ticket' });
  await waitFor(() => expect(bridge.callsOf('instruments.list')).toHaveLength(1));
  return { user, form, t: within(form), unmount: view.unmount };
}

/** Picks an instrument in the Symbol combobox with the keyboard. */
export async function choose(
  user: ReturnType<typeof userEvent.setup>,
  form: HTMLElement,
  text: string,
  symbol: string,
) {
  const box = within(form).getByRole('combobox', { name: 'Symbol' });
  await user.clear(box);
  await user.type(box, text);
  const listbox = await within(form).findByRole('listbox');
  const options = within(listbox).getAllByRole('option');
  // An option names a contract by its label ("NIFTY 26 Nov FUT") with its code in the tooltip.
  const n = options.findIndex((o) => o.querySelector('.sym')?.getAttribute('title') === symbol);
  expect(n).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < n; i++) await user.keyboard('{ArrowDown}');
  await user.keyboard('{Enter}');
  await waitFor(() => expect(box).toHaveProperty('value', symbol));
}

/** A deferred `orders.place` answer, so a test can look at the ticket while it is in flight. */
export function holdPlacement(bridge: FakeBridge) {
  let release!: (r: IpcResult<PlaceOutcome>) => void;
  bridge.answer('orders.place', () => new Promise<IpcResult<PlaceOutcome>>((r) => (release = r)));
  return {
    /** Answers it as placed. */
    placed: (orderId: string, status: Order['status'] = 'OPEN', clientOrderId = 'td-test') =>
      release({ ok: true, data: { state: 'placed', orderId, clientOrderId, status, recovered: false } }),
    /** Answers it with anything. */
    answer: (r: IpcResult<PlaceOutcome>) => release(r),
  };
}

/** The text of the element(s) an input's aria-describedby points at. */
export function describedText(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

/** An INFY order as the broker reports it. */
export function order(orderId: string, status: Order['status']): Order {
  return {
    orderId,
    clientOrderId: null,
    exchange: 'NSE',
    tradingsymbol: 'INFY',
    instrumentToken: INFY.instrumentToken,
    transactionType: 'BUY',
    quantity: 1,
    filledQuantity: status === 'COMPLETE' ? 1 : 0,
    pendingQuantity: status === 'COMPLETE' ? 0 : 1,
    cancelledQuantity: 0,
    orderType: 'MARKET',
    product: 'CNC',
    validity: 'DAY',
    price: null,
    triggerPrice: null,
    averagePrice: status === 'COMPLETE' ? 1500 : 0,
    status,
    statusMessage: null,
    placedAt: '2026-11-23T09:15:02+05:30',
    updatedAt: '2026-11-23T09:15:02+05:30',
  };
}
