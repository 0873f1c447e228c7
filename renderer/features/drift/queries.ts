import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { DriftStatus } from '@shared/domain/drift';
import { call, subscribe } from '../../lib/ipc-client';

/**
 * Query factory for the drift alarm (docs/contract.md §Drift alarm): main checks and keeps the
 * findings; `drift.changed` pushes keep the cache current, and a slow read covers a missed push.
 */
export const driftQueries = {
  status: () =>
    queryOptions({
      queryKey: ['drift', 'status'],
      queryFn: () => call('drift.status'),
      retry: false,
      refetchInterval: 60_000,
    }),
};

/** Writes each `drift.changed` push into the cache. */
export function useDriftEvents(): void {
  const client = useQueryClient();
  useEffect(
    () => subscribe('drift.changed', (status) => client.setQueryData(driftQueries.status().queryKey, status)),
    [client],
  );
}

/** "Check now": main compares at once; its answer is the status after the check. */
export function useCheckDrift() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['drift', 'check'],
    mutationFn: () => call('drift.check'),
    onSuccess: (status: DriftStatus) => client.setQueryData(driftQueries.status().queryKey, status),
  });
}

/** Acknowledges one finding: it leaves the list. */
export function useAcknowledgeDrift() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['drift', 'acknowledge'],
    mutationFn: (id: string) => call('drift.acknowledge', { id }),
    onSuccess: (status: DriftStatus) => client.setQueryData(driftQueries.status().queryKey, status),
  });
}
