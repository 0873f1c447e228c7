import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { setBridgeForTests } from '../../lib/bridge';
import { connectedSession, INFY, NIFTY_CE, NIFTY_FUT, type FakeBridge } from '../../test/fake-bridge';
import { choose, installTicketBridge, renderTicket } from '../../test/ticket-harness';

/**
 * The ticket on a Kite session (docs/kite.md §Market protection, §Smaller rules): what a MARKET or
 * SL-M order will be under the profile's market protection, and Kite's refusal of IOC on MCX said
 * next to the field before anything is sent.
 */

let bridge: FakeBridge;

/** A gold future on MCX. */
const GOLD: Instrument = {
  ...NIFTY_FUT,
  instrumentToken: 53505799,
  exchange: 'MCX',
  tradingsymbol: 'GOLD26DECFUT',
  name: 'GOLD',
  segment: 'MCX-FUT',
  lotSize: 1,
  tickSize: 1,
  freezeQuantity: 100,
  lastPrice: 76_000,
};

beforeEach(() => {
  bridge = installTicketBridge();
  bridge.answer('instruments.list', () => ({ ok: true, data: [INFY, NIFTY_FUT, NIFTY_CE, GOLD] }));
});
afterEach(() => setBridgeForTests(null));

describe('the ticket on Kite', () => {
  it('a MARKET or SL-M order says the profile’s market protection and what Kite makes of it; a LIMIT says nothing', async () => {
    bridge.answer('session.status', () => ({ ok: true, data: connectedSession('kite', { marketProtection: 2 }) }));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await user.selectOptions(t.getByLabelText('Order type'), 'MARKET');
    const note = await t.findByTestId('market-protection');
    expect(note.textContent).toBe(
      'Market protection: 2% — Kite places it as a LIMIT at most 2% from the last price; it may rest unfilled if the price runs past it.',
    );
    await user.selectOptions(t.getByLabelText('Order type'), 'SL-M');
    expect(t.getByTestId('market-protection').textContent).toContain('stop-limit at most 2% from the trigger');
    await user.selectOptions(t.getByLabelText('Order type'), 'LIMIT');
    expect(t.queryByTestId('market-protection')).toBeNull();
  });

  it('automatic protection says so', async () => {
    bridge.answer('session.status', () => ({ ok: true, data: connectedSession('kite', { marketProtection: -1 }) }));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    await user.selectOptions(t.getByLabelText('Order type'), 'MARKET');
    expect((await t.findByTestId('market-protection')).textContent).toMatch(
      /^Market protection: automatic — Kite places it as a LIMIT within Kite's automatic percentage of the last price/,
    );
  });

  it('IOC on an MCX contract is refused next to Validity, and Place order stays off', async () => {
    // The session carries the rule from main's broker registry (docs/kite.md §Smaller rules).
    bridge.answer('session.status', () => ({
      ok: true,
      data: connectedSession('kite', { marketProtection: -1, iocRefusedOn: ['MCX'] }),
    }));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'GOLD', 'GOLD26DECFUT');
    await user.selectOptions(t.getByLabelText('Order type'), 'LIMIT');
    await user.selectOptions(t.getByLabelText('Validity'), 'IOC');
    await waitFor(() =>
      expect(t.getByText('Zerodha Kite takes no IOC orders on MCX through the API: use DAY')).toBeTruthy(),
    );
    expect(t.getByRole('button', { name: 'Place order' })).toHaveProperty('disabled', true);
  });

  it('on paper IOC on MCX is allowed and no market protection is shown', async () => {
    bridge.answer('session.status', () => ({ ok: true, data: connectedSession('paper') }));
    const paper = await renderTicket(bridge);
    await choose(paper.user, paper.form, 'GOLD', 'GOLD26DECFUT');
    await paper.user.selectOptions(paper.t.getByLabelText('Order type'), 'LIMIT');
    await paper.user.selectOptions(paper.t.getByLabelText('Validity'), 'IOC');
    expect(paper.t.queryByText(/Kite takes no IOC/)).toBeNull();
    expect(paper.t.queryByTestId('market-protection')).toBeNull();
  });
});
