import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Placement } from '@shared/domain/placement';
import { setBridgeForTests } from '../../lib/bridge';
import { bookOf, placement, type FakeBridge } from '../../test/fake-bridge';
import {
  choose,
  describedText,
  holdPlacement,
  installTicketBridge,
  order,
  renderTicket,
} from '../../test/ticket-harness';

/**
 * What the ticket tells the trader after a click — exactly one of placing, placed, refused, or
 * not yet confirmed — and how the unconfirmed list settles the last one. "Not placed" is said
 * only when nothing was created.
 */

let bridge: FakeBridge;

beforeEach(() => {
  bridge = installTicketBridge();
});

afterEach(() => setBridgeForTests(null));

/** A ticket with INFY chosen (BUY 1 MARKET CNC), ready to place. */
async function readyTicket() {
  const ticket = await renderTicket(bridge);
  await choose(ticket.user, ticket.form, 'INFY', 'INFY');
  return ticket;
}

/** The request id the ticket sent with its n-th placement. */
function sentRequestId(n = 0): string {
  return (bridge.callsOf('orders.place')[n]?.payload as { requestId: string }).requestId;
}

/** Pushes the whole unconfirmed list, as main does on every change (and answers reads of it from now on). */
async function push(placements: Placement[]): Promise<void> {
  bridge.answer('placements.list', () => ({ ok: true, data: placements }));
  await act(async () => bridge.emit('placements.changed', { placements }));
}

/** The outcome line under the Place button. */
function outcome(form: HTMLElement): HTMLElement {
  const el = form.querySelector<HTMLElement>('[data-testid="ticket-outcome"]');
  if (!el) throw new Error('no outcome view');
  return el;
}

describe('the ticket after a click', () => {
  it('sends a fresh, well-formed request id and the click time with every click', async () => {
    const { user, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'placed', orderId: '1', clientOrderId: 'td-1', status: 'OPEN', recovered: false },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await t.findByTestId('ticket-order-id');
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(bridge.callsOf('orders.place')).toHaveLength(2));
    const [a, b] = [sentRequestId(0), sentRequestId(1)];
    expect(a).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(b).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(a).not.toBe(b);
    expect(bridge.callsOf('orders.place')[0]!.payload).toMatchObject({ clickedAt: expect.any(Number) });
  });

  it('says "Placing…" while the call is out, then the order id and its live status', async () => {
    const { user, form, t } = await readyTicket();
    const held = holdPlacement(bridge);
    await user.click(t.getByRole('button', { name: 'Place order' }));
    expect(outcome(form).textContent).toBe('Placing…');
    bridge.answer('orders.sync', () => bookOf([order('250101000009', 'COMPLETE')]));
    await act(async () => held.placed('250101000009', 'OPEN'));
    expect((await t.findByTestId('ticket-order-id')).textContent).toBe('250101000009');
    await waitFor(() => expect(t.getByTestId('ticket-order-status').textContent).toBe('COMPLETE'));
  });

  it('refused naming a field: the reason next to that field and "Not placed — see Quantity" under the button', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'Quantity is above your limit for INFY', field: 'order.quantity' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    const qty = t.getByLabelText('Quantity');
    await waitFor(() => expect(describedText(qty)).toBe('Quantity is above your limit for INFY'));
    expect(outcome(form).textContent).toBe('Not placed — see Quantity');
    // Editing the field clears the refusal: it was about the old value.
    await user.type(qty, '0');
    expect(qty.getAttribute('aria-invalid')).toBeNull();
    expect(outcome(form).textContent).toBe('');
  });

  it('refused naming no field: "Not placed: <the reason>" under the button', async () => {
    const { user, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'forbidden', message: 'This session may only read' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    expect((await t.findByRole('alert')).textContent).toBe('Not placed: This session may only read');
  });

  it('says main\'s own refusal wording once: no doubled "Not placed", and the bare reason next to the field', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'forbidden', message: 'Not placed: This session may only read' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(outcome(form).textContent).toBe('Not placed: This session may only read'));

    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'Not placed: Quantity is above your limit', field: 'order.quantity' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(describedText(t.getByLabelText('Quantity'))).toBe('Quantity is above your limit'));
  });

  it('an intent main confirmed absent within its window reads as main words it, not as a generic timeout', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'timeout', message: 'Not placed — the broker confirmed it has no order td-gone1' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() =>
      expect(outcome(form).textContent).toBe('Not placed — the broker confirmed it has no order td-gone1'),
    );
  });

  it('unconfirmed: "Not yet confirmed" with the reference (never "Not placed"), then the order id once the list says placed', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientOrderId: 'td-77aa', detail: 'Checking with the broker…' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() =>
      expect(outcome(form).textContent).toBe(
        'Not yet confirmed Checking with the broker whether order td-77aa exists…',
      ),
    );
    expect(t.getByTestId('ticket-reference').textContent).toBe('td-77aa');
    expect(form.textContent).not.toMatch(/not placed|failed/i);

    await push([placement({ clientOrderId: 'td-77aa', state: 'checking' })]);
    await waitFor(() => expect(outcome(form).dataset.state).toBe('unconfirmed'));
    await push([placement({ clientOrderId: 'td-77aa', state: 'placed', orderId: '250101000042', status: 'OPEN' })]);
    expect((await t.findByTestId('ticket-order-id')).textContent).toBe('250101000042');
    expect(t.getByTestId('ticket-order-status').textContent).toBe('OPEN');
  });

  it("unconfirmed, while the broker's order book already shows the reference: says so, still not yet confirmed", async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientOrderId: 'td-77ac', detail: '' },
    }));
    bridge.answer('orders.sync', () => bookOf([{ ...order('250101000061', 'OPEN'), clientOrderId: 'td-77ac' }]));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() =>
      expect(outcome(form).textContent).toBe(
        "Not yet confirmed Checking with the broker whether order td-77ac exists… The broker's order book shows it as order 250101000061 (OPEN); confirming…",
      ),
    );
    expect(outcome(form).dataset.state).toBe('unconfirmed');
  });

  it('unconfirmed, then not found past the horizon: "Not found at the broker — most likely not placed"', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientOrderId: 'td-77ab', detail: '' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(outcome(form).dataset.state).toBe('unconfirmed'));
    await push([placement({ clientOrderId: 'td-77ab', state: 'not_placed', settledAt: 1_790_000_030_000 })]);
    await waitFor(() =>
      expect(outcome(form).textContent).toBe('Not found at the broker — most likely not placed (td-77ab)'),
    );
  });

  it('a reply lost with the link to main is "Lost contact… checking…", never "Not placed", until the list matches it by request id', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'disconnected', message: 'Lost contact with the Tradedesk service before it answered' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() =>
      expect(outcome(form).textContent).toBe('Not yet confirmed Lost contact with the Tradedesk service — checking…'),
    );
    expect(form.textContent).not.toMatch(/not placed|failed/i);
    expect(t.queryByRole('alert')).toBeNull();

    const requestId = sentRequestId();
    await push([
      placement({ clientOrderId: 'td-other', requestId: 'rq-someone-else' }),
      placement({ clientOrderId: 'td-mine', requestId, state: 'checking' }),
    ]);
    await waitFor(() =>
      expect(outcome(form).textContent).toBe(
        'Not yet confirmed Checking with the broker whether order td-mine exists…',
      ),
    );
    await push([
      placement({ clientOrderId: 'td-mine', requestId, state: 'placed', orderId: '250101000050', status: 'OPEN' }),
    ]);
    expect((await t.findByTestId('ticket-order-id')).textContent).toBe('250101000050');
  });

  it('a lost reply the list has no record of says so and asks to check the Orders list — still never "Not placed"', async () => {
    const { user, form } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'disconnected', message: 'Lost contact with the Tradedesk service before it answered' },
    }));
    await user.click(form.querySelector('button[type="submit"]')!);
    await waitFor(() => expect(outcome(form).dataset.state).toBe('unconfirmed'));
    await push([placement({ clientOrderId: 'td-other', requestId: 'rq-someone-else' })]);
    await waitFor(() =>
      expect(outcome(form).textContent).toBe(
        'Not yet confirmed Lost contact with the Tradedesk service before it answered, and it has no record of this order. Check the Orders list before placing it again.',
      ),
    );
    expect(form.textContent).not.toMatch(/not placed|failed/i);
  });

  it.each(['internal', 'unexpected_shape'] as const)(
    'a placement answer that is a %s error is not yet confirmed, never "Not placed"',
    async (kind) => {
      const { user, form, t } = await readyTicket();
      bridge.answer('orders.place', () => ({ ok: false, error: { kind, message: 'something broke' } }));
      await user.click(t.getByRole('button', { name: 'Place order' }));
      await waitFor(() => expect(outcome(form).dataset.state).toBe('unconfirmed'));
      expect(outcome(form).textContent).toBe(
        "Not yet confirmed The Tradedesk service's answer could not be read — checking…",
      );
      expect(form.textContent).not.toMatch(/not placed|failed/i);
    },
  );

  it('a lost reply whose intent needs a decision offers Place again and Discard; Discard is one click and sends nothing', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({ ok: false, error: { kind: 'disconnected', message: 'gone' } }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(outcome(form).dataset.state).toBe('unconfirmed'));
    const mine = placement({ clientOrderId: 'td-decide', requestId: sentRequestId(), state: 'needs_decision' });
    await push([mine]);
    await waitFor(() =>
      expect(outcome(form).textContent).toContain('Needs your decision The broker has no order td-decide.'),
    );
    bridge.answer('placements.discard', () => {
      const discarded = { ...mine, state: 'discarded' as const, settledAt: mine.journaledAt + 1 };
      bridge.answer('placements.list', () => ({ ok: true, data: [discarded] }));
      return { ok: true, data: discarded };
    });
    await user.click(t.getByRole('button', { name: 'Discard td-decide' }));
    await waitFor(() => expect(outcome(form).textContent).toBe('Discarded — order td-decide was not sent'));
    expect(bridge.callsOf('placements.discard')).toEqual([
      { channel: 'placements.discard', payload: { clientOrderId: 'td-decide' } },
    ]);
    expect(bridge.callsOf('orders.place')).toHaveLength(1);
    expect(bridge.callsOf('placements.placeAgain')).toHaveLength(0);
  });

  it('while the last click is unconfirmed, Place order warns instead of sending; Back sends nothing, "Place another order" sends one new intent', async () => {
    const { user, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientOrderId: 'td-wait', detail: '' },
    }));
    const place = t.getByRole('button', { name: 'Place order' });
    await user.click(place);
    await t.findByTestId('ticket-reference');

    await user.click(place);
    const guard = t.getByRole('group', { name: 'Order not yet confirmed' });
    expect(guard.textContent).toContain('Order td-wait is not yet confirmed — it may still be placed.');
    expect(document.activeElement?.textContent).toBe('Back');
    await user.keyboard('{Enter}'); // a stray Enter lands on Back
    expect(t.queryByRole('group', { name: 'Order not yet confirmed' })).toBeNull();
    expect(bridge.callsOf('orders.place')).toHaveLength(1);

    await user.click(place);
    await user.click(t.getByRole('button', { name: 'Place another order' }));
    await waitFor(() => expect(bridge.callsOf('orders.place')).toHaveLength(2));
    expect(sentRequestId(1)).not.toBe(sentRequestId(0));
  });

  it('warns before placing an order identical to one still open in the unconfirmed list', async () => {
    bridge.answer('placements.list', () => ({ ok: true, data: [placement({ clientOrderId: 'td-earlier' })] }));
    const { user, t } = await readyTicket();
    await waitFor(() => expect(bridge.callsOf('placements.list').length).toBeGreaterThan(0));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    expect((await t.findByRole('group', { name: 'Order not yet confirmed' })).textContent).toContain('td-earlier');
    expect(bridge.callsOf('orders.place')).toHaveLength(0);
    // A different order (two shares, not one) is not the same intent: no warning.
    await user.click(t.getByRole('button', { name: 'Back' }));
    await user.clear(t.getByLabelText('Quantity'));
    await user.type(t.getByLabelText('Quantity'), '2');
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'placed', orderId: '7', clientOrderId: 'td-7', status: 'OPEN', recovered: false },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(bridge.callsOf('orders.place')).toHaveLength(1));
  });

  it('an unconfirmed outcome stays on screen while the trader edits the ticket', async () => {
    const { user, form, t } = await readyTicket();
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientOrderId: 'td-keep', detail: '' },
    }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await t.findByTestId('ticket-reference');
    await user.type(t.getByLabelText('Quantity'), '0');
    expect(outcome(form).dataset.state).toBe('unconfirmed');
    expect(t.getByTestId('ticket-reference').textContent).toBe('td-keep');
  });
});
