import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { bookOf, createFakeBridge, type FakeBridge } from '../../test/fake-bridge';
import { layOutBoxes, restoreBoxes } from '../../test/laid-out-boxes';
import { order } from '../../test/ticket-harness';
import { Blotter } from './blotter';

/**
 * The blotter from the keyboard (docs/desk.md §Keyboard): one tab stop, ↑/↓ inside, and the
 * row's keys (Enter, M, Del) acting on the focused order.
 */

let bridge: FakeBridge;

beforeEach(() => {
  layOutBoxes();
  bridge = createFakeBridge({
    'orders.sync': () =>
      bookOf([order('250101000003', 'OPEN'), order('250101000002', 'COMPLETE'), order('250101000001', 'OPEN')]),
    'instruments.list': () => ({ ok: true, data: [] }),
    'placements.list': () => ({ ok: true, data: [] }),
  });
  setBridgeForTests(bridge);
});

afterEach(() => {
  setBridgeForTests(null);
  restoreBoxes();
});

async function renderBlotter(): Promise<HTMLElement> {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <input aria-label="Before" />
      <Blotter />
      <input aria-label="After" />
    </QueryClientProvider>,
  );
  const table = await screen.findByRole('table', { name: 'Orders' });
  await waitFor(() => expect(table.querySelectorAll('tr[data-order-id]')).toHaveLength(3));
  return table;
}

/** The body's elements Tab can land on (a row or a button inside one). */
function tabStops(table: HTMLElement): string[] {
  return [...table.querySelectorAll<HTMLElement>('tbody tr, tbody button')]
    .filter((e) => e.tabIndex >= 0)
    .map((e) => e.dataset.orderId ?? e.getAttribute('aria-label') ?? '?');
}

const row = (table: HTMLElement, id: string) => table.querySelector<HTMLElement>(`tr[data-order-id="${id}"]`)!;

describe('Blotter: one tab stop, arrows inside', () => {
  it('has one tab stop among its rows and their buttons, which follows the focused row', async () => {
    const user = userEvent.setup();
    const table = await renderBlotter();
    expect(tabStops(table)).toEqual(['250101000003']);

    row(table, '250101000003').focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(row(table, '250101000002'));
    await waitFor(() => expect(tabStops(table)).toEqual(['250101000002']));

    // Tab leaves the list at once (past the other rows and every Modify/Cancel button); Shift+Tab
    // comes back to the row it left.
    await user.tab();
    expect(table.contains(document.activeElement)).toBe(false);
    (document.activeElement as HTMLElement).blur();
    screen.getByLabelText('After').focus();
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(row(table, '250101000002'));
  });

  it("keeps the row's keys: M modifies and Enter opens the history of the focused order", async () => {
    const user = userEvent.setup();
    const table = await renderBlotter();
    row(table, '250101000003').focus();
    await user.keyboard('{ArrowDown}{ArrowDown}m');
    expect(screen.getByRole('dialog', { name: 'Modify order 250101000001' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(row(table, '250101000001'));
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: /^Order 250101000001/ })).toBeTruthy();
    // The row's buttons are still there for the mouse.
    expect(within(row(table, '250101000001')).getByRole('button', { name: 'Modify 250101000001' })).toBeTruthy();
  });

  it('a cancel the broker answers with the order already filled says so, not "Cancel failed"', async () => {
    bridge.answer('orders.cancel', () => ({
      ok: true,
      data: { state: 'done', action: 'cancel', orderId: '250101000003', status: 'COMPLETE' },
    }));
    const user = userEvent.setup();
    const table = await renderBlotter();
    await user.click(within(row(table, '250101000003')).getByRole('button', { name: 'Cancel 250101000003' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Order 250101000003 had already filled: nothing to cancel',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a cancel main cannot confirm is "Not yet confirmed — checking" in its row, never "Cancel failed", then Cancelled', async () => {
    const id = '250101000003';
    const checking = `Checking with the broker whether order ${id} was cancelled…`;
    bridge.answer('orders.cancel', () => ({
      ok: true,
      data: { state: 'unconfirmed', action: 'cancel', orderId: id, detail: checking },
    }));
    let settled = false;
    bridge.answer('orders.action', () => ({
      ok: true,
      data: settled
        ? { state: 'done', action: 'cancel', orderId: id, status: 'CANCELLED' }
        : { state: 'unconfirmed', action: 'cancel', orderId: id, detail: checking },
    }));
    const user = userEvent.setup();
    const table = await renderBlotter();
    await user.click(within(row(table, id)).getByRole('button', { name: `Cancel ${id}` }));
    expect((await within(row(table, id)).findByTestId('row-answer')).textContent).toBe('Not yet confirmed — checking');
    expect(screen.getByTestId('cancel-answer').textContent).toBe(
      `Order ${id}: Not yet confirmed — checking with the broker whether order ${id} was cancelled…`,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.body.textContent).not.toMatch(/failed/i);
    settled = true;
    await waitFor(() => expect(within(row(table, id)).getByTestId('row-answer').textContent).toBe('Cancelled'), {
      timeout: 5_000,
    });
  });
});
