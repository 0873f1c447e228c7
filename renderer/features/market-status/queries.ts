import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Exchange } from '@shared/domain/instrument';
import type { ExchangeSession, MarketStatus } from '@shared/domain/market';
import { call } from '../../lib/ipc-client';
import { rereadDelay, sessionOf } from './session-model';

/**
 * Query factory for the market's clock and sessions (`market.status`). It changes only at a
 * session boundary, so it is re-read just after the next one is due (and at least once a minute,
 * in case the market's clock was moved), not on the panels' polling cadence.
 */
export const marketStatusQueries = {
  status: () =>
    queryOptions({
      queryKey: ['market', 'status'],
      queryFn: () => call('market.status'),
      refetchInterval: (query) => rereadDelay(query.state.data),
      retry: false,
    }),
};

/** The market's clock and sessions, once read. */
export function useMarketStatus(): MarketStatus | undefined {
  return useQuery(marketStatusQueries.status()).data;
}

/** One exchange's session, once read. */
export function useExchangeSession(exchange: Exchange | undefined): ExchangeSession | undefined {
  const status = useMarketStatus();
  return exchange ? sessionOf(status, exchange) : undefined;
}
