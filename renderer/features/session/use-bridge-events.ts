import { noteMarketTime } from '../../lib/market-clock';
import { hashKey, useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { EventPayload } from '@shared/ipc/contract';
import type { SessionInfo, SessionVersion } from '@shared/domain/session';
import { subscribe } from '../../lib/ipc-client';
import { useSessionBannerActions } from '../../state/session-banner-store';
import { quotesStoreFor } from '../market/quotes-store';
import { orderBookOf, type OrderChange } from '../orders/order-book-store';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { askNewSession, beginsSession, laterSession, sessionQueries, takeSession } from './queries';
import { useReconcileOnStreamChange } from './use-stream-live';

/**
 * Pushed order changes are applied together at most this often: each application is one render
 * of every panel that reads orders, so one per push (a hundred a second under churn) would keep
 * the page busy; 50 ms is still well inside a trader's "at once".
 */
const APPLY_EVERY_MS = 50;

/**
 * How long after an `orders.changed` push the book, positions and funds are refetched. The push
 * already updated its row; the refetch only reconciles (a sync of the book costs only what
 * changed, but positions and funds are read whole), so a burst of pushes shares one refetch.
 */
const RECONCILE_AFTER_MS = 1000;

/** True when a batch of changes carries a fill the page had not seen (a new order with fills counts). */
export function hasNewFill(changes: readonly OrderChange[]): boolean {
  return changes.some((c) => (c.next?.filledQuantity ?? 0) > (c.prev?.filledQuantity ?? 0));
}

/** Holdings move only with a fill; every other portfolio read (positions, funds, margins) with any order change. */
const unlessHoldings = (q: Query): boolean => q.queryKey[1] !== portfolioQueries.holdings().queryKey[1];

/**
 * Turns main's push events into cache updates (TkDodo, "using WebSockets with React Query"):
 * `orders.changed` deltas are applied to the page's order book together every 50 ms and then the list,
 * positions and funds are reconciled, holdings too when a push carried a fill (the push carries
 * one order; fills move positions, margin and holdings too); ticks go straight into the quotes
 * cache (one batch per ~100 ms, see tick-batcher.ts); session and connection events replace their
 * queries' data, and a lost or regained stream reconciles everything at once.
 *
 * Session facts are kept in main's order, not arrival order (docs/session.md §Session facts
 * are ordered by main): the status cache keeps the later of what it holds and what arrives, the
 * expiry alert ignores an expiry older than a session already seen, and every status the cache
 * takes — pushed, replied to a login, or refetched — is shown to the alert, so a newer
 * connected session ends it and an older one cannot. A newer connected session also re-asks
 * every read (docs/session.md §A new session re-asks every read).
 */
export function useBridgeEvents(): void {
  const client = useQueryClient();
  const { sessionExpired, sessionSeen } = useSessionBannerActions();
  useReconcileOnStreamChange();
  useEffect(() => {
    const statusHash = hashKey(sessionQueries.status().queryKey);
    // The last connected session the page served; `undefined` until the page has its first
    // status, which is where it starts rather than a new session.
    const first = client.getQueryData<SessionInfo>(sessionQueries.status().queryKey);
    let served: SessionVersion | null | undefined = first && (first.state === 'connected' ? first.version : null);
    const onStatus = (info: SessionInfo): void => {
      sessionSeen(info);
      if (served === undefined) {
        served = info.state === 'connected' ? info.version : null;
      } else if (beginsSession(served, info)) {
        served = info.version;
        void askNewSession(client);
      }
    };
    let reconcile: ReturnType<typeof setTimeout> | null = null;
    let apply: ReturnType<typeof setTimeout> | null = null;
    let filled = false;
    const book = orderBookOf(client);
    let pending: Array<EventPayload<'orders.changed'>> = [];
    const applyPending = (): void => {
      apply = null;
      const batch = pending;
      pending = [];
      let changed = false;
      for (const delta of batch) changed = book.applyPushed(delta) || changed;
      // One new list per batch; the blotter's view and notifications already have the rows.
      if (changed) client.setQueryData(orderQueries.list().queryKey, book.list());
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
      book.subscribe((changes) => {
        if (hasNewFill(changes)) filled = true;
      }),
      subscribe('orders.changed', (delta) => {
        pending.push(delta);
        apply ??= setTimeout(applyPending, APPLY_EVERY_MS);
      }),
      subscribe('market.ticks', ({ ticks }) => {
        const now = Date.now();
        // The market's lead over this machine, for the app's own times (docs/desk.md §One clock):
        // from the batch's newest stamp (an instrument that has not traded carries an older one).
        const newest = Math.max(...ticks.map((t) => Date.parse(t.ts)));
        if (ticks.length > 0) noteMarketTime(newest, now);
        quotesStoreFor(client).push(ticks, now, 'stream');
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
          onStatus(e.query.state.data as SessionInfo);
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
