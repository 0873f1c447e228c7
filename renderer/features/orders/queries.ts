import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Order, OrderChanges, OrderRequest } from '@shared/domain/order';
import { afterNextPaint } from '../../lib/after-paint';
import { call, parseReply } from '../../lib/ipc-client';
import { FIRST_PAGE_ROWS, takeFirstSync } from './first-sync';
import { orderBookOf } from './order-book-store';
import { portfolioQueries } from '../portfolio/queries';

/** Rows per `orders.page` call: a few tens of milliseconds of parsing each, between frames. */
export const PAGE_ROWS = 1000;

const loaders = new WeakMap<QueryClient, Promise<void>>();

/** Resolves at the next moment the page's main thread is idle (or soon, where there is no idle callback). */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 100 });
    else setTimeout(resolve, 0);
  });
}

/**
 * Loads the rest of a book whose full answer came paged, one `orders.page` at a time in idle
 * slices, each applied to the page's order book and handed to react-query (docs/live-data.md
 * §The first screen first). One loader per client; resolves when the book is whole. A page of
 * another book (main logged in again meanwhile) ends it and asks for a fresh sync.
 */
export function loadRestOfBook(client: QueryClient): Promise<void> {
  const running = loaders.get(client);
  if (running) return running;
  const book = orderBookOf(client);
  const run = (async () => {
    // The rows already here paint first: a page's reply (its parse and its render) landing
    // before the next frame would hold the first screen back. A whole book waits for nothing.
    if (book.pageInput()) await new Promise<void>((painted) => afterNextPaint(painted));
    for (let at = book.pageInput(); at; at = book.pageInput()) {
      await idle();
      const page = await call('orders.page', { ...at, limit: PAGE_ROWS });
      if (!book.applyPage(page, at.after)) {
        // Main holds another book (a new login): sync afresh. Else a newer full answer restarted
        // the load, and the loop goes on from where that one is.
        if (page.book === at.book) continue;
        void client.invalidateQueries({ queryKey: orderQueries.lists() });
        return;
      }
      client.setQueryData(orderQueries.list().queryKey, book.list());
    }
  })().finally(() => loaders.delete(client));
  loaders.set(client, run);
  return run;
}

/** Every order of the session, whole: a fresh sync, then the rest of a paged answer (a CSV must not be partial). */
export async function wholeBook(client: QueryClient): Promise<Order[]> {
  await client.fetchQuery({ ...orderQueries.list(), staleTime: 0 });
  await loadRestOfBook(client);
  return orderBookOf(client).list();
}

/**
 * Query factory for orders (TkDodo's pattern: key-only entries from generic to specific, plus
 * `queryOptions` entries that carry their fetcher).
 *
 * Polled reads do not retry inside react-query (`retry: false`): main already retried the
 * broker with backoff, and the polling policy owns what happens next, so a failure shows on
 * the panel at once instead of hiding behind a silent second attempt.
 */
export const orderQueries = {
  all: () => ['orders'] as const,
  lists: () => [...orderQueries.all(), 'list'] as const,
  /**
   * Every order of the session, from the page's copy of main's order book: each poll asks main
   * only for what changed after the page's cursor (`orders.sync`) and the same array comes back
   * while nothing did (docs/live-data.md §The order book in main). A full answer brings the
   * newest rows first and the rest loads behind them (`loadRestOfBook`). Structural sharing is
   * off: comparing 10,000 orders field by field on every poll was the cost this avoids.
   */
  list: () =>
    queryOptions({
      queryKey: [...orderQueries.lists()],
      queryFn: async ({ client }) => {
        const book = orderBookOf(client);
        const input = book.syncInput();
        // An empty book's first fetch takes the sync the page sent as it started, if any (the same call).
        const early = input.since === undefined ? takeFirstSync() : null;
        book.applySync(
          early
            ? parseReply('orders.sync', await early)
            : await call('orders.sync', { ...input, first: FIRST_PAGE_ROWS }),
        );
        // A paged full answer: the first screen paints now, the rest loads between frames.
        if (book.pageInput()) loadRestOfBook(client).catch(() => undefined);
        return book.list();
      },
      retry: false,
      structuralSharing: false,
    }),
  histories: () => [...orderQueries.all(), 'history'] as const,
  history: (orderId: string) =>
    queryOptions({
      queryKey: [...orderQueries.histories(), orderId],
      queryFn: () => call('orders.history', { orderId }),
    }),
};

/**
 * Everything an order change can move: the blotter, positions, funds. Fired, not awaited: a
 * mutation whose `onSettled` returns a promise stays pending until it settles, and the trader
 * must see the broker's answer the moment it arrives, not after the refetches it triggers
 * (which wait their turn behind the polls in main's rate limiter).
 */
export function useInvalidateAfterOrder(): () => void {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: orderQueries.all() });
    void client.invalidateQueries({ queryKey: portfolioQueries.all() });
  };
}

/**
 * Places an order (main assigns the idempotency key and journals it before sending). The caller
 * gives each click its own `requestId`: main never makes a second intent for one, and a reply
 * lost on the way back is matched to its intent by it (docs/money-path.md, "The money path on
 * screen").
 */
export function usePlaceOrder() {
  const invalidate = useInvalidateAfterOrder();
  return useMutation({
    mutationKey: ['orders', 'place'],
    mutationFn: (v: { order: OrderRequest; requestId: string; clickedAt: number; riskOverride?: true }) =>
      call('orders.place', v),
    onSettled: invalidate,
  });
}

/** Modifies a working order. */
export function useModifyOrder() {
  const invalidate = useInvalidateAfterOrder();
  return useMutation({
    mutationKey: ['orders', 'modify'],
    mutationFn: (v: { orderId: string; changes: OrderChanges; riskOverride?: true }) => call('orders.modify', v),
    onSettled: invalidate,
  });
}

/** Cancels a working order (repeating it on a cancelled order is harmless). */
export function useCancelOrder() {
  const invalidate = useInvalidateAfterOrder();
  return useMutation({
    mutationKey: ['orders', 'cancel'],
    mutationFn: (orderId: string) => call('orders.cancel', { orderId }),
    onSettled: invalidate,
  });
}
