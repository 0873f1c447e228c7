import type { Instrument } from '@shared/domain/instrument';
import { useSelectedToken } from '../ticket/ticket-store';
import { useInstruments } from '../instruments/queries';
import { useDeskView } from '../workstation/desk-queries';
import { useDeskPanel } from '../workstation/desk-panel';
import { shownToken, windowGroup } from '../workstation/link-model';
import { THIS_WINDOW } from '../workstation/this-window';
import { useWatchlist } from './use-watchlist-tokens';

/**
 * The instrument the market panels (chart, depth) show: their colour group's, or their own when
 * not linked (docs/workstation.md §Link); in this window's own group, or before any group has
 * one, the one last selected (watchlist row, ticket, option chain), else the first on the
 * watchlist; null before there is any.
 */
export function useShownInstrument(): { readonly token: number | null; readonly instrument: Instrument | undefined } {
  const selected = useSelectedToken();
  const watchlist = useWatchlist();
  const view = useDeskView();
  const panel = useDeskPanel();
  const { byToken } = useInstruments();
  const token = shownToken(view, panel, windowGroup(view, THIS_WINDOW), selected ?? watchlist[0] ?? null);
  return { token, instrument: token === null ? undefined : byToken.get(token) };
}
