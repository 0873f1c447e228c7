import { act, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { setBridgeForTests } from '../../lib/bridge';
import { bookOf, INFY, NIFTY_CE, NIFTY_FUT, type FakeBridge } from '../../test/fake-bridge';
import {
  choose,
  describedText,
  holdPlacement as hold,
  installTicketBridge,
  order,
  renderTicket as mount,
} from '../../test/ticket-harness';

/**
 * The order ticket as a trader uses it, against an in-memory bridge: rules applied while
 * typing, errors next to their fields, and exactly one placement per intent. What the ticket
 * says after a click (placed, refused, not yet confirmed) is pinned in ticket-outcome.test.tsx.
 */

let bridge: FakeBridge;

beforeEach(() => {
  bridge = installTicketBridge();
});

afterEach(() => setBridgeForTests(null));

const renderTicket = () => mount(bridge);

/** A deferred `orders.place` answer; call the result with an ack to answer it as placed. */
function holdPlacement() {
  const h = hold(bridge);
  return (ack: { orderId: string; status: 'OPEN' | 'COMPLETE' }) => h.placed(ack.orderId, ack.status);
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

  it('steps a quantity typed with Indian grouping from what was typed (1,500 → 1,575), not from zero', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'NIFTY26NOVFUT', 'NIFTY26NOVFUT');
    const qty = t.getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '1,500{ArrowUp}');
    expect(qty).toHaveProperty('value', '1575');
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

    bridge.answer('orders.sync', () => bookOf([order('250101000001', 'COMPLETE')]));
    await act(async () => release({ orderId: '250101000001', status: 'OPEN' }));
    expect(await t.findByTestId('ticket-order-id')).toHaveProperty('textContent', '250101000001');
    await waitFor(() => expect(t.getByTestId('ticket-order-status').textContent).toBe('COMPLETE'));
    expect(bridge.callsOf('orders.place')).toHaveLength(1);
    expect(bridge.callsOf('orders.place')[0]!.payload).toMatchObject({ order: { ...INFY_MARKET_BUY, product: 'CNC' } });
  });

  it('shows the order id the moment the broker answers, without waiting for the refetches it triggers', async () => {
    const { user, form, t } = await renderTicket();
    await choose(user, form, 'INFY', 'INFY');
    // The refetches after a placement queue behind polls in main; here they never answer.
    bridge.answer('orders.sync', () => new Promise<never>(() => undefined));
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
});
