import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import { quotesStoreFor, type QuotesStore } from './quotes-store';
import type { Quote, Quotes } from './quote-cache';

/** This window's quotes store (one per query client). */
export function useQuotesStore(): QuotesStore {
  return quotesStoreFor(useQueryClient());
}

/**
 * The latest quote per instrument token (pushed by `market.ticks`). Re-renders once per applied
 * batch of ticks that moved any price, whichever instrument it was: for a view of every quote.
 * A panel that prices a known set of instruments (P&L) takes `useQuotesOf` instead.
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

/**
 * The latest quotes of `tokens` only, as one map that changes identity only when one of their
 * quotes does: a panel pricing the trader's positions or holdings re-renders when those
 * instruments tick, not on every tick of a 200-row watchlist (docs/live-data.md §A ticking list's
 * cost). The order of `tokens` does not matter.
 */
export function useQuotesOf(tokens: readonly number[]): Quotes {
  const store = useQuotesStore();
  const key = [...new Set(tokens)].sort((a, b) => a - b).join(',');
  const wanted = useMemo(() => (key === '' ? [] : key.split(',').map(Number)), [key]);
  const subscribe = useCallback(
    (listener: () => void) => {
      const offs = wanted.map((t) => store.subscribe(t, listener));
      return () => offs.forEach((off) => off());
    },
    [store, wanted],
  );
  const last = useRef<{ wanted: readonly number[]; quotes: Quotes } | null>(null);
  const get = useCallback((): Quotes => {
    const prev = last.current;
    const same = prev !== null && prev.wanted === wanted && wanted.every((t) => prev.quotes[t] === store.get(t));
    if (same) return prev.quotes;
    const next: Record<number, Quote> = {};
    for (const t of wanted) {
      const q = store.get(t);
      if (q) next[t] = q;
    }
    last.current = { wanted, quotes: next };
    return next;
  }, [store, wanted]);
  return useSyncExternalStore(subscribe, get);
}
