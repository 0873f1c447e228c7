import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order, OrderAck } from '../../../shared/domain/order';
import type { IpcResult } from '../../../shared/ipc/result';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { EMPTY_DRAFT, useTicketActions } from '../../state/ticket-store';
import { createFakeBridge, INFY, NIFTY_CE, NIFTY_FUT, type FakeBridge } from '../../test/fake-bridge';
import { OrderTicket } from './order-ticket';

/**
 * The order ticket as a trader uses it, against an in-memory bridge: rules applied while
 * typing, errors next to their fields, and exactly one placement per intent.
 */

let bridge: FakeBridge;

function funds() {
  return {
    availableCash: 5_00_000,
    usedMargin: 0,
    availableMargin: 12_34_567.5,
    openingBalance: 5_00_000,
    realisedPnl: 0,
    unrealisedPnl: 0,
  };
}

beforeEach(() => {
  bridge = createFakeBridge({
    'instruments.list': () => ({ ok: true, data: [INFY, NIFTY_FUT, NIFTY_CE] }),
    'funds.get': () => ({ ok: true, data: funds() }),
    'margins.order': () => ({ ok: true, data: { total: 1_23_456.5, orderValue: 1_23_456.5, leverage: 1 } }),
    'orders.list': () => ({ ok: true, data: [] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

/** Renders a fresh ticket (the ticket store is module state, so it is reset first). */
async function renderTicket() {
  const { result } = renderHook(() => useTicketActions());
  act(() => {
    result.current.draftEdited({ ...EMPTY_DRAFT });
    result.current.ticketOpened('BUY');
  });
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <OrderTicket />
    </QueryClientProvider>,
  );
  const form = screen.getByRole('form', { name: 'Order ticket' });
  await waitFor(() => expect(bridge.callsOf('instruments.list')).toHaveLength(1));
  return { user, form, t: within(form) };
}

/** Picks an instrument in the Symbol combobox with the keyboard. */
async function choose(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, text: string, symbol: string) {
  const box = within(form).getByRole('combobox', { name: 'Symbol' });
  await user.clear(box);
  await user.type(box, text);
  const listbox = await within(form).findByRole('listbox');
  const options = within(listbox).getAllByRole('option');
  const n = options.findIndex((o) => o.textContent?.startsWith(symbol));
  expect(n).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < n; i++) await user.keyboard('{ArrowDown}');
  await user.keyboard('{Enter}');
  await waitFor(() => expect(box).toHaveProperty('value', symbol));
}

/** A deferred `orders.place` answer, so a test can look at the ticket while it is in flight. */
function holdPlacement() {
  let release!: (r: IpcResult<OrderAck>) => void;
  bridge.answer('orders.place', () => new Promise<IpcResult<OrderAck>>((r) => (release = r)));
  return (ack: OrderAck) =>
    release({
      ok: true,
      data: {
        state: 'placed',
        orderId: ack.orderId,
        clientOrderId: ack.clientOrderId ?? 'td-test',
        status: ack.status,
        recovered: false,
      },
    } as unknown as IpcResult<OrderAck>);
}

describe('OrderTicket', () => {
  it('does not greet a blank ticket with an error, but will not place it either', async () => {
    const { t } = await renderTicket();
    expect(t.getByRole('combobox', { name: 'Symbol' }).getAttribute('aria-invalid')).toBeNull();
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);
  });

  it('places on Enter at once when the trader turned confirmation off', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    const confirmToggle = t.getByRole('checkbox', { name: 'Confirm on Enter' });
    await user.click(confirmToggle);
    try {
      holdPlacement();
      await user.type(t.getByLabelText('Quantity'), '{Enter}');
      expect(t.queryByRole('group', { name: 'Confirm order' })).toBeNull();
      expect(bridge.callsOf('orders.place')).toHaveLength(1);
    } finally {
      await user.click(confirmToggle); // the setting is persisted: leave it as found
    }
  });

  it('steps the quantity by whole lots with the arrow keys, never below one lot', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'NIFTY26NOVFUT', 'NIFTY26NOVFUT');
    const qty = t.getByLabelText('Quantity');
    expect(qty).toHaveProperty('value', '75');
    expect(form.textContent).toContain('lot 75');
    await user.type(qty, '{ArrowUp}{ArrowUp}');
    expect(qty).toHaveProperty('value', '225');
    await user.type(qty, '{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(qty).toHaveProperty('value', '75');
  });

  it('says next to Quantity when it is not a whole number of lots, and will not place it', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'NIFTY26NOVFUT', 'NIFTY26NOVFUT');
    const qty = t.getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '100');
    expect(qty.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(qty)).toBe('Quantity must be a multiple of the lot size (75)');
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);
    await user.clear(qty);
    await user.type(qty, '150');
    expect(qty.getAttribute('aria-invalid')).toBeNull();
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', false);
  });

  it('keeps an off-tick price as typed, names the two nearest valid prices, and will not place it', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    await user.selectOptions(t.getByLabelText('Order type'), 'SL');
    for (const [label, typed] of [
      ['Price', '1500.08'],
      ['Trigger price', '1500.07'],
    ] as const) {
      const field = t.getByLabelText(label);
      await user.clear(field);
      await user.type(field, typed);
      await user.tab();
      expect(field).toHaveProperty('value', typed);
      expect(field.getAttribute('aria-invalid')).toBe('true');
    }
    expect(describedText(t.getByLabelText('Price'))).toBe(
      '₹1,500.08 is off the ₹0.05 tick — use ₹1,500.05 or ₹1,500.10',
    );
    expect(describedText(t.getByLabelText('Trigger price'))).toBe(
      '₹1,500.07 is off the ₹0.05 tick — use ₹1,500.05 or ₹1,500.10',
    );
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);
  });

  it('starts a LIMIT price from the last price, on the tick, and keeps a price already typed', async () => {
    bridge.answer('instruments.list', () => ({
      ok: true,
      data: [{ ...INFY, lastPrice: 1498.27 }, NIFTY_FUT, NIFTY_CE],
    }));
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    await user.selectOptions(t.getByLabelText('Order type'), 'LIMIT');
    expect(t.getByLabelText('Price')).toHaveProperty('value', '1498.25');
    await user.clear(t.getByLabelText('Price'));
    await user.type(t.getByLabelText('Price'), '1490');
    await user.selectOptions(t.getByLabelText('Order type'), 'SL');
    expect(t.getByLabelText('Price')).toHaveProperty('value', '1490');
  });

  it('disables the fields the order type does not take', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    const price = t.getByLabelText('Price');
    const trigger = t.getByLabelText('Trigger price');
    const type = t.getByLabelText('Order type');
    const state = () => [(price as HTMLInputElement).disabled, (trigger as HTMLInputElement).disabled];
    expect(state()).toEqual([true, true]); // MARKET
    await user.selectOptions(type, 'LIMIT');
    expect(state()).toEqual([false, true]);
    await user.selectOptions(type, 'SL');
    expect(state()).toEqual([false, false]);
    await user.selectOptions(type, 'SL-M');
    expect(state()).toEqual([true, false]);
  });

  it('offers no SL-M on an option', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'NIFTY26NOV24500', 'NIFTY26NOV24500CE');
    const slm = within(t.getByLabelText('Order type')).getByRole('option', { name: 'SL-M' });
    expect(slm).toHaveProperty('disabled', true);
  });

  it('cannot submit CNC on an NFO future, by click or Enter, and says why next to Product', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'NIFTY26NOVFUT', 'NIFTY26NOVFUT');
    const product = t.getByLabelText('Product');
    await user.selectOptions(product, 'CNC');
    expect(product.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(product)).toBe('CNC (delivery) is only for NSE/BSE equity, not NFO FUT; use MIS or NRML');
    const place = t.getByRole('button', { name: 'Place order' });
    expect(place).toHaveProperty('disabled', true);
    await user.click(place);
    await user.type(t.getByLabelText('Quantity'), '{Enter}');
    expect(t.queryByRole('group', { name: 'Confirm order' })).toBeNull();
    expect(bridge.callsOf('orders.place')).toHaveLength(0);
  });

  it('cannot submit IOC with SL, and says why next to Validity', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    await user.selectOptions(t.getByLabelText('Order type'), 'SL');
    await user.clear(t.getByLabelText('Price'));
    await user.type(t.getByLabelText('Price'), '1510');
    await user.type(t.getByLabelText('Trigger price'), '1505');
    const validity = t.getByLabelText('Validity');
    await user.selectOptions(validity, 'IOC');
    expect(describedText(validity)).toBe('IOC is only for MARKET and LIMIT orders, not SL; use DAY');
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);
    expect(t.getByLabelText('Product').getAttribute('aria-invalid')).toBeNull();
    await user.selectOptions(validity, 'DAY');
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', false);
  });

  it('shows the margin the order needs and what is available, in rupees with Indian grouping', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    await waitFor(() => expect(t.getByTestId('margin-required').textContent).toBe('₹1,23,456.50'));
    expect(t.getByTestId('margin-available').textContent).toBe('₹12,34,567.50');
  });

  it('places one order however fast Place order is clicked, showing "Placing…" then the order id', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    const release = holdPlacement();
    const place = t.getByRole('button', { name: 'Place order' });
    await user.dblClick(place);
    await user.click(place);
    expect(bridge.callsOf('orders.place')).toHaveLength(1);
    expect(t.getByRole('button', { name: 'Placing…' })).toHaveProperty('disabled', true);

    bridge.answer('orders.list', () => ({ ok: true, data: [order('250101000001', 'COMPLETE')] }));
    await act(async () => release({ orderId: '250101000001', status: 'OPEN' }));
    expect(await t.findByTestId('ticket-order-id')).toHaveProperty('textContent', '250101000001');
    await waitFor(() => expect(t.getByTestId('ticket-order-status').textContent).toBe('COMPLETE'));
    expect(bridge.callsOf('orders.place')).toHaveLength(1);
    expect(bridge.callsOf('orders.place')[0]!.payload).toMatchObject({
      order: {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        transactionType: 'BUY',
        quantity: 1,
        orderType: 'MARKET',
        product: 'CNC',
      },
    });
  });

  it('shows the order id the moment the broker answers, without waiting for the refetches it triggers', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    // The refetches after a placement queue behind polls in main; here they never answer.
    bridge.answer('orders.list', () => new Promise<never>(() => undefined));
    bridge.answer('funds.get', () => new Promise<never>(() => undefined));
    const release = holdPlacement();
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await act(async () => release({ orderId: '250101000007', status: 'OPEN' }));
    expect(await t.findByTestId('ticket-order-id')).toHaveProperty('textContent', '250101000007');
    expect(t.getByRole('button', { name: 'Place order' })).toBeTruthy(); // no longer "Placing…"
  });

  it('also guards two clicks that land before React re-renders', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    holdPlacement();
    const place = t.getByRole('button', { name: 'Place order' });
    act(() => {
      place.click();
      place.click();
    });
    await waitFor(() => expect(t.getByRole('button', { name: 'Placing…' })).toBeTruthy());
    expect(bridge.callsOf('orders.place')).toHaveLength(1);
  });

  it('asks for confirmation on Enter, places once on Confirm, and Esc backs out of it', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    const qty = t.getByLabelText('Quantity');
    await user.type(qty, '{Enter}');
    const confirm = t.getByRole('group', { name: 'Confirm order' });
    expect(confirm.textContent).toContain('BUY 1 INFY MARKET');
    await user.keyboard('{Escape}');
    expect(t.queryByRole('group', { name: 'Confirm order' })).toBeNull();
    expect(bridge.callsOf('orders.place')).toHaveLength(0);

    const release = holdPlacement();
    await user.type(qty, '{Enter}');
    await user.keyboard('{Enter}'); // the Confirm button has focus
    expect(bridge.callsOf('orders.place')).toHaveLength(1);
    await act(async () => release({ orderId: '250101000002', status: 'OPEN' }));
    expect(await t.findByTestId('ticket-order-id')).toHaveProperty('textContent', '250101000002');
  });

  it("shows the broker's refusal next to the field it names", async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'Quantity is above your limit for INFY', field: 'order.quantity' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    const qty = t.getByLabelText('Quantity');
    await waitFor(() => expect(describedText(qty)).toBe('Quantity is above your limit for INFY'));
    // Editing the field clears the broker's word: it was about the old value.
    await user.type(qty, '0');
    expect(qty.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows a refusal that names no field under the button, as not placed', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'forbidden', message: 'This session may only read' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    expect((await t.findByRole('alert')).textContent).toBe('Not placed: This session may only read');
  });
});

/** The text of the element(s) an input's aria-describedby points at. */
function describedText(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

function order(orderId: string, status: Order['status']): Order {
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
