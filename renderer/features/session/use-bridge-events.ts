import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Order } from '../../../shared/domain/order';
import { subscribe } from '../../lib/ipc-client';
import { useAlertsActions } from '../../state/alerts-store';
import { marketQueries } from '../market/queries';
import { mergeTicks } from '../market/quote-cache';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { sessionQueries } from './queries';

/** The order list with one order replaced (or added at the front). */
function upsert(orders: Order[] | undefined, o: Order): Order[] | undefined {
  if (!orders) return orders;
  const i = orders.findIndex((x) => x.orderId === o.orderId);
  if (i < 0) return [o, ...orders];
  const next = orders.slice();
  next[i] = o;
  return next;
}

/**
 * How long after an `order.updated` push the list, positions and funds are refetched. The push
 * already updated its row; the refetch only reconciles, and the whole list is megabytes with
 * 10,000 orders, so a burst of pushes (one per order change) shares one refetch instead of
 * queueing one each (which saturated main and the page in the dashboard bench).
 */
const RECONCILE_AFTER_MS = 1000;

/**
 * Turns main's push events into cache updates (TkDodo, "using WebSockets with React Query"):
 * an `order.updated` is written into the list at once and then the list, positions and funds
 * are invalidated (the push carries one order; fills move positions and margin too); ticks go
 * straight into the quotes cache (one batch per ~100 ms, see tick-batcher.ts); session and connection events replace their queries' data.
 */
export function useBridgeEvents(): void {
  const client = useQueryClient();
  const { sessionExpired } = useAlertsActions();
  useEffect(() => {
    let reconcile: ReturnType<typeof setTimeout> | null = null;
    const refetchAfterBurst = (): void => {
      reconcile = null;
      void client.invalidateQueries({ queryKey: orderQueries.all() }, { cancelRefetch: false });
      void client.invalidateQueries({ queryKey: portfolioQueries.all() }, { cancelRefetch: false });
    };
    const offs = [
      subscribe('order.updated', (o) => {
        client.setQueryData(orderQueries.list().queryKey, (old) => upsert(old, o));
        // Pushes come one per order change, in bursts; one reconciling refetch per burst.
        reconcile ??= setTimeout(refetchAfterBurst, RECONCILE_AFTER_MS);
      }),
      subscribe('market.ticks', ({ ticks }) => {
        const at = Date.now();
        client.setQueryData(marketQueries.quotes().queryKey, (old) => mergeTicks(old, ticks, at, 'stream'));
      }),
      subscribe('session.changed', (info) => {
        client.setQueryData(sessionQueries.status().queryKey, info);
      }),
      subscribe('session.expired', ({ reason }) => {
        sessionExpired(reason);
        client.setQueryData(sessionQueries.status().queryKey, (old) =>
          old ? { ...old, state: 'expired' as const } : old,
        );
      }),
      subscribe('connection.changed', (state) => {
        client.setQueryData(sessionQueries.connection().queryKey, state);
      }),
    ];
    return () => {
      offs.forEach((off) => off());
      if (reconcile) clearTimeout(reconcile);
    };
  }, [client, sessionExpired]);
}
