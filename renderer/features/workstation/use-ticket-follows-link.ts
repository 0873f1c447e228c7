import { useEffect, useRef } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { useShownInstrument } from '../market/use-shown-instrument';
import { useDeskPanel } from './desk-panel';

/**
 * A ticket in a colour group follows the group's instrument (docs/workstation.md §Link): when the
 * group moves to another instrument (a watchlist row picked, a chart linked to it) the open ticket
 * moves there too, so the order is never one click away on the instrument the other panels have
 * left. Only a move of the group is followed, so a ticket opened on another instrument (an Exit,
 * the palette) keeps it until the group moves; a ticket in no group keeps its own.
 */
export function useTicketFollowsLink(draftToken: number | null, follow: (instrument: Instrument) => void): void {
  const panel = useDeskPanel();
  const { token, instrument } = useShownInstrument();
  const linked = panel !== null && panel.link !== null;
  const seen = useRef(token);
  useEffect(() => {
    if (token === seen.current) return;
    seen.current = token;
    if (linked && instrument && token !== draftToken) follow(instrument);
    // Only the group's move is followed (see above).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
}
