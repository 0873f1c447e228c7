import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeskPanel } from '@shared/domain/workstation';
import { setBridgeForTests } from '../../lib/bridge';
import { createQueryClient } from '../../lib/query-client';
import { INFY, NIFTY_FUT } from '../../test/fake-bridge';
import { installTicketBridge } from '../../test/ticket-harness';
import { DeskPanelProvider } from '../workstation/desk-panel';
import { OrderTicket } from './order-ticket';
import { EMPTY_DRAFT } from './ticket-model';
import { useTicketActions } from './ticket-store';

/**
 * A ticket in a colour group follows the group's instrument (docs/workstation.md §Link): a row
 * picked on the watchlist moves the chart, the depth and the ticket together.
 */

beforeEach(() => {
  installTicketBridge();
});
afterEach(() => setBridgeForTests(null));

const ticketPanel = (link: DeskPanel['link']): DeskPanel => ({
  id: 'ticket',
  kind: 'ticket',
  window: 'main',
  link,
  instrument: null,
  options: {},
});

async function mount(link: DeskPanel['link']) {
  const { result } = renderHook(() => useTicketActions());
  act(() => {
    result.current.draftEdited({ ...EMPTY_DRAFT });
    result.current.ticketOpened('BUY', INFY);
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DeskPanelProvider panel={ticketPanel(link)}>
        <OrderTicket />
      </DeskPanelProvider>
    </QueryClientProvider>,
  );
  const t = within(screen.getByRole('form', { name: 'Order ticket' }));
  await waitFor(() => expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveProperty('value', 'INFY'));
  return { t, select: (token: number) => act(() => result.current.instrumentSelected(token)) };
}

describe('a linked ticket', () => {
  it('moves to the instrument its group moves to, at one lot', async () => {
    const { t, select } = await mount('red');
    select(NIFTY_FUT.instrumentToken);
    await waitFor(() =>
      expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveProperty('value', NIFTY_FUT.tradingsymbol),
    );
    expect(t.getByLabelText('Quantity')).toHaveProperty('value', '75');
  });

  it('in no group keeps its own instrument', async () => {
    const { t, select } = await mount(null);
    select(NIFTY_FUT.instrumentToken);
    expect(t.getByRole('combobox', { name: 'Symbol' })).toHaveProperty('value', 'INFY');
  });
});
