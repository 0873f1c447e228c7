import { QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Instrument } from '@shared/domain/instrument';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { createFakeBridge, INFY } from '../../test/fake-bridge';
import { useSelectedToken, useTicketDraft } from '../ticket/ticket-store';
import { Watchlist } from './watchlist';

/**
 * The watchlist from the keyboard (docs/desk.md §Keyboard): one tab stop, the selected row; ↑/↓
 * move it and the selection together; B/S open a ticket for the focused row.
 */

const equity = (token: number, symbol: string): Instrument => ({
  ...INFY,
  instrumentToken: token,
  tradingsymbol: symbol,
});
const LIST = [equity(1, 'AAA'), equity(2, 'BBB'), equity(3, 'CCC')];

beforeEach(() => {
  localStorage.clear();
  setBridgeForTests(createFakeBridge({ 'instruments.list': () => ({ ok: true, data: LIST }) }));
});

afterEach(() => setBridgeForTests(null));

async function renderWatchlist(): Promise<HTMLElement> {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Watchlist />
      <input aria-label="After" />
    </QueryClientProvider>,
  );
  const table = await screen.findByRole('table', { name: 'Instruments' });
  await waitFor(() => expect(rows(table)).toHaveLength(3));
  return table;
}

const rows = (table: HTMLElement) => [...table.querySelectorAll<HTMLElement>('tr[data-watch-row]')];

/** The body's elements Tab can land on (a row or a button inside one). */
function tabStops(table: HTMLElement): string[] {
  return [...table.querySelectorAll<HTMLElement>('tbody tr, tbody button')]
    .filter((e) => e.tabIndex >= 0)
    .map((e) => e.getAttribute('aria-label') ?? e.querySelector('.sym')?.textContent ?? '?');
}

describe('Watchlist: one tab stop, arrows inside', () => {
  it('is one tab stop (no B, S or × button in the tab order) that follows the selection', async () => {
    const user = userEvent.setup();
    const selected = renderHook(() => useSelectedToken());
    const table = await renderWatchlist();
    expect(tabStops(table)).toEqual(['AAA']);

    rows(table)[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(rows(table)[1]);
    await waitFor(() => expect(selected.result.current).toBe(2));
    expect(tabStops(table)).toEqual(['BBB']);

    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('After'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(rows(table)[1]);
    // The buttons are still there for the mouse.
    expect(within(rows(table)[1]!).getByRole('button', { name: 'Sell BBB' })).toBeTruthy();
  });

  it('keeps the row keys: S opens a sell ticket for the focused row', async () => {
    const user = userEvent.setup();
    const draft = renderHook(() => useTicketDraft());
    const table = await renderWatchlist();
    rows(table)[0]!.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}s');
    await waitFor(() => expect(draft.result.current.instrumentToken).toBe(3));
    expect(draft.result.current.side).toBe('SELL');
  });
});
