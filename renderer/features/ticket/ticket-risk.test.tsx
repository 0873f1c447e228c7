import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import type { FakeBridge } from '../../test/fake-bridge';
import { choose, installTicketBridge, renderTicket } from '../../test/ticket-harness';

/**
 * The ticket after the risk guard refused an order (docs/contract.md §Risk guard): the limits
 * broken with their figures; over soft limits only, "Place anyway" sends that one order again
 * with the override; over a hard one there is no way round.
 */

let bridge: FakeBridge;
beforeEach(() => {
  bridge = installTicketBridge();
});
afterEach(() => setBridgeForTests(null));

const SOFT = {
  ok: false as const,
  error: {
    kind: 'bad_request' as const,
    message: 'Not placed: Order value ₹6,12,000 exceeds your limit of ₹5,00,000',
    field: 'riskOverride',
    fields: [{ field: 'risk.maxOrderValue', message: 'Order value ₹6,12,000 exceeds your limit of ₹5,00,000' }],
  },
};

describe('the ticket refused by the risk guard', () => {
  it('over a soft limit: shows the figures, and "Place anyway" re-sends the same order once with riskOverride and a new request id', async () => {
    const ticket = await renderTicket(bridge);
    await choose(ticket.user, ticket.form, 'INFY', 'INFY');
    bridge.answer('orders.place', () => SOFT);
    await ticket.user.click(ticket.t.getByRole('button', { name: 'Place order' }));
    const box = await ticket.t.findByTestId('risk-refusal');
    expect(box.textContent).toContain('Over your soft risk limits:');
    expect(box.textContent).toContain('Order value ₹6,12,000 exceeds your limit of ₹5,00,000');
    expect(bridge.callsOf('orders.place')[0]?.payload).not.toHaveProperty('riskOverride');

    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'placed', orderId: '77', clientOrderId: 'td-77', status: 'OPEN', recovered: false },
    }));
    await ticket.user.click(ticket.t.getByRole('button', { name: 'Place anyway' }));
    await waitFor(() => expect(bridge.callsOf('orders.place')).toHaveLength(2));
    const [first, again] = bridge.callsOf('orders.place').map((c) => c.payload as Record<string, unknown>);
    expect(again).toMatchObject({ order: first?.order, riskOverride: true });
    expect(again?.requestId).not.toBe(first?.requestId);
    expect((await ticket.t.findByTestId('ticket-order-id')).textContent).toBe('77');
  });

  it('over a hard limit: the figures, and no "Place anyway"', async () => {
    const ticket = await renderTicket(bridge);
    await choose(ticket.user, ticket.form, 'INFY', 'INFY');
    bridge.answer('orders.place', () => ({
      ok: false,
      error: {
        ...SOFT.error,
        message: 'Not placed: Quantity 150 exceeds your limit of 100',
        field: 'risk.maxQuantity',
        fields: [{ field: 'risk.maxQuantity', message: 'Quantity 150 exceeds your limit of 100' }],
      },
    }));
    await ticket.user.click(ticket.t.getByRole('button', { name: 'Place order' }));
    const box = await ticket.t.findByTestId('risk-refusal');
    expect(box.textContent).toContain('Refused by your risk limits:Quantity 150 exceeds your limit of 100');
    expect(ticket.t.queryByRole('button', { name: 'Place anyway' })).toBeNull();
  });
});
