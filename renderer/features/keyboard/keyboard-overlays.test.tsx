import { QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { SHORTCUTS } from '../../lib/shortcuts';
import { createFakeBridge, INFY, NIFTY_FUT } from '../../test/fake-bridge';
import { SLOTS } from '../layout/slots';
import { useShownTab } from '../layout/tabs-store';
import { useTicketDraft } from '../ticket/ticket-store';
import { CommandPalette } from './command-palette';
import { useOverlayActions } from './overlay-store';
import { ShortcutsSheet } from './shortcuts-sheet';
import { useOverlayHotkeys } from './use-overlay-hotkeys';

/** The palette and the sheet as the app mounts them: always there, opened by their keys. */
function Overlays() {
  useOverlayHotkeys();
  return (
    <>
      <input aria-label="Some field" />
      <CommandPalette />
      <ShortcutsSheet />
    </>
  );
}

beforeEach(() => {
  setBridgeForTests(createFakeBridge({ 'instruments.list': () => ({ ok: true, data: [INFY, NIFTY_FUT] }) }));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Overlays />
    </QueryClientProvider>,
  );
});

afterEach(() => {
  const { result } = renderHook(() => useOverlayActions());
  result.current.overlayClosed();
  setBridgeForTests(null);
});

describe('the shortcuts sheet', () => {
  it('lists every binding of the registry with its keys', async () => {
    await userEvent.keyboard('?');
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const s of SHORTCUTS) {
      const row = within(sheet).getByText(s.does).closest('tr');
      expect(row?.textContent, s.id).toContain(s.keys.join(''));
    }
  });

  it('does not open on ? typed into a field', async () => {
    await userEvent.click(screen.getByRole('textbox', { name: 'Some field' }));
    await userEvent.keyboard('?');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Some field' })).toHaveProperty('value', '?');
  });
});

describe('the command palette', () => {
  it('opens on Ctrl+K from inside a field, and "sell nifty" + Enter opens a sell ticket for the future', async () => {
    const draft = renderHook(() => useTicketDraft());
    await userEvent.click(screen.getByRole('textbox', { name: 'Some field' }));
    await userEvent.keyboard('{Control>}k{/Control}');
    const find = screen.getByRole('combobox', { name: 'Find an instrument or an action' });
    expect(document.activeElement).toBe(find);
    await userEvent.type(find, 'sell nifty');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toContain(NIFTY_FUT.tradingsymbol));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(draft.result.current.instrumentToken).toBe(NIFTY_FUT.instrumentToken));
    expect(draft.result.current.side).toBe('SELL');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('moves the choice with ↓ and runs the chosen action: "show", ↓, Enter shows the Trades tab', async () => {
    const shown = renderHook(() => useShownTab(SLOTS.orders.id));
    await userEvent.keyboard('{Control>}k{/Control}');
    await userEvent.type(screen.getByRole('combobox'), 'show');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(
      expect.arrayContaining([expect.stringContaining('Show orders'), expect.stringContaining('Show trades')]),
    );
    await userEvent.keyboard('{ArrowDown}');
    const chosen = screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true');
    expect(chosen?.textContent).toContain('Show trades and the day summary');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(shown.result.current).toBe(SLOTS.orders.trades));
  });
});
