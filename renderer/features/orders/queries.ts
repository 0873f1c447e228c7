import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderChanges, OrderRequest } from '@shared/domain/order';
import { call } from '../../lib/ipc-client';
import { orderBookOf } from './order-book-store';
import { portfolioQueries } from '../portfolio/queries';

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
   * while nothing did (docs/architecture.md §The order book in main). Structural sharing is off:
   * comparing 10,000 orders field by field on every poll was the cost this avoids.
   */
  list: () =>
    queryOptions({
      queryKey: [...orderQueries.lists()],
      queryFn: async ({ client }) => {
        const book = orderBookOf(client);
        book.applySync(await call('orders.sync', book.syncInput()));
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
function useInvalidateAfterOrder(): () => void {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: orderQueries.all() });
    void client.invalidateQueries({ queryKey: portfolioQueries.all() });
  };
}

/**
 * Places an order (main assigns the idempotency key and journals it before sending). The caller
 * gives each click its own `requestId`: main never makes a second intent for one, and a reply
 * lost on the way back is matched to its intent by it (docs/architecture.md, "The money path on
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
    mutationFn: (v: { orderId: string; changes: OrderChanges }) => call('orders.modify', v),
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
