import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bracket } from '@shared/domain/bracket';
import { setBridgeForTests } from '../../lib/bridge';
import type { FakeBridge } from '../../test/fake-bridge';
import { aBracket } from '../../test/bracket-fixture';
import { choose, describedText, installTicketBridge, renderTicket } from '../../test/ticket-harness';

/**
 * The ticket's Stop-loss, target & size section (docs/brackets.md §In the ticket): size from risk
 * fills the quantity, a risk that cannot be reached says why beside Risk, and Place bracket sends
 * one `brackets.place` whose refusal is shown beside the exit it names.
 */

let bridge: FakeBridge;
beforeEach(() => {
  bridge = installTicketBridge();
});
afterEach(() => setBridgeForTests(null));

async function openSection() {
  const ticket = await renderTicket(bridge);
  await choose(ticket.user, ticket.form, 'INFY', 'INFY');
  await ticket.user.selectOptions(ticket.t.getByLabelText('Order type'), 'LIMIT');
  const price = ticket.t.getByLabelText('Price');
  await ticket.user.clear(price);
  await ticket.user.type(price, '1500');
  await ticket.user.click(ticket.t.getByRole('button', { name: /Stop-loss, target & size/ }));
  return ticket;
}

const bracketOf = (requestId: string): Bracket => aBracket({ requestId, product: 'CNC', entry: null, stop: null });

describe('the ticket with a stop-loss, a target and size from risk', () => {
  it('a risk in rupees and a stop distance set the quantity, rounded down', async () => {
    const { t, user } = await openSection();
    await user.type(t.getByLabelText('Stop-loss'), '20');
    await user.selectOptions(t.getByLabelText('Stop-loss as'), 'distance');
    await user.type(t.getByLabelText('Risk'), '1010');
    // ₹20 a share: ₹1,010 allows 50 shares (₹1,000 at risk), never 51.
    await waitFor(() => expect(t.getByLabelText('Quantity')).toHaveProperty('value', '50'));
    expect(t.getByTestId('size-from-risk').textContent).toContain('₹1,000.00 at risk of ₹1,010.00');
    expect(describedText(t.getByLabelText('Stop-loss'))).toBe('');
  });

  it('a moved entry price offers the new size, taken with Use', async () => {
    const { t, user } = await openSection();
    await user.type(t.getByLabelText('Stop-loss'), '1480');
    await user.type(t.getByLabelText('Risk'), '1000');
    await waitFor(() => expect(t.getByLabelText('Quantity')).toHaveProperty('value', '50'));
    // A limit of 1,490 is ₹10 above the stop: ₹1,000 now allows 100, offered, not forced.
    const price = t.getByLabelText('Price');
    await user.clear(price);
    await user.type(price, '1490');
    expect(t.getByLabelText('Quantity')).toHaveProperty('value', '50');
    await user.click(t.getByRole('button', { name: 'Use 100' }));
    expect(t.getByLabelText('Quantity')).toHaveProperty('value', '100');
    expect(t.queryByRole('button', { name: /^Use / })).toBeNull();
  });

  it('a risk too small for one share says why beside Risk, and the quantity stays as typed', async () => {
    const { t, user } = await openSection();
    const qty = t.getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '7');
    await user.type(t.getByLabelText('Stop-loss'), '1480');
    await user.type(t.getByLabelText('Risk'), '15');
    await waitFor(() => expect(describedText(t.getByLabelText('Risk'))).toMatch(/less than one share risks/));
    expect(t.getByLabelText('Quantity')).toHaveProperty('value', '7');
  });

  it('Place bracket sends one brackets.place with the exits, and a refusal shows beside the stop-loss', async () => {
    const { t, user } = await openSection();
    await user.type(t.getByLabelText('Stop-loss'), '1480');
    await user.type(t.getByLabelText('Target'), '1550');
    await user.selectOptions(t.getByLabelText('Trail by'), 'points');
    await user.type(t.getByLabelText('Trail the stop'), '5');
    // Filled-in exits make a bracket without a separate tick.
    expect(t.getByRole('checkbox', { name: /Place as a bracket/ })).toHaveProperty('checked', true);
    // Enter asks first, naming the exits too.
    await user.click(t.getByLabelText('Target'));
    await user.keyboard('{Enter}');
    expect(t.getByRole('group', { name: 'Confirm order' }).textContent).toContain(
      'with stop-loss 1,480.00 (trailing ₹5) and target 1,550.00, as a bracket?',
    );
    await user.click(t.getByRole('button', { name: 'Back' }));
    bridge.answer('brackets.place', () => ({
      ok: false,
      error: {
        kind: 'bad_request',
        message: 'The stop-loss must be below ₹1,470.00 for a long position',
        field: 'stop.triggerPrice',
      },
    }));
    await user.click(t.getByRole('button', { name: 'Place bracket' }));
    await waitFor(() => expect(describedText(t.getByLabelText('Stop-loss'))).toMatch(/must be below ₹1,470/));
    expect(t.getByTestId('ticket-outcome').textContent).toMatch(/^Not placed: The stop-loss must be below/);
    const [sent] = bridge.callsOf('brackets.place').map((c) => c.payload as Record<string, unknown>);
    expect(sent?.request).toMatchObject({
      kind: 'entry',
      entry: { tradingsymbol: 'INFY', orderType: 'LIMIT', price: 1500, transactionType: 'BUY' },
      stop: { triggerPrice: 1480 },
      target: { price: 1550 },
      trail: { by: 'points', amount: 5 },
    });
    expect(bridge.callsOf('orders.place')).toHaveLength(0);
    // A CNC bracket (INFY's default product) notes the broker's own pair for overnight.
    expect(t.getByTestId('bracket-overnight').textContent).toMatch(
      /CNC position protected overnight at the broker, use a GTT OCO/,
    );

    // Edited and placed again: the entry's honest answer, and the bracket's state.
    await user.clear(t.getByLabelText('Stop-loss'));
    await user.type(t.getByLabelText('Stop-loss'), '1460');
    bridge.answer('brackets.place', (payload) => {
      const { requestId } = payload as { requestId: string };
      return {
        ok: true,
        data: {
          bracket: bracketOf(requestId),
          entry: {
            state: 'placed',
            orderId: '91',
            clientOrderId: 'tdb0123456789abcdefe',
            status: 'OPEN',
            recovered: false,
          },
        },
      };
    });
    await user.click(t.getByRole('button', { name: 'Place bracket' }));
    expect((await t.findByTestId('ticket-order-id')).textContent).toBe('91');
    expect((await t.findByTestId('ticket-bracket')).textContent).toContain('Waiting for entry');
    expect(describedText(t.getByLabelText('Stop-loss'))).toBe('');
  });

  it('with the bracket unticked, Place order asks before sending the entry without its exits', async () => {
    const { t, user } = await openSection();
    await user.type(t.getByLabelText('Stop-loss'), '1480');
    await user.type(t.getByLabelText('Target'), '1550');
    await user.click(t.getByRole('checkbox', { name: /Place as a bracket/ }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    const ask = t.getByRole('group', { name: 'Before sending' });
    expect(ask.textContent).toMatch(/the entry goes alone, with no exit/);
    expect(bridge.callsOf('orders.place')).toHaveLength(0);
    await user.click(t.getByRole('button', { name: 'Back' }));
    expect(t.queryByRole('group', { name: 'Before sending' })).toBeNull();
    expect(bridge.callsOf('orders.place')).toHaveLength(0);
  });

  it('starts another instrument with no exits: a stop-loss and target never carry over', async () => {
    const { t, user, form } = await openSection();
    await user.type(t.getByLabelText('Stop-loss'), '1480');
    await user.type(t.getByLabelText('Target'), '1550');
    await choose(user, form, 'NIFTY26NOVFUT', 'NIFTY26NOVFUT');
    expect(t.getByLabelText('Stop-loss')).toHaveProperty('value', '');
    expect(t.getByLabelText('Target')).toHaveProperty('value', '');
    expect(t.getByRole('button', { name: 'Place order' })).toBeDefined();
  });
});
