import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PriceAlert } from '@shared/domain/alert';
import { INFY_MARKET_BUY } from '@shared/testing/order-fixtures';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { useToasts } from '../../state/toast-store';
import { createFakeBridge, INFY, type FakeBridge } from '../../test/fake-bridge';
import { AlertsDialog } from './alerts-dialog';
import { useAlertEvents } from './queries';

/**
 * Alert notifications in the page (docs/contract.md §Alert notifications): a fired alert's tone
 * when it asks for one, and the per-alert switches in the alerts dialog, sent to main with the
 * alert. The tone goes through a recording stand-in for the browser's AudioContext (happy-dom has
 * none): it counts the oscillators started.
 */

let tones = 0;
class RecordingAudioContext {
  public readonly currentTime = 0;
  public readonly destination = {};
  public createOscillator() {
    return { frequency: { value: 0 }, connect: (n: unknown) => n, start: () => (tones += 1), stop: () => undefined };
  }
  public createGain() {
    const gain = {
      gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
      connect: (n: unknown) => n,
    };
    return gain;
  }
}

let bridge: FakeBridge;
const ALERT: PriceAlert = {
  id: 'al-abc123',
  instrumentToken: INFY.instrumentToken,
  exchange: 'NSE',
  tradingsymbol: 'INFY',
  condition: 'above',
  price: 1510,
  note: null,
  state: 'active',
  createdAt: 0,
  triggeredAt: null,
  triggeredPrice: null,
  notify: { os: true, sound: false },
  basis: { kind: 'price' },
  orders: [],
  outcome: null,
};

beforeEach(() => {
  tones = 0;
  (globalThis as { AudioContext?: unknown }).AudioContext = RecordingAudioContext;
  bridge = createFakeBridge({
    'instruments.list': () => ({ ok: true, data: [INFY] }),
    'alerts.list': () => ({ ok: true, data: [ALERT] }),
    'alerts.create': (p) => ({ ok: true, data: { ...ALERT, id: 'al-new1', ...(p as object) } }),
    'alerts.update': (p) => ({ ok: true, data: { ...ALERT, ...(p as { change: object }).change } }),
  });
  setBridgeForTests(bridge);
});
afterEach(() => {
  setBridgeForTests(null);
  delete (globalThis as { AudioContext?: unknown }).AudioContext;
});

function Events() {
  useAlertEvents();
  const toasts = useToasts();
  return (
    <ul aria-label="Toasts">
      {toasts.map((t) => (
        <li key={t.id}>{t.title}</li>
      ))}
    </ul>
  );
}

const fired = (over: Partial<PriceAlert>): PriceAlert => ({
  ...ALERT,
  state: 'triggered',
  triggeredAt: 1,
  triggeredPrice: 1512,
  ...over,
});

describe('alert notifications in the page', () => {
  it('plays one tone for a fired alert that asks for sound, none for one that does not (Sound off); both are toasts', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Events />
      </QueryClientProvider>,
    );
    act(() => bridge.emit('alerts.fired', fired({ id: 'al-quiet', notify: { os: true, sound: false } })));
    expect(tones).toBe(0);
    act(() => bridge.emit('alerts.fired', fired({ id: 'al-loud', notify: { os: false, sound: true } })));
    expect(tones).toBe(1);
    const toasts = within(screen.getByRole('list', { name: 'Toasts' })).getAllByRole('listitem');
    expect(toasts.map((t) => t.textContent)).toEqual(['Alert: INFY above 1,510.00', 'Alert: INFY above 1,510.00']);
  });

  it('sends the switches chosen in the dialog with a new alert and with an edit, and lists how each notifies', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <AlertsDialog onClose={() => undefined} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /INFY above/ });
    expect(row.textContent).toContain('OS notification');
    expect(row.textContent).not.toContain('sound');

    const form = screen.getByRole('form', { name: 'New alert' });
    await user.type(within(form).getByRole('combobox', { name: 'Alert symbol' }), 'INFY NSE');
    await user.type(within(form).getByRole('textbox', { name: 'Alert price' }), '1450');
    await user.click(within(form).getByRole('checkbox', { name: 'Sound' }));
    await waitFor(() =>
      expect(within(form).getByRole('button', { name: 'Add alert' })).toHaveProperty('disabled', false),
    );
    await user.click(within(form).getByRole('button', { name: 'Add alert' }));
    await waitFor(() =>
      expect(bridge.callsOf('alerts.create')[0]?.payload).toEqual({
        instrumentToken: INFY.instrumentToken,
        condition: 'above',
        price: 1450,
        notify: { os: false, sound: true },
      }),
    );

    await user.click(within(row).getByRole('button', { name: 'Edit INFY above 1,510.00' }));
    const switches = within(row).getByRole('group', { name: 'Notifications of INFY above 1,510.00' });
    await user.click(within(switches).getByRole('checkbox', { name: 'OS notification' }));
    await user.click(within(switches).getByRole('checkbox', { name: 'Sound' }));
    await user.click(within(row).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(bridge.callsOf('alerts.update')[0]?.payload).toEqual({
        id: ALERT.id,
        change: { condition: 'above', price: 1510, notify: { os: false, sound: true } },
      }),
    );
  });

  it('attaches an order to a new alert, refuses a bad quantity naming it, and shows each outcome on the alert and in a toast', async () => {
    const placedAlert = fired({
      id: 'al-ord1',
      orders: [{ ...INFY_MARKET_BUY, quantity: 10 }],
      outcome: { state: 'refused', detail: 'Nothing placed: Order value ₹15,120 is over your limit', legs: [] },
    });
    bridge = createFakeBridge({
      'instruments.list': () => ({ ok: true, data: [INFY] }),
      'alerts.list': () => ({ ok: true, data: [placedAlert] }),
      'alerts.create': (p) => ({ ok: true, data: { ...ALERT, id: 'al-new1', ...(p as object) } }),
    });
    setBridgeForTests(bridge);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Events />
        <AlertsDialog onClose={() => undefined} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /INFY above/ });
    expect(within(row).getByRole('status').textContent).toBe(
      'Refused: Nothing placed: Order value ₹15,120 is over your limit',
    );
    expect(row.textContent).toContain('BUY 10 INFY MARKET');

    const form = screen.getByRole('form', { name: 'New alert' });
    await user.type(within(form).getByRole('combobox', { name: 'Alert symbol' }), 'INFY NSE');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Alert condition' }), 'crosses_up');
    await user.type(within(form).getByRole('textbox', { name: 'Alert price' }), '1520');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Places' }), 'order');
    await user.type(within(form).getByRole('textbox', { name: 'Order quantity' }), '0');
    await waitFor(() =>
      expect(within(form).getByRole('button', { name: 'Add alert' })).toHaveProperty('disabled', false),
    );
    await user.click(within(form).getByRole('button', { name: 'Add alert' }));
    expect(within(form).getByRole('alert').textContent).toBe('Quantity: enter a whole number above zero');
    expect(bridge.callsOf('alerts.create')).toHaveLength(0);
    await user.clear(within(form).getByRole('textbox', { name: 'Order quantity' }));
    await user.type(within(form).getByRole('textbox', { name: 'Order quantity' }), '5');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Order side' }), 'SELL');
    await user.click(within(form).getByRole('button', { name: 'Add alert' }));
    await waitFor(() =>
      expect(bridge.callsOf('alerts.create')[0]?.payload).toEqual({
        instrumentToken: INFY.instrumentToken,
        condition: 'crosses_up',
        price: 1520,
        orders: [{ ...INFY_MARKET_BUY, transactionType: 'SELL', quantity: 5 }],
        notify: { os: false, sound: false },
      }),
    );

    act(() =>
      bridge.emit('alerts.ordered', {
        ...placedAlert,
        outcome: {
          state: 'placed',
          detail: 'Order placed',
          legs: [{ state: 'placed', orderId: 'P1', detail: 'Order P1' }],
        },
      }),
    );
    const toasts = within(screen.getByRole('list', { name: 'Toasts' })).getAllByRole('listitem');
    expect(toasts.map((t) => t.textContent)).toContain('Alert orders placed: INFY above 1,510.00');
  });
});
