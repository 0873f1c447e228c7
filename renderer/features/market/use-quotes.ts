import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { quotesStoreFor, type QuotesStore } from './quotes-store';
import type { Quote, Quotes } from './quote-cache';

/** This window's quotes store (one per query client). */
export function useQuotesStore(): QuotesStore {
  return quotesStoreFor(useQueryClient());
}

/**
 * The latest quote per instrument token (pushed by `market.ticks`). Re-renders once per applied
 * batch of ticks that moved any price: for panels that need many instruments at once (P&L).
 */
export function useQuotes(): Quotes {
  const store = useQuotesStore();
  return useSyncExternalStore(store.subscribeAll, store.all);
}

/**
 * One instrument's latest quote; re-renders only when that instrument ticks. With `live` false
 * it stops listening and keeps what it last showed, reading the latest again as soon as it is
 * live (a watchlist row scrolled out of view: its ticks cost nothing until it comes back).
 */
export function useQuote(instrumentToken: number | null | undefined, live = true): Quote | undefined {
  const store = useQuotesStore();
  const subscribe = useCallback(
    (listener: () => void) =>
      instrumentToken == null || !live ? () => undefined : store.subscribe(instrumentToken, listener),
    [store, instrumentToken, live],
  );
  const get = useCallback(
    () => (instrumentToken == null ? undefined : store.get(instrumentToken)),
    [store, instrumentToken],
  );
  return useSyncExternalStore(subscribe, get);
}
