import { useEffect } from 'react';
import { useTicketActions, useTicketOpen } from './ticket-store';
import { useSelectedInstrument } from './use-selected-instrument';

/**
 * Broker-terminal hotkeys: F1 opens a buy ticket and F2 a sell ticket for the selected
 * instrument (as in Kite and most Indian terminals); Esc closes the ticket unless a dialog is
 * open (then Esc belongs to the dialog).
 */
export function useTicketHotkeys(): void {
  const { ticketOpened, ticketClosed } = useTicketActions();
  const selected = useSelectedInstrument();
  const open = useTicketOpen();
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'F1' || e.key === 'F2') {
        e.preventDefault();
        ticketOpened(e.key === 'F1' ? 'BUY' : 'SELL', selected);
      } else if (e.key === 'Escape' && open && !document.querySelector('[role="dialog"]')) {
        ticketClosed();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ticketOpened, ticketClosed, selected, open]);
}
