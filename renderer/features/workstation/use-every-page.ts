import { useQuoteFallback } from '../market/use-quote-fallback';
import { useDeskEvents } from './desk-queries';
import { useDeskCommands } from './use-desk-commands';
import { useLinkSync } from './use-link-sync';
import { useSharedStorage } from './use-shared-storage';
import { useTicketForward } from './use-ticket-forward';

/**
 * What every page of the desk keeps running, the main window's and each pop-out's alike
 * (docs/workstation.md §Windows): prices polled while the stream is down, the desk's events, the
 * storage the windows share, tickets forwarded to the ticket's window, the link groups kept in
 * step and the windows' commands to one another. Mounted once per page.
 */
export function useEveryPage(): void {
  useQuoteFallback();
  useDeskEvents();
  useSharedStorage();
  useTicketForward();
  useLinkSync();
  useDeskCommands();
}
