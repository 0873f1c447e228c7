import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { MarketQuote } from '@shared/domain/market';
import { call } from '../../lib/ipc-client';
import { useQuote } from '../market/use-quotes';
import { sessionQueries } from '../session/queries';
import { useMarketData } from '../session/use-market-data';
import { bookOfQuote, bookOfTick, latestBook, type Book } from './book-model';

/** How often the book is read while the stream is down (the ticks that move it do not come). */
const FALLBACK_MS = 3_000;

/**
 * Query factory for full quotes (`quotes.get`): one instrument's book, read once when a panel
 * starts showing it and then kept current by the stream's ticks.
 */
export const bookQueries = {
  all: () => ['market', 'book'] as const,
  quote: (instrumentToken: number) =>
    queryOptions({
      queryKey: [...bookQueries.all(), instrumentToken],
      queryFn: async (): Promise<MarketQuote | null> =>
        (await call('quotes.get', { tokens: [instrumentToken] }))[0] ?? null,
      staleTime: 30_000,
      retry: false,
    }),
};

/**
 * The book of one instrument: the newest of its last tick and a `quotes.get` read
 * (`latestBook`). The caller subscribes the instrument in the stream mode it needs (`full` for
 * the depth); this hook reads the tick cache and the read, re-rendering when that instrument
 * ticks. While the stream is down the read is repeated every few seconds.
 */
export function useBook(instrumentToken: number | null): Book | null {
  const tick = useQuote(instrumentToken);
  const stream = useQuery({ ...sessionQueries.connection(), enabled: false }).data?.stream;
  const down = stream !== undefined && stream !== 'open';
  const marketData = useMarketData();
  const read = useQuery({
    ...bookQueries.quote(instrumentToken ?? 0),
    enabled: instrumentToken !== null && marketData,
    refetchInterval: down ? FALLBACK_MS : false,
  }).data;
  return useMemo(() => latestBook(tick ? bookOfTick(tick) : null, read ? bookOfQuote(read) : null), [tick, read]);
}
