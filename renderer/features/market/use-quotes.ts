import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { marketQueries, type Quote, type Quotes } from './queries';

const EMPTY: Quotes = {};

/** The latest quote per instrument token (pushed by `market.ticks`). Re-renders on every batch. */
export function useQuotes(): Quotes {
  return useQuery(marketQueries.quotes()).data ?? EMPTY;
}

/** One instrument's latest quote; re-renders only when that instrument ticks. */
export function useQuote(instrumentToken: number | null | undefined): Quote | undefined {
  const select = useCallback(
    (q: Quotes) => (instrumentToken == null ? undefined : q[instrumentToken]),
    [instrumentToken],
  );
  return useQuery({ ...marketQueries.quotes(), select }).data;
}
