import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '@shared/domain/order';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, INFY, type FakeBridge } from '../../test/fake-bridge';
import { describedText, order } from '../../test/ticket-harness';
import { ModifyOrderDialog } from './modify-order-dialog';

/**
 * The Modify dialog as a trader uses it: it shows what has filled, refuses a quantity at or below
 * it, reads numbers like the ticket, sends only what changed, and puts main's refusal next to
 * the field it names.
 */

let bridge: FakeBridge;

/** BUY 10 INFY LIMIT @ 1,500, 3 filled, 7 pending. */
const partlyFilled: Order = {
  ...order('250101000031', 'OPEN'),
  quantity: 10,
  filledQuantity: 3,
  pendingQuantity: 7,
  orderType: 'LIMIT',
  price: 1500,
};

beforeEach(() => {
  bridge = createFakeBridge({
    'instruments.list': () => ({ ok: true, data: [INFY] }),
    'orders.modify': () => ({
      ok: true,
      data: { state: 'done', action: 'modify', orderId: partlyFilled.orderId, status: 'OPEN' },
    }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => setBridgeForTests(null));

async function openDialog(o: Order = partlyFilled) {
  const user = userEvent.setup();
  let closed = false;
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ModifyOrderDialog order={o} onClose={() => (closed = true)} />
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: `Modify order ${o.orderId}` });
  const d = within(dialog);
  // The instrument has arrived (its rules offer every order type): the dialog judges with them.
  await within(d.getByLabelText('Order type')).findByRole('option', { name: 'SL-M' });
  return { user, d, dialog, closed: () => closed, save: () => d.getByRole('button', { name: 'Save changes' }) };
}

async function retype(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.clear(input);
  await user.type(input, text);
}

/** Main's answer to a modify it could not confirm at once. */
function checking(id: string) {
  return {
    state: 'unconfirmed',
    action: 'modify',
    orderId: id,
    detail: `Checking with the broker whether order ${id} was modified…`,
  } as const;
}

describe('ModifyOrderDialog', () => {
  it('shows how much has filled and how much is pending', async () => {
    const { d } = await openDialog();
    expect(d.getByTestId('modify-fill').textContent).toBe('Filled 3 of 10 · pending 7');
  });

  it('sends only the price when only the price changed, read the way the ticket reads it ("1,498.50")', async () => {
    const { user, d, save, closed } = await openDialog();
    await retype(user, d.getByLabelText('Price'), '1,498.50');
    await user.click(save());
    await waitFor(() => expect(bridge.callsOf('orders.modify')).toHaveLength(1));
    expect(bridge.callsOf('orders.modify')[0]!.payload).toEqual({
      orderId: '250101000031',
      changes: { price: 1498.5 },
    });
    await waitFor(() => expect(closed()).toBe(true));
  });

  it('will not let the quantity go down to what has filled, and says so next to Quantity', async () => {
    const { user, d, save } = await openDialog();
    const qty = d.getByLabelText('Quantity');
    await retype(user, qty, '3');
    expect(describedText(qty)).toBe('Quantity must stay above the 3 already filled');
    expect(save()).toHaveProperty('disabled', true);
    await retype(user, qty, '4');
    expect(qty.getAttribute('aria-invalid')).toBeNull();
    await user.click(save());
    await waitFor(() =>
      expect(bridge.callsOf('orders.modify')[0]?.payload).toEqual({
        orderId: '250101000031',
        changes: { quantity: 4 },
      }),
    );
  });

  it('sends nothing while nothing has changed', async () => {
    const { user, d, save } = await openDialog();
    await retype(user, d.getByLabelText('Price'), '1500.00'); // the same price, typed differently
    expect(save()).toHaveProperty('disabled', true);
    expect(d.getByText('Nothing changed yet')).toBeTruthy();
    expect(bridge.callsOf('orders.modify')).toHaveLength(0);
  });

  it('switching LIMIT to SL sends the type and the new trigger, not the price that stayed the same', async () => {
    const { user, d, save } = await openDialog();
    await user.selectOptions(d.getByLabelText('Order type'), 'SL');
    await retype(user, d.getByLabelText('Trigger price'), '1,495');
    await user.click(save());
    await waitFor(() =>
      expect(bridge.callsOf('orders.modify')[0]?.payload).toEqual({
        orderId: '250101000031',
        changes: { orderType: 'SL', triggerPrice: 1495 },
      }),
    );
  });

  it("shows main's refusal next to the field it names, and clears it when that field is edited", async () => {
    bridge.answer('orders.modify', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'Price is outside the day band (1,200–1,800)', field: 'changes.price' },
    }));
    const { user, d, save } = await openDialog();
    const price = d.getByLabelText('Price');
    await retype(user, price, '1900');
    await user.click(save());
    await waitFor(() => expect(describedText(price)).toBe('Price is outside the day band (1,200–1,800)'));
    expect(d.queryByRole('alert')).toBeNull();
    await retype(user, price, '1700');
    expect(price.getAttribute('aria-invalid')).toBeNull();
  });

  it('a refusal naming no field says "Not modified"; a lost reply says it is not confirmed instead', async () => {
    bridge.answer('orders.modify', () => ({
      ok: false,
      error: { kind: 'conflict', message: 'The order is already complete' },
    }));
    const { user, d, save } = await openDialog();
    await retype(user, d.getByLabelText('Price'), '1490');
    await user.click(save());
    expect((await d.findByRole('alert')).textContent).toBe('Not modified: The order is already complete');

    bridge.answer('orders.modify', () => ({ ok: false, error: { kind: 'disconnected', message: 'gone' } }));
    await retype(user, d.getByLabelText('Price'), '1495');
    await user.click(save());
    await waitFor(() => expect(d.getByTestId('modify-answer').textContent).toMatch(/^Not yet confirmed — /));
    expect(d.getByTestId('modify-answer').textContent).not.toMatch(/Not modified|failed/);
    expect(d.queryByRole('alert')).toBeNull();
  });

  it('a modify main cannot confirm says "Not yet confirmed — checking", stays open, and says Modified once main has read it back', async () => {
    const id = partlyFilled.orderId;
    bridge.answer('orders.modify', () => ({ ok: true, data: checking(id) }));
    // Main is still reading the order back; the test answers for it, then it has the change.
    let settled = false;
    bridge.answer('orders.action', () => ({
      ok: true,
      data: settled ? { state: 'done', action: 'modify', orderId: id, status: 'OPEN' } : checking(id),
    }));
    const { user, d, save, closed } = await openDialog();
    await retype(user, d.getByLabelText('Price'), '1490');
    await user.click(save());
    const answer = await d.findByTestId('modify-answer');
    expect(answer.textContent).toBe(`Not yet confirmed — checking with the broker whether order ${id} was modified…`);
    expect(d.queryByRole('alert')).toBeNull();
    expect(closed()).toBe(false);
    settled = true;
    await waitFor(() => expect(d.getByTestId('modify-answer').textContent).toBe('Modified'), { timeout: 5_000 });
    expect(d.getByTestId('modify-answer').dataset.tone).toBe('done');
  });

  it('a modify whose reading back main stopped tracking (a newer action on the order was answered first) stops "checking" and says Not confirmed', async () => {
    const id = partlyFilled.orderId;
    bridge.answer('orders.modify', () => ({ ok: true, data: checking(id) }));
    bridge.answer('orders.action', () => ({ ok: true, data: null }));
    const { user, d, save } = await openDialog();
    await retype(user, d.getByLabelText('Price'), '1490');
    await user.click(save());
    await waitFor(
      () =>
        expect(d.getByTestId('modify-answer').textContent).toBe(
          `Not confirmed: a newer action on order ${id} was answered first — check the order`,
        ),
      { timeout: 5_000 },
    );
  });

  it('a soft risk limit shows its figures and "Modify anyway", which sends the same change with the override', async () => {
    bridge.answer('orders.modify', (payload) =>
      (payload as { riskOverride?: true }).riskOverride
        ? { ok: true, data: { state: 'done', action: 'modify', orderId: partlyFilled.orderId, status: 'OPEN' } }
        : {
            ok: false,
            error: {
              kind: 'bad_request',
              message: 'Not modified: Quantity 40 exceeds your limit of 20',
              field: 'riskOverride',
              fields: [{ field: 'risk.maxQuantity', message: 'Quantity 40 exceeds your limit of 20' }],
            },
          },
    );
    const { user, d, save, closed } = await openDialog();
    await retype(user, d.getByLabelText('Quantity'), '40');
    await user.click(save());
    const anyway = await d.findByRole('button', { name: 'Modify anyway' });
    expect(d.getByText('Quantity 40 exceeds your limit of 20')).toBeTruthy();
    await user.click(anyway);
    await waitFor(() => expect(closed()).toBe(true));
    expect(bridge.callsOf('orders.modify').map((c) => c.payload)).toEqual([
      { orderId: partlyFilled.orderId, changes: { quantity: 40 } },
      { orderId: partlyFilled.orderId, changes: { quantity: 40 }, riskOverride: true },
    ]);
  });
});
