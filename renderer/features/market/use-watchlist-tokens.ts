import { useCallback, useMemo } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { useWatchlistTokens } from '../../state/settings-store';
import { activeList, firstLists, type ProfileLists } from '../../state/watchlists-model';
import { useProfileLists, useWatchlistsActions } from '../../state/watchlists-store';
import { useInstruments } from '../instruments/queries';
import { useProfileKey } from '../session/use-profile-key';

/** The first few NSE equities: a starting watchlist until the trader makes their own. */
function defaultTokens(list: readonly Instrument[]): number[] {
  return list
    .filter((i) => i.exchange === 'NSE' && i.instrumentType === 'EQ')
    .slice(0, 8)
    .map((i) => i.instrumentToken);
}

/** A profile's named watchlists and the way to change them (docs/desk.md §Named watchlists). */
export interface Watchlists {
  readonly profile: ProfileLists;
  readonly change: (change: (p: ProfileLists) => ProfileLists) => void;
}

/**
 * The logged-in profile's named watchlists. A profile without lists yet starts with one,
 * "Watchlist 1", holding the single watchlist of earlier versions, else the defaults.
 */
export function useWatchlists(): Watchlists {
  const { list } = useInstruments();
  const legacy = useWatchlistTokens();
  const key = useProfileKey();
  const saved = useProfileLists(key);
  const { watchlistsChanged } = useWatchlistsActions();
  const seed = useMemo(() => firstLists(legacy ?? defaultTokens(list)), [legacy, list]);
  const profile = saved ?? seed;
  const change = useCallback(
    (fn: (p: ProfileLists) => ProfileLists) => watchlistsChanged(key, seed, fn),
    [watchlistsChanged, key, seed],
  );
  return { profile, change };
}

/** The shown watchlist's instrument tokens, in the trader's order. */
export function useWatchlist(): readonly number[] {
  return activeList(useWatchlists().profile).tokens;
}
