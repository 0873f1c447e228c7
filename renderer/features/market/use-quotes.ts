import { useQuery } from '@tanstack/react-query';
import { marketQueries, type Quotes } from './queries';

const EMPTY: Quotes = {};

/** The latest tick per instrument token (pushed by `market.ticks`). */
export function useQuotes(): Quotes {
  return useQuery(marketQueries.quotes()).data ?? EMPTY;
}
