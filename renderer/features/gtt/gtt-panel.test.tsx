import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Gtt } from '@shared/domain/gtt';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, INFY, type FakeBridge } from '../../test/fake-bridge';
import { GttDialogHost } from './gtt-dialog';
import { ocoForPosition } from './gtt-model';
import { GttPanel } from './gtt-panel';
import { useGttDialogActions } from './gtt-store';

/**
 * The GTT panel and form against an in-memory bridge (docs/gtt.md): what a trader reads of each
 * GTT, what Cancel sends, and the form's honest answers — a refusal under its field, and a lost
 * reply shown as not yet confirmed, never as failed.
 */

let bridge: FakeBridge;

const gtt = (over: Partial<Gtt>): Gtt => ({
  gttId: '7000001',
  clientGttId: 'gtt-a',
  type: 'oco',
  status: 'active',
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  instrumentToken: INFY.instrumentToken,
  triggerValues: [1470, 1530],
  lastPriceAtCreation: 1500,
  legs: [
    { transactionType: 'SELL', quantity: 5, product: 'MIS', price: 1470, orderId: null, orderStatus: null },
    { transactionType: 'SELL', quantity: 5, product: 'MIS', price: 1530, orderId: null, orderStatus: null },
  ],
  createdAt: '2026-11-23T10:00:00+05:30',
  updatedAt: '2026-11-23T10:00:00+05:30',
  expiresAt: '2027-11-23T10:00:00+05:30',
  statusMessage: null,
  ...over,
});

beforeEach(() => {
  bridge = createFakeBridge({ 'instruments.list': () => ({ ok: true, data: [INFY] }) });
  setBridgeForTests(bridge);
});
afterEach(() => setBridgeForTests(null));

function OpenOco() {
  const { opened } = useGttDialogActions();
  useEffect(() => opened(INFY.instrumentToken, ocoForPosition({ quantity: 5, product: 'MIS' }, 1500, 0.05)), [opened]);
  return <GttDialogHost />;
}

const show = (ui: React.ReactNode): void => {
  render(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);
};

describe('GTT panel', () => {
  it('shows a triggered OCO with the order its target placed and the stop-loss done, with no actions', async () => {
    bridge.answer('gtt.list', () => ({
      ok: true,
      data: [
        gtt({
          status: 'triggered',
          legs: [
            { transactionType: 'SELL', quantity: 5, product: 'MIS', price: 1470, orderId: null, orderStatus: null },
            {
              transactionType: 'SELL',
              quantity: 5,
              product: 'MIS',
              price: 1530,
              orderId: '2600001',
              orderStatus: 'OPEN',
            },
          ],
        }),
      ],
    }));
    show(<GttPanel />);
    expect((await screen.findByTestId('gtt-status-7000001')).textContent).toBe('triggered');
    expect(screen.getByTestId('gtt-orders-7000001').textContent).toBe('SL: done T: order 2600001');
    expect(within(screen.getByTestId('gtt-row-7000001')).queryByRole('button')).toBeNull();
  });

  it('Cancel on an active GTT sends gtt.delete with its id', async () => {
    bridge.answer('gtt.list', () => ({ ok: true, data: [gtt({})] }));
    bridge.answer('gtt.delete', () => ({ ok: true, data: { gttId: '7000001', status: 'cancelled' } }));
    show(<GttPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel GTT 7000001' }));
    await waitFor(() => expect(bridge.callsOf('gtt.delete').map((c) => c.payload)).toEqual([{ gttId: '7000001' }]));
  });
});

describe('GTT form', () => {
  it('a create main could not confirm reads "Not yet confirmed" with its reference, never failed', async () => {
    bridge.answer('gtt.place', () => ({
      ok: true,
      data: { state: 'unconfirmed', clientGttId: 'gtt-lost', detail: 'check the GTT list before creating it again' },
    }));
    show(<OpenOco />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create GTT' }));
    const outcome = await screen.findByTestId('gtt-outcome');
    expect(outcome.textContent).toBe('Not yet confirmed (gtt-lost): check the GTT list before creating it again');
    expect(outcome.textContent).not.toMatch(/fail/i);
    const sent = bridge.callsOf('gtt.place')[0]?.payload as { gtt: { triggerValues: number[] } };
    expect(sent.gtt.triggerValues).toEqual([1470, 1530]);
  });

  it("main's refusal of the target trigger is shown under the Target trigger field", async () => {
    bridge.answer('gtt.place', () => ({
      ok: false,
      error: {
        kind: 'bad_request',
        message: 'triggerValues.1: The target trigger (₹1,530.00) must be above the last price ₹1,535.00',
        field: 'triggerValues.1',
        fields: [
          {
            field: 'triggerValues.1',
            message: 'The target trigger (₹1,530.00) must be above the last price ₹1,535.00',
          },
        ],
      },
    }));
    show(<OpenOco />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create GTT' }));
    const field = await screen.findByLabelText('Target trigger');
    await waitFor(() => {
      const described = document.getElementById(field.getAttribute('aria-describedby') ?? '');
      expect(described?.textContent).toMatch(/must be above the last price ₹1,535\.00/);
    });
  });
});
