import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Tick } from '@shared/domain/market';
import { call } from '../../lib/ipc-client';
import { sessionQueries } from '../session/queries';
import { marketQueries } from './queries';
import { quotesStoreFor } from './quotes-store';

/** How often last prices are polled while the stream is down. */
const FALLBACK_MS = 3_000;

/**
 * Polling as the fallback while the stream is down: the instrument list carries every last
 * price, so one request every few seconds (well inside the broker's rate limit) keeps the
 * watchlist, positions and ticket moving, marked as polled. Off while the stream is open, and on
 * an account without market data.
 */
export function useQuoteFallback(): void {
  const client = useQueryClient();
  const session = useQuery(sessionQueries.status()).data;
  const stream = useQuery(sessionQueries.connection()).data?.stream;
  // Without market data there are no prices to poll either (docs/kite.md §The plan).
  const down =
    session?.state === 'connected' && session.marketData !== 'none' && stream !== undefined && stream !== 'open';
  const poll = useQuery({
    queryKey: [...marketQueries.all(), 'fallback'],
    queryFn: () => call('instruments.list'),
    enabled: down,
    refetchInterval: down ? FALLBACK_MS : false,
    gcTime: 0,
    retry: false,
  });
  const { data, dataUpdatedAt } = poll;
  useEffect(() => {
    if (!down || !data) return;
    const ts = new Date(dataUpdatedAt).toISOString();
    const ticks: Tick[] = data
      .filter((i) => i.lastPrice > 0)
      .map((i) => ({ instrumentToken: i.instrumentToken, lastPrice: i.lastPrice, volume: 0, ts }));
    quotesStoreFor(client).push(ticks, dataUpdatedAt, 'poll');
  }, [client, data, dataUpdatedAt, down]);
}
