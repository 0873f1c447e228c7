import { act, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MarketQuote, MarketStatus } from '@shared/domain/market';
import type { OrderRequest } from '@shared/domain/order';
import { setBridgeForTests } from '../../lib/bridge';
import { INFY, type FakeBridge } from '../../test/fake-bridge';
import { choose, installTicketBridge, renderTicket } from '../../test/ticket-harness';

/**
 * The ticket in the market it trades in, against an in-memory bridge: the spread and what a
 * MARKET order would take from the book, the after-market offer while the exchange is closed,
 * and slicing above the freeze limit — each leg its own placement, the rest never sent after
 * one that did not go in.
 */

let bridge: FakeBridge;

const status = (phase: 'open' | 'closed'): MarketStatus => ({
  now: '2026-11-23T20:00:00+05:30',
  simulated: false,
  speed: 1,
  exchanges: (['NSE', 'NFO'] as const).map((exchange) => ({
    exchange,
    phase,
    detail: phase === 'closed' ? 'After hours' : null,
    nextPreOpen: '2026-11-25T09:00:00+05:30',
    nextOpen: '2026-11-25T09:15:00+05:30',
    nextClose: phase === 'closed' ? '2026-11-25T15:30:00+05:30' : '2026-11-23T15:30:00+05:30',
  })),
});

/** INFY's book: 300 offered over two levels, 500 bid. */
const INFY_QUOTE: MarketQuote = {
  instrumentToken: INFY.instrumentToken,
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  lastPrice: 1500,
  lastTradeAt: null,
  volume: 1_000,
  ohlc: { open: 1490, high: 1502, low: 1488, close: 1500 },
  previousClose: 1495.5,
  change: 4.5,
  changePercent: 0.3,
  bid: 1499.95,
  ask: 1500.05,
  depth: {
    buy: [{ price: 1499.95, quantity: 500, orders: 7 }],
    sell: [
      { price: 1500.05, quantity: 100, orders: 3 },
      { price: 1500.1, quantity: 200, orders: 5 },
    ],
  },
  totalBuyQuantity: 500,
  totalSellQuantity: 300,
  lowerCircuit: 1350,
  upperCircuit: 1650,
  oi: null,
  phase: 'open',
  ts: '2026-11-23T10:41:27+05:30',
};

beforeEach(() => {
  bridge = installTicketBridge();
  bridge.answer('market.status', () => ({ ok: true, data: status('open') }));
  bridge.answer('quotes.get', () => ({ ok: true, data: [INFY_QUOTE] }));
});

afterEach(() => setBridgeForTests(null));

/** The orders sent, in order. */
const sent = (): Array<{ order: OrderRequest; requestId: string }> =>
  bridge.callsOf('orders.place').map((c) => c.payload as { order: OrderRequest; requestId: string });

const placed = (orderId: string) => ({
  ok: true as const,
  data: {
    state: 'placed' as const,
    orderId,
    clientOrderId: `td-${orderId}`,
    status: 'COMPLETE' as const,
    recovered: false,
  },
});

describe('the spread and the book in the ticket', () => {
  it('shows the best bid and offer and the spread in rupees and ticks', async () => {
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await waitFor(() => expect(t.getByTestId('spread').textContent).toBe('Spread 0.10 (2 ticks)'));
    expect(t.getByTestId('ticket-bid').textContent).toBe('1,499.95');
    expect(t.getByTestId('ticket-ask').textContent).toBe('1,500.05');
  });

  it('says how far a MARKET buy walks the offers, and warns when it is larger than all of them', async () => {
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    const qty = t.getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '250');
    // 100 at 1500.05 and 150 at 1500.10: avg 1500.08.
    await waitFor(() =>
      expect(t.getByTestId('ticket-depth-walk').textContent).toBe(
        'Takes 2 levels (to 1,500.10) · avg 1,500.08 vs 1,500.05 at the touch',
      ),
    );
    await user.clear(qty);
    await user.type(qty, '400');
    expect(t.getByTestId('ticket-depth-warning').textContent).toBe(
      'Only 300 visible on the offer side: 300 would fill at avg 1,500.08, the rest wait, open, for later prices',
    );
    // A LIMIT order rests at its price: no such warning.
    await user.selectOptions(t.getByLabelText('Order type'), 'LIMIT');
    expect(t.queryByTestId('ticket-depth-warning')).toBeNull();
  });
});

describe('a LIMIT starts from the live touch, not the list price', () => {
  it('prefills a sell at the live bid and a buy at the live offer, and says so', async () => {
    // The instrument list says 1,500 (the previous close); the market has moved to 1,530.
    bridge.answer('quotes.get', () => ({
      ok: true,
      data: [{ ...INFY_QUOTE, lastPrice: 1530, bid: 1529.9, ask: 1530.1 }],
    }));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await user.selectOptions(t.getByLabelText('Order type'), 'LIMIT');
    await waitFor(() => expect(t.getByLabelText('Price')).toHaveProperty('value', '1530.1'));
    expect(t.getByTestId('ticket-price-source').textContent).toBe('Limit price from the live offer');
    await user.click(t.getByLabelText('Sell'));
    await waitFor(() => expect(t.getByLabelText('Price')).toHaveProperty('value', '1529.9'));
    // A typed price is the trader's: the side switching back does not move it.
    await user.clear(t.getByLabelText('Price'));
    await user.type(t.getByLabelText('Price'), '1531');
    await user.click(t.getByLabelText('Buy'));
    expect(t.getByLabelText('Price')).toHaveProperty('value', '1531');
    expect(t.queryByTestId('ticket-price-source')).toBeNull();
  });

  it('says when no live quote exists yet', async () => {
    bridge.answer('quotes.get', () => ({ ok: true, data: [] }));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await user.selectOptions(t.getByLabelText('Order type'), 'LIMIT');
    await waitFor(() =>
      expect(t.getByTestId('ticket-price-source').textContent).toBe(
        'No live quote yet: the limit price is the last close',
      ),
    );
    expect(t.getByLabelText('Price')).toHaveProperty('value', '1500');
  });
});

describe('a soft funds check before sending', () => {
  it('shows the shortfall in red and asks before an order the account cannot fund', async () => {
    bridge.answer('margins.order', () => ({
      ok: true,
      data: { total: 30_13_100, orderValue: 30_13_100, leverage: 1 },
    }));
    bridge.answer('orders.place', () => placed('7'));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await waitFor(() => expect(t.getByTestId('margin-shortfall').textContent).toBe('Short by₹17,78,532.50'));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    expect(t.getByRole('group', { name: 'Before sending' }).textContent).toContain(
      'Required ₹30,13,100.00 is ₹17,78,532.50 more than the ₹12,34,567.50 available',
    );
    expect(sent()).toHaveLength(0);
    await user.click(t.getByRole('button', { name: 'Place anyway' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
  });
});

describe('after-market orders', () => {
  it('offers an AMO while the exchange is closed, and sends one only once the trader ticks it', async () => {
    bridge.answer('market.status', () => ({ ok: true, data: status('closed') }));
    bridge.answer('orders.place', () => placed('1'));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    const hours = await t.findByRole('group', { name: 'Market hours' });
    expect(hours.textContent).toContain(
      'Outside market hours — NSE closed (After hours) · opens 09:15 Wed 25 Nov. Place as AMO?',
    );
    await user.click(within(hours).getByRole('checkbox', { name: /After-market order/ }));
    await user.click(t.getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]?.order.variety).toBe('amo');
  });

  it('after a regular order is refused for the closed market, places it as an AMO in one click with a new request id', async () => {
    bridge.answer('orders.place', (payload) =>
      (payload as { order: OrderRequest }).order.variety === 'amo'
        ? placed('2')
        : {
            ok: false,
            error: {
              kind: 'bad_request',
              message: 'variety: NSE is closed (after hours); it opens at 09:15 IST on Wed 25 Nov.',
              field: 'variety',
              fields: [
                { field: 'variety', message: 'NSE is closed (after hours); it opens at 09:15 IST on Wed 25 Nov.' },
              ],
            },
          },
    );
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await user.click(t.getByRole('button', { name: 'Place order' }));
    const reason = await t.findByTestId('variety-refusal');
    expect(reason.textContent).toBe('NSE is closed (after hours); it opens at 09:15 IST on Wed 25 Nov.');
    expect(t.getByTestId('ticket-outcome').textContent).toBe('Not placed — see After-market order');

    await user.click(t.getByRole('button', { name: 'Place as AMO' }));
    await waitFor(() => expect(t.getByTestId('ticket-order-id').textContent).toBe('2'));
    const [first, second] = sent();
    expect(first?.order.variety).toBeUndefined();
    expect(second?.order.variety).toBe('amo');
    expect(second?.requestId).not.toBe(first?.requestId);
    expect(t.getByRole('checkbox', { name: /After-market order/ })).toHaveProperty('checked', true);
  });
});

describe('slicing above the freeze limit', () => {
  async function nifty(quantity: string) {
    const ticket = await renderTicket(bridge);
    await choose(ticket.user, ticket.form, 'NIFTY26NOVFUT', 'NIFTY26NOVFUT');
    const qty = ticket.t.getByLabelText('Quantity');
    await ticket.user.clear(qty);
    await ticket.user.type(qty, quantity);
    return ticket;
  }

  it('offers to place 3,600 NIFTY at a freeze of 1,800 as 2 legs, and places each once with its own request id', async () => {
    let n = 0;
    bridge.answer('orders.place', () => placed(String(++n)));
    const { user, t } = await nifty('3600');
    const offer = t.getByRole('group', { name: 'Freeze limit' });
    expect(offer.textContent).toContain('Quantity 3,600 is above the freeze limit of 1,800 — place as 2 legs?');
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);

    await user.click(within(offer).getByRole('button', { name: 'Place as 2 legs' }));
    const legs = await t.findAllByTestId('leg-outcome');
    await waitFor(() => expect(legs.map((l) => l.dataset.state)).toEqual(['placed', 'placed']));
    expect(legs.map((l) => l.textContent)).toEqual([
      'Leg 1 of 2 · 1,800 Order 1 · COMPLETE',
      'Leg 2 of 2 · 1,800 Order 2 · COMPLETE',
    ]);
    const calls = sent();
    expect(calls.map((c) => c.order.quantity)).toEqual([1_800, 1_800]);
    expect(new Set(calls.map((c) => c.requestId)).size).toBe(2);
  });

  it('sends no further leg after one is refused, and says nothing was created for them', async () => {
    bridge.answer('orders.place', () => ({
      ok: false,
      error: { kind: 'bad_request', message: 'Insufficient funds', field: 'quantity' },
    }));
    const { user, t } = await nifty('5400');
    await user.click(t.getByRole('button', { name: 'Place as 3 legs' }));
    await waitFor(() =>
      expect(t.getAllByTestId('leg-outcome').map((l) => l.dataset.state)).toEqual(['refused', 'not_sent', 'not_sent']),
    );
    expect(t.getAllByTestId('leg-outcome')[2]?.textContent).toBe(
      'Leg 3 of 3 · 1,800 Not sent — nothing was created for this leg',
    );
    expect(sent()).toHaveLength(1);
  });

  it('holds the rest back while a leg is not yet confirmed, never calling it failed', async () => {
    bridge.answer('orders.place', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientOrderId: 'td-9', detail: 'Checking with the broker…' },
    }));
    const { user, t } = await nifty('3600');
    await user.click(t.getByRole('button', { name: 'Place as 2 legs' }));
    await waitFor(() =>
      expect(t.getAllByTestId('leg-outcome').map((l) => l.dataset.state)).toEqual(['unconfirmed', 'not_sent']),
    );
    expect(t.getAllByTestId('leg-outcome')[0]?.textContent).toContain('Not yet confirmed');
    expect(sent()).toHaveLength(1);
    await act(async () => undefined);
  });
});
