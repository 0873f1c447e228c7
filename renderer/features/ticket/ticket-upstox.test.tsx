import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { connectedSession, INFY, NIFTY_FUT, type FakeBridge } from '../../test/fake-bridge';
import { choose, installTicketBridge, renderTicket } from '../../test/ticket-harness';

/** The ticket on an Upstox session (docs/upstox.md §The adapter): products as Upstox names them. */

let bridge: FakeBridge;

beforeEach(() => {
  bridge = installTicketBridge();
  bridge.answer('instruments.list', () => ({ ok: true, data: [INFY, NIFTY_FUT] }));
});
afterEach(() => setBridgeForTests(null));

const options = (select: HTMLElement): string[] =>
  [...(select as HTMLSelectElement).options].map((o) => o.textContent ?? '');

describe('the ticket on Upstox', () => {
  it('offers the products as Upstox names them: I, and D for delivery on an equity or carry-forward on a future', async () => {
    bridge.answer('session.status', () => ({ ok: true, data: connectedSession('upstox') }));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    expect(options(t.getByLabelText('Product'))).toEqual(['I', 'D', 'D (not for this instrument)']);
    await choose(user, form, 'NIFTY', NIFTY_FUT.tradingsymbol);
    expect(options(t.getByLabelText('Product'))).toEqual(['I', 'D (not for this instrument)', 'D']);
  });

  it('another broker’s session shows the app’s own names', async () => {
    bridge.answer('session.status', () => ({ ok: true, data: connectedSession('paper') }));
    const { user, form, t } = await renderTicket(bridge);
    await choose(user, form, 'INFY', 'INFY');
    expect(options(t.getByLabelText('Product'))).toEqual(['MIS', 'CNC', 'NRML (not for this instrument)']);
  });
});
