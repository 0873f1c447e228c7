import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { beep } from '../../lib/beep';
import { useSoundOnRef } from '../../state/settings-store';
import { useToastActions } from '../../state/toast-store';
import type { Placement } from '@shared/domain/placement';
import { call, subscribe } from '../../lib/ipc-client';
import { orderQueries } from '../orders/queries';
import { portfolioQueries } from '../portfolio/queries';
import { isOpenPlacement } from './placement-model';

/**
 * How often the list is re-read while anything in it is open (or the last read failed). Main
 * pushes every change as `placements.changed`; this only covers a push missed while the link to
 * main was down (the browser host's socket reconnecting), so it can be slow.
 */
const OPEN_RECHECK_MS = 2_000;

/**
 * Query factory for the unconfirmed-placements list (docs/money-path.md, "The money path on
 * screen"): kept current by `placements.changed` pushes, re-read while anything is open.
 */
export const placementQueries = {
  all: () => ['placements'] as const,
  list: () =>
    queryOptions({
      queryKey: [...placementQueries.all(), 'list'],
      queryFn: () => call('placements.list'),
      refetchInterval: (query: { state: { data: Placement[] | undefined; status: string } }) =>
        query.state.status === 'error' || (query.state.data ?? []).some(isOpenPlacement) ? OPEN_RECHECK_MS : false,
    }),
  /** Ledger lines main could not read: known when the session's core opened its ledger. */
  records: () =>
    queryOptions({
      queryKey: [...placementQueries.all(), 'records'],
      queryFn: () => call('placements.records'),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};

/** Refetches what an intent turning into an order changes: the blotter, positions, funds. */
function invalidateOrders(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: orderQueries.all() });
  void client.invalidateQueries({ queryKey: portfolioQueries.all() });
}

/** True when `next` holds a placed intent that `previous` did not (so its order row must be fetched). */
function newlyPlaced(previous: readonly Placement[] | undefined, next: readonly Placement[]): boolean {
  const before = new Map((previous ?? []).map((p) => [p.clientOrderId, p.state]));
  return next.some((p) => p.state === 'placed' && before.get(p.clientOrderId) !== 'placed');
}

/** Placements in `next` whose order appeared after they were reported not found, and were not so in `previous`. */
export function newlyAppearedLate(previous: readonly Placement[] | undefined, next: readonly Placement[]): Placement[] {
  const before = new Set((previous ?? []).filter((p) => p.appearedLate).map((p) => p.clientOrderId));
  return next.filter((p) => p.appearedLate === true && !before.has(p.clientOrderId));
}

/**
 * Writes every `placements.changed` push into the list's cache (TkDodo, "using WebSockets with
 * React Query"), and refetches the orders when an intent became an order, so the blotter's
 * "Unconfirmed" row is replaced by the real one at once. An order reported not found that has
 * appeared is a loud alert: a toast that stays until dismissed, and a beep when sound is on
 * (docs/money-path.md §After the landing horizon).
 */
export function usePlacementEvents(): void {
  const client = useQueryClient();
  const { toastRaised } = useToastActions();
  const soundRef = useSoundOnRef();
  useEffect(
    () =>
      subscribe('placements.changed', ({ placements }) => {
        const key = placementQueries.list().queryKey;
        const previous = client.getQueryData(key);
        client.setQueryData(key, placements);
        if (newlyPlaced(previous, placements)) invalidateOrders(client);
        for (const p of newlyAppearedLate(previous, placements)) {
          toastRaised({
            id: `appeared:${p.clientOrderId}`,
            tone: 'bad',
            title: 'An order reported not found has appeared',
            detail: p.detail,
          });
          if (soundRef.current) beep('bad');
        }
      }),
    [client, toastRaised, soundRef],
  );
}

/** The trader's "Place again" on an intent confirmed absent after a restart (same reference). */
export function usePlaceAgain() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['placements', 'placeAgain'],
    mutationFn: (v: { clientOrderId: string; mayDuplicate: boolean; riskOverride?: true }) =>
      call('placements.placeAgain', {
        clientOrderId: v.clientOrderId,
        ...(v.mayDuplicate ? { mayDuplicate: true } : {}),
        ...(v.riskOverride ? { riskOverride: true } : {}),
      }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: placementQueries.all() });
      invalidateOrders(client);
    },
  });
}

/** The trader's "Discard" on an intent confirmed absent after a restart: nothing is sent. */
export function useDiscardPlacement() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['placements', 'discard'],
    mutationFn: (clientOrderId: string) => call('placements.discard', { clientOrderId }),
    onSuccess: (settled) =>
      client.setQueryData(placementQueries.list().queryKey, (old = []) => [
        settled,
        ...old.filter((p) => p.clientOrderId !== settled.clientOrderId),
      ]),
    onSettled: () => void client.invalidateQueries({ queryKey: placementQueries.all() }),
  });
}
