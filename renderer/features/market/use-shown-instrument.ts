import type { Instrument } from '@shared/domain/instrument';
import { useSelectedToken } from '../ticket/ticket-store';
import { useInstruments } from '../instruments/queries';
import { useWatchlist } from './use-watchlist-tokens';

/**
 * The instrument the market panels (chart, depth) show: the one last selected (watchlist row,
 * ticket, option chain), else the first on the watchlist; null before there is any.
 */
export function useShownInstrument(): { readonly token: number | null; readonly instrument: Instrument | undefined } {
  const selected = useSelectedToken();
  const watchlist = useWatchlist();
  const { byToken } = useInstruments();
  const token = selected ?? watchlist[0] ?? null;
  return { token, instrument: token === null ? undefined : byToken.get(token) };
}
