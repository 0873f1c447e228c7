import type { QueryClient } from '@tanstack/react-query';
import type { Tick } from '@shared/domain/market';
import { takesTick, type Quote, type Quotes } from './quote-cache';
import { focusPaced, type FrameScheduler } from './paint-pace';
import { subscribeWindowFocus, windowFocused } from './window-focus';

/**
 * The latest quote per instrument, with a subscription per instrument (docs/live-data.md
 * §Live data: polling, the stream and ticks).
 *
 * A watchlist of 200 instruments ticking five times a second each takes in ~1,000 ticks a
 * second. Held in one cache entry that every row selects from, each batch woke every row's
 * observer; here a tick wakes only the subscribers of its own instrument (and the few readers
 * of the whole map, such as the positions' P&L). Ticks are queued as they arrive and applied
 * once per animation frame, so however many batches the bridge delivers within a frame, React
 * commits at most once for them.
 */
export interface QuotesStore {
  /** Queues a batch of ticks; they are applied, and subscribers told, at the next frame. */
  push(ticks: readonly Tick[], receivedAt: number, source: Quote['source']): void;
  /** Applies the queued ticks now and tells the subscribers of the instruments that moved. */
  flush(): void;
  /** An instrument's quote as last applied (stable between notifications, as React requires). */
  get(instrumentToken: number): Quote | undefined;
  /** An instrument's quote with everything queued applied: for reads in event handlers, not in render. */
  latest(instrumentToken: number): Quote | undefined;
  /** Every quote, as one immutable map that changes identity only when a quote does. */
  all(): Quotes;
  /** Calls `listener` whenever this instrument's quote changes; returns the unsubscribe. */
  subscribe(instrumentToken: number, listener: () => void): () => void;
  /** Calls `listener` once per applied batch that changed any quote; returns the unsubscribe. */
  subscribeAll(listener: () => void): () => void;
}

/** The browser's next animation frame; a short timer while the window is hidden or without rAF. */
export const nextFrame: FrameScheduler = (work) => {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && !document.hidden) {
    requestAnimationFrame(() => work());
  } else {
    setTimeout(work, 100);
  }
};

/** A quotes store applying queued ticks when `schedule` says (tests pass a manual one). */
export function createQuotesStore(schedule: FrameScheduler = nextFrame): QuotesStore {
  const quotes = new Map<number, Quote>();
  const listeners = new Map<number, Set<() => void>>();
  const everyone = new Set<() => void>();
  let pending: Array<{ ticks: readonly Tick[]; receivedAt: number; source: Quote['source'] }> = [];
  let scheduled = false;
  let snapshot: Quotes | null = null;

  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const batches = pending;
    pending = [];
    const moved = new Set<number>();
    for (const { ticks, receivedAt, source } of batches) {
      for (const t of ticks) {
        if (!takesTick(quotes.get(t.instrumentToken), t, source)) continue;
        quotes.set(t.instrumentToken, { ...t, receivedAt, source });
        moved.add(t.instrumentToken);
      }
    }
    if (moved.size === 0) return;
    snapshot = null;
    for (const token of moved) {
      const set = listeners.get(token);
      if (set) for (const l of [...set]) l();
    }
    for (const l of [...everyone]) l();
  };

  return {
    push(ticks, receivedAt, source) {
      if (ticks.length === 0) return;
      pending.push({ ticks, receivedAt, source });
      if (scheduled) return;
      scheduled = true;
      schedule(flush);
    },
    flush,
    get: (token) => quotes.get(token),
    latest(token) {
      flush();
      return quotes.get(token);
    },
    all() {
      snapshot ??= Object.fromEntries(quotes) as Quotes;
      return snapshot;
    },
    subscribe(token, listener) {
      let set = listeners.get(token);
      if (!set) listeners.set(token, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(token) === set) listeners.delete(token);
      };
    },
    subscribeAll(listener) {
      everyone.add(listener);
      return () => everyone.delete(listener);
    },
  };
}

const stores = new WeakMap<QueryClient, QuotesStore>();

/**
 * The quotes store of a window, kept beside its query client: one per client, so the app has
 * one and every test that makes a fresh client starts from no quotes. It applies ticks at every
 * frame while the window has the focus and once a second while it has not (`focusPaced`,
 * docs/live-data.md §Windows not focused); only prices go through it, never an order's state.
 */
export function quotesStoreFor(client: QueryClient): QuotesStore {
  let store = stores.get(client);
  if (!store) {
    const created = createQuotesStore(
      focusPaced({
        frame: nextFrame,
        focused: windowFocused,
        onFocusChange: subscribeWindowFocus,
        now: () => performance.now(),
        after: (ms, work) => setTimeout(work, ms),
      }),
    );
    stores.set(client, (store = created));
  }
  return store;
}
