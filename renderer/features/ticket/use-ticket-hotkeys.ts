import { useEffect } from 'react';
import { shortcutFor } from '../../lib/shortcuts';
import { useTicketActions, useTicketOpen } from './ticket-store';
import { useSelectedInstrument } from './use-selected-instrument';

/**
 * Broker-terminal hotkeys: F1 opens a buy ticket and F2 a sell ticket for the selected
 * instrument (as in Kite and most Indian terminals); Esc closes the ticket unless a dialog is
 * open (then Esc belongs to the dialog). The keys come from the registry (`lib/shortcuts.ts`).
 */
export function useTicketHotkeys(): void {
  const { ticketOpened, ticketClosed } = useTicketActions();
  const selected = useSelectedInstrument();
  const open = useTicketOpen();
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const id = shortcutFor('anywhere', e);
      if (id === 'buy' || id === 'sell') {
        e.preventDefault();
        ticketOpened(id === 'buy' ? 'BUY' : 'SELL', selected);
      } else if (id === 'close-ticket' && open && !document.querySelector('[role="dialog"]')) {
        ticketClosed();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ticketOpened, ticketClosed, selected, open]);
}
