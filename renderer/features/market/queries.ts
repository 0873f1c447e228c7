import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CandleInterval } from '@shared/domain/market';
import { call } from '../../lib/ipc-client';
import type { Quotes } from './quote-cache';

export type { Quote, Quotes } from './quote-cache';

/**
 * Query factory for market data. Quotes are pushed, not polled: the `market.ticks` event
 * writes them with `setQueryData` (TkDodo: small frequent updates go straight into the cache),
 * so their query function only provides the empty starting value. Candles are fetched per
 * instrument and interval; the forming candle is then moved by ticks in the chart.
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
  candles: (instrumentToken: number, interval: CandleInterval) =>
    queryOptions({
      queryKey: [...marketQueries.all(), 'candles', instrumentToken, interval],
      queryFn: () => call('candles.get', { instrumentToken, interval }),
      staleTime: 60_000,
      retry: 1,
    }),
  /** The previous session's close, for "change" (the last two day bars). */
  previousClose: (instrumentToken: number) =>
    queryOptions({
      queryKey: [...marketQueries.all(), 'previous-close', instrumentToken],
      queryFn: async () => {
        const from = new Date(Date.now() - 6 * 86_400_000).toISOString();
        const bars = await call('candles.get', { instrumentToken, interval: 'day', from });
        return bars.length >= 2 ? bars[bars.length - 2]!.close : null;
      },
      staleTime: 60 * 60_000,
      retry: false,
    }),
};

/** The previous close of one instrument (null while unknown). */
export function usePreviousClose(instrumentToken: number | null): number | null {
  return (
    useQuery({ ...marketQueries.previousClose(instrumentToken ?? 0), enabled: instrumentToken !== null }).data ?? null
  );
}

export type { CandleInterval };
