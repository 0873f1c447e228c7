import { hashKey, useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Order } from '@shared/domain/order';
import type { SessionInfo } from '@shared/domain/session';
import { subscribe } from '../../lib/ipc-client';
import { useAlertsActions } from '../../state/alerts-store';
import { marketQueries } from '../market/queries';
import { mergeTicks } from '../market/quote-cache';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { laterSession, sessionQueries, takeSession } from './queries';
import { useReconcileOnStreamChange } from './use-stream-live';

/** The order list with a batch of orders replaced in place (new ones added at the front). */
export function upsertOrders(orders: Order[] | undefined, batch: readonly Order[]): Order[] | undefined {
  if (!orders || batch.length === 0) return orders;
  const byId = new Map(batch.map((o) => [o.orderId, o]));
  const next = orders.map((x) => {
    const o = byId.get(x.orderId);
    if (!o) return x;
    byId.delete(x.orderId);
    return o;
  });
  return byId.size > 0 ? [...byId.values(), ...next] : next;
}

/**
 * Pushed order changes are applied together at most this often: with thousands of orders each
 * application copies and re-sorts the blotter's list, so one per push (a hundred a second under
 * churn) starved the page; 50 ms is still well inside a trader's "at once".
 */
const APPLY_EVERY_MS = 50;

/**
 * How long after an `order.updated` push the list, positions and funds are refetched. The push
 * already updated its row; the refetch only reconciles, and the whole list is megabytes with
 * 10,000 orders, so a burst of pushes (one per order change) shares one refetch instead of
 * queueing one each (which saturated main and the page in the dashboard bench).
 */
const RECONCILE_AFTER_MS = 1000;

/** True when `batch` holds a fill the cached list has not seen (a new order with fills counts). */
export function hasNewFill(cached: readonly Order[] | undefined, batch: readonly Order[]): boolean {
  const before = new Map((cached ?? []).map((o) => [o.orderId, o.filledQuantity]));
  return batch.some((o) => o.filledQuantity > (before.get(o.orderId) ?? 0));
}

/** Holdings move only with a fill; every other portfolio read (positions, funds, margins) with any order change. */
const unlessHoldings = (q: Query): boolean => q.queryKey[1] !== portfolioQueries.holdings().queryKey[1];

/**
 * Turns main's push events into cache updates (TkDodo, "using WebSockets with React Query"):
 * `order.updated` pushes are written into the list together every 50 ms and then the list,
 * positions and funds are reconciled, holdings too when a push carried a fill (the push carries
 * one order; fills move positions, margin and holdings too); ticks go straight into the quotes
 * cache (one batch per ~100 ms, see tick-batcher.ts); session and connection events replace their
 * queries' data, and a lost or regained stream reconciles everything at once.
 *
 * Session facts are kept in main's order, not arrival order (docs/architecture.md §Session facts
 * are ordered by main): the status cache keeps the later of what it holds and what arrives, the
 * expiry alert ignores an expiry older than a session already seen, and every status the cache
 * takes — pushed, replied to a login, or refetched — is shown to the alert, so a newer
 * connected session ends it and an older one cannot.
 */
export function useBridgeEvents(): void {
  const client = useQueryClient();
  const { sessionExpired, sessionSeen } = useAlertsActions();
  useReconcileOnStreamChange();
  useEffect(() => {
    const statusHash = hashKey(sessionQueries.status().queryKey);
    let reconcile: ReturnType<typeof setTimeout> | null = null;
    let apply: ReturnType<typeof setTimeout> | null = null;
    let filled = false;
    const pending = new Map<string, Order>();
    const applyPending = (): void => {
      apply = null;
      const batch = [...pending.values()];
      pending.clear();
      const key = orderQueries.list().queryKey;
      if (hasNewFill(client.getQueryData(key), batch)) filled = true;
      client.setQueryData(key, (old) => upsertOrders(old, batch));
      // Pushes come one per order change, in bursts; one reconciling refetch per burst.
      reconcile ??= setTimeout(refetchAfterBurst, RECONCILE_AFTER_MS);
    };
    const refetchAfterBurst = (): void => {
      reconcile = null;
      const predicate = filled ? undefined : unlessHoldings;
      filled = false;
      void client.invalidateQueries({ queryKey: orderQueries.all() }, { cancelRefetch: false });
      void client.invalidateQueries(
        { queryKey: portfolioQueries.all(), ...(predicate ? { predicate } : {}) },
        { cancelRefetch: false },
      );
    };
    const offs = [
      subscribe('order.updated', (o) => {
        pending.set(o.orderId, o); // the latest state of each order wins
        apply ??= setTimeout(applyPending, APPLY_EVERY_MS);
      }),
      subscribe('market.ticks', ({ ticks }) => {
        const at = Date.now();
        client.setQueryData(marketQueries.quotes().queryKey, (old) => mergeTicks(old, ticks, at, 'stream'));
      }),
      subscribe('session.changed', (info) => {
        takeSession(client, info);
        // No session, no spending to show (a new one's meter publishes its own figures).
        if (info.state !== 'connected') client.setQueryData(sessionQueries.usage().queryKey, null);
      }),
      subscribe('session.expired', ({ reason, version }) => {
        sessionExpired(reason, version);
        const now = client.setQueryData(sessionQueries.status().queryKey, (held) =>
          held ? laterSession(held, { ...held, state: 'expired', version }) : held,
        );
        // An expiry older than the session held ends nothing, the meter included.
        if (now?.state !== 'connected') client.setQueryData(sessionQueries.usage().queryKey, null);
      }),
      subscribe('connection.changed', (state) => {
        client.setQueryData(sessionQueries.connection().queryKey, state);
      }),
      client.getQueryCache().subscribe((e) => {
        if (e.type === 'updated' && e.action.type === 'success' && e.query.queryHash === statusHash) {
          sessionSeen(e.query.state.data as SessionInfo);
        }
      }),
      subscribe('usage.changed', (usage) => {
        client.setQueryData(sessionQueries.usage().queryKey, usage);
      }),
    ];
    return () => {
      offs.forEach((off) => off());
      if (reconcile) clearTimeout(reconcile);
      if (apply) clearTimeout(apply);
    };
  }, [client, sessionExpired, sessionSeen]);
}
