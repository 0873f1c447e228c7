import { useMemo } from 'react';
import type { Instrument } from '@shared/domain/instrument';
import { useWatchlistTokens } from '../../state/settings-store';
import { useInstruments } from '../instruments/queries';

/** The first few NSE equities: a starting watchlist until the trader makes their own. */
function defaultTokens(list: readonly Instrument[]): number[] {
  return list
    .filter((i) => i.exchange === 'NSE' && i.instrumentType === 'EQ')
    .slice(0, 8)
    .map((i) => i.instrumentToken);
}

/** The watchlist's instrument tokens: the trader's own, else the defaults. */
export function useWatchlist(): readonly number[] {
  const { list } = useInstruments();
  const saved = useWatchlistTokens();
  return useMemo(() => saved ?? defaultTokens(list), [saved, list]);
}
