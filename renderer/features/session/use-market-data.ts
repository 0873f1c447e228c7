import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from './queries';

/** What a panel says on an account whose plan has no market data (docs/kite.md §The plan). */
export const NO_MARKET_DATA = 'No market data on this Kite plan';

/**
 * False when the logged-in account's plan has no market data (Kite's personal plan, found by
 * main at login): prices, depth, candles and the option chain are then not asked for at all,
 * and the panels say why instead of failing or turning stale.
 */
export function useMarketData(): boolean {
  return useQuery(sessionQueries.status()).data?.marketData !== 'none';
}
