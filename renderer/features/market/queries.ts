import { queryOptions } from '@tanstack/react-query';
import type { Tick } from '../../../shared/domain/market';

/** Latest tick per instrument token, filled by `market.ticks` events (never fetched). */
export type Quotes = Readonly<Record<number, Tick>>;

/**
 * Query factory for live market data. Quotes are pushed, not polled: the `market.ticks` event
 * writes them with `setQueryData` (TkDodo: small frequent updates go straight into the cache),
 * so the query function only provides the empty starting value.
 */
export const marketQueries = {
  all: () => ['market'] as const,
  quotes: () =>
    queryOptions({
      queryKey: [...marketQueries.all(), 'quotes'],
      queryFn: (): Quotes => ({}),
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};
