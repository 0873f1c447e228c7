import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CandleInterval } from '@shared/domain/market';
import { call } from '../../lib/ipc-client';
import { useMarketData } from '../session/use-market-data';
export type { Quote, Quotes } from './quote-cache';

/**
 * Query factory for market data fetched on request. Quotes are pushed, not polled, and live in
 * the quotes store with a subscription per instrument (`quotes-store.ts`), not here. Candles are
 * fetched per instrument and interval; the forming candle is then moved by ticks in the chart.
 */
export const marketQueries = {
  all: () => ['market'] as const,
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
  const marketData = useMarketData();
  return (
    useQuery({ ...marketQueries.previousClose(instrumentToken ?? 0), enabled: instrumentToken !== null && marketData })
      .data ?? null
  );
}

export type { CandleInterval };
