import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { GttChanges, GttRequest } from '@shared/domain/gtt';
import { call } from '../../lib/ipc-client';
import { orderQueries } from '../orders/queries';

/**
 * Query factory for GTTs (docs/gtt.md). Keyed under `orderQueries.all()`: a GTT that fires
 * places an order, and the order's push refreshes the orders — and with them this list, so a
 * triggered GTT shows its order without waiting for the next poll.
 */
export const gttQueries = {
  list: () => queryOptions({ queryKey: [...orderQueries.all(), 'gtt'], queryFn: () => call('gtt.list'), retry: false }),
};

/** Creates a GTT once (`requestId` per click), then re-reads the list. */
export function usePlaceGtt() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['gtt', 'place'],
    mutationFn: (v: { gtt: GttRequest; requestId: string; riskOverride?: true }) => call('gtt.place', v),
    onSettled: () => client.invalidateQueries({ queryKey: gttQueries.list().queryKey }),
  });
}

/** New triggers and orders for an active GTT. */
export function useModifyGtt() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['gtt', 'modify'],
    mutationFn: (v: { gttId: string; changes: GttChanges; requestId: string; riskOverride?: true }) =>
      call('gtt.modify', v),
    onSettled: () => client.invalidateQueries({ queryKey: gttQueries.list().queryKey }),
  });
}

/** Deletes a GTT. */
export function useDeleteGtt() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['gtt', 'delete'],
    mutationFn: (gttId: string) => call('gtt.delete', { gttId }),
    onSettled: () => client.invalidateQueries({ queryKey: gttQueries.list().queryKey }),
  });
}
